"""The values every temporal chain is made of, and the small rules they share.

An `Assertion` is what one chapter said about one chain; a `Version` is a value of the chain over
`[valid_from, valid_to)`; a `Chain` holds the versions open while a replay folds assertions into
them, with the conflicts and notes the fold raised (`ConflictDraft`). The folds themselves live in
`conflict_resolver` (facts, relations, threads, rules) and `knowledge_rules` (secrets).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast, get_args

from .schema import ThreadKind

KEY_SEPARATOR = "\x1f"
# The temporal families: entity facts, relations, threads, world rules, who knows which secret,
# and the secrets themselves. Each keeps its chains in the same assertion and version tables.
Family = Literal["fact", "rel", "thread", "rule", "know", "secret"]
FAMILIES: tuple[Family, ...] = get_args(Family)


# What one assertion claims, family by family: the payload an extractor writes and a fold reads.
class FactPayload(TypedDict, total=False):
    op: str  # set | add | remove
    value: Any
    old: Any
    has_old: bool
    reason: str
    confidence: float
    source_type: str
    evidence: list[dict[str, Any]]


class RelationPayload(TypedDict, total=False):
    action: str  # create | update | end
    type: str
    description: str | None
    confidence: float
    evidence: list[dict[str, Any]]


class ThreadPayload(TypedDict, total=False):
    action: str  # plant | advance | resolve | abandon
    kind: ThreadKind | None
    content: str | None
    due_chapter: int | None
    urgency: float | None
    related: list[str]
    evidence: list[dict[str, Any]]


class RulePayload(TypedDict, total=False):
    action: str  # reveal | revise | retire
    rule: str
    domain: str | None
    evidence: list[dict[str, Any]]


class SecretPayload(TypedDict, total=False):
    action: str  # plant | reveal | retire
    content: str | None
    reader_knows: bool | None
    reveal_due: int | None
    evidence: list[dict[str, Any]]


# `from` is a keyword, so this one is spelled as a call.
KnowledgePayload = TypedDict(
    "KnowledgePayload",
    {
        "change": str,  # learns | suspects | forgets
        "how": str | None,
        "from": str | None,
        "evidence": list[dict[str, Any]],
    },
    total=False,
)
Payload = (
    FactPayload | RelationPayload | ThreadPayload | RulePayload | SecretPayload | KnowledgePayload
)


def fact_claim(a: Assertion) -> FactPayload:
    """An assertion's payload read as its family's (the fold for a family calls the right one)."""
    return cast(FactPayload, a.payload)


def relation_claim(a: Assertion) -> RelationPayload:
    return cast(RelationPayload, a.payload)


def thread_claim(a: Assertion) -> ThreadPayload:
    return cast(ThreadPayload, a.payload)


def rule_claim(a: Assertion) -> RulePayload:
    return cast(RulePayload, a.payload)


def secret_claim(a: Assertion) -> SecretPayload:
    return cast(SecretPayload, a.payload)


def knowledge_claim(a: Assertion) -> KnowledgePayload:
    return cast(KnowledgePayload, a.payload)


# What a replay did to a chain, counted in a commit report.
ChainEvent = Literal["added", "superseded", "contradicted", "tentative"]


def chain_key(*parts: str) -> str:
    return KEY_SEPARATOR.join(parts)


@dataclass(frozen=True)
class Assertion:
    """One normalized claim of one chapter about one chain."""

    family: Family
    key: str
    subject: str
    field: str
    obj: str | None
    chapter: int
    seq: int
    payload: Payload
    id: int | None = None


@dataclass
class Version:
    """One version of a chain; mutable only while a replay runs."""

    family: Family
    key: str
    subject: str
    field: str
    obj: str | None
    value: Any
    valid_from: int
    valid_to: int | None
    status: str
    source_chapter: int
    source_type: str
    confidence: float = 1.0
    evidence: tuple[dict[str, Any], ...] = ()
    row_id: int | None = None
    recorded_at: str = ""
    state: str | None = None  # an indexed tag: a thread's status, or "dead" for a dead status


# Where a conflict message names its entities. The text around them holds what a chapter result
# said (values, relation types, names), which may itself read "{who}": a lone surrogate can
# never come from a result (json_hygiene refuses it), so these marks are the rules' alone.
WHO = "\udb40who\udb40"
TARGET = "\udb40target\udb40"
_STORED_PLACEHOLDER = {WHO: "{who}", TARGET: "{target}"}


def stored_message(message: str) -> str:
    """A draft's message as stored: literal braces doubled, the rules' marks as {who} and
    {target}, for `record_ops.named` to fill in one pass when it is read."""
    escaped = message.replace("{", "{{").replace("}", "}}")
    for mark, placeholder in _STORED_PLACEHOLDER.items():
        escaped = escaped.replace(mark, placeholder)
    return escaped


@dataclass(frozen=True)
class ConflictDraft:
    kind: str
    chapter: int
    entity_id: str | None
    field: str | None
    expected: Any
    found: Any
    message: str  # may hold WHO and TARGET: the pipeline puts the entities' names there
    evidence: tuple[dict[str, Any], ...] = ()
    target: str | None = None  # the other entity of a relation conflict


@dataclass
class Chain:
    """The versions of one key open before the replayed chapters, and what the replay does."""

    current: Version | None = None
    tentatives: list[Version] = field(default_factory=list)
    touched: list[Version] = field(default_factory=list)
    conflicts: list[ConflictDraft] = field(default_factory=list)
    notes: list[ConflictDraft] = field(default_factory=list)  # advice: warned, never recorded
    events: list[tuple[ChainEvent, int]] = field(default_factory=list)  # (what, chapter)

    @classmethod
    def reopen(cls, open_versions: Iterable[Version], tentative_below: float) -> Chain:
        """Reset versions open at the replay start to how they stood before it closed them."""
        chain = cls()
        for version in open_versions:
            version.valid_to = None
            if version.status == "tentative" or version.confidence < tentative_below:
                version.status = "tentative"
                chain.tentatives.append(version)
            else:
                version.status = "active"
                chain.current = version
            chain.touched.append(version)
        return chain

    def close_current(self, chapter: int, status: str = "outdated") -> None:
        if self.current is not None:
            self.current.valid_to = chapter
            self.current.status = status
            self.events.append(
                ("contradicted" if status == "contradicted" else "superseded", chapter)
            )
            self.current = None

    def close_tentatives(self, chapter: int) -> None:
        for version in self.tentatives:
            version.valid_to = chapter
        self.tentatives.clear()

    def open(self, version: Version, tentative: bool) -> None:
        self.touched.append(version)
        if tentative:
            version.status = "tentative"
            self.tentatives.append(version)
            self.events.append(("tentative", version.valid_from))
        else:
            version.status = "active"
            self.current = version
            self.events.append(("added", version.valid_from))

    def conflict(self, draft: ConflictDraft) -> None:
        self.conflicts.append(draft)

    def note(self, draft: ConflictDraft) -> None:
        self.notes.append(draft)


def same_value(a: Any, b: Any) -> bool:
    """Values agree when equal or when they print the same (an agent writes 3 or "3")."""
    if a == b:
        return True
    if isinstance(a, list) or isinstance(b, list):
        return False
    return str(a).strip() == str(b).strip()


def new_version(a: Assertion, value: Any, source_type: str, confidence: float) -> Version:
    return Version(
        a.family,
        a.key,
        a.subject,
        a.field,
        a.obj,
        value,
        a.chapter,
        None,
        "active",
        a.chapter,
        source_type,
        confidence,
        tuple(a.payload.get("evidence", ())),
    )


def fmt(value: Any) -> str:
    if isinstance(value, list):
        return "、".join(map(str, value)) or "（空）"
    return "（无）" if value is None else str(value)


@dataclass(frozen=True)
class Activity:
    """An entity appearing or acting in a chapter (appearance, state change, scene, event)."""

    entity_id: str
    chapter: int
    kind: str
    mention: str
