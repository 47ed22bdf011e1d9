"""The values every temporal chain is made of, and the small rules they share.

An `Assertion` is what one chapter said about one chain; a `Version` is a value of the chain over
`[valid_from, valid_to)`; a `Chain` holds the versions open while a replay folds assertions into
them, with the conflicts and notes the fold raised (`ConflictDraft`). The folds themselves live in
`chain_folds` (facts, relations, threads, rules) and `knowledge_rules` (secrets).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple, TypedDict, cast, get_args

from .said import Said, said_again, stored
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
    due_time: str | None  # due in story time, counted from the planting chapter (四十九日后)
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
    about: list[str]  # entity ids the secret is about
    unaware: list[str]  # of those, who does not know it
    kind: str  # SECRET_KINDS
    thread: str  # the thread whose closing ends it
    evidence: list[dict[str, Any]]


# `from` is a keyword, so this one is spelled as a call.
KnowledgePayload = TypedDict(
    "KnowledgePayload",
    {
        "change": str,  # learns | suspects | forgets
        "how": str | None,  # as written, or as the engine said it in the commit's language
        "how_said": dict[str, Any],  # the engine's own `how`, kept to be said again when read
        "from": str | None,
        "present": bool,  # learnt by being told it in the chapter (a reveal's `to`, its scene)
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


@dataclass(frozen=True, kw_only=True, slots=True)
class Assertion:
    """One normalized claim of one chapter about one chain."""

    family: Family
    key: str
    subject: str
    field: str
    obj: str | None
    chapter: int  # story time: the chapter that said it; a replay folds in (chapter, seq) order
    seq: int  # its place among the chapter's assertions
    payload: Payload
    id: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Version:
    """One version of a chain: its value over `[valid_from, valid_to)` in story time. A replay
    that closes or reopens a version puts a changed copy in its place (`Chain`)."""

    family: Family
    key: str
    subject: str
    field: str
    obj: str | None  # the second key of a relation (its target) or of knowledge (the secret)
    value: Any
    valid_from: int  # the chapter from which the value holds (story time)
    # The chapter from which it no longer holds (exclusive); None while it holds. Only a later
    # chapter sets it, so a version read as of N is seen with it unset (`chain_ops.known_at`).
    valid_to: int | None
    status: str  # active | outdated | contradicted | tentative, as of the latest chapter
    source_chapter: int  # the chapter whose assertion made this version
    source_type: str
    confidence: float = 1.0
    evidence: tuple[dict[str, Any], ...] = ()  # each names its chapter; later ones hide as of N
    row_id: int | None = None
    recorded_at: str = ""  # record time: when the commit that wrote it ran (UTC, ISO 8601)
    state: str | None = None  # an indexed tag: a thread's status, or "dead" for a dead status


class OpenThread(NamedTuple):
    """A thread open at some chapter, as the state index gives it to a pack's ranking."""

    row_id: int  # its version's row
    due_chapter: int | None
    urgency: float | None
    related: str | None  # the ids of whom it involves, as a JSON list
    last_chapter: int | None  # the last chapter that planted or moved it


class RuleInForce(NamedTuple):
    """A world rule in force at some chapter, as the state index gives it to a pack's ranking."""

    rule_id: str
    text: str
    domain: str | None
    valid_from: int  # the chapter from which it holds in its present wording


# Where a conflict message names its entities. The text around them holds what a chapter result
# said (values, relation types, names), which may itself read "{who}": a lone surrogate can
# never come from a result (json_hygiene refuses it), so these marks are the rules' alone.
WHO = "\udb40who\udb40"
TARGET = "\udb40target\udb40"
_STORED_PLACEHOLDER = {WHO: "{who}", TARGET: "{target}"}
_ROLE = {WHO: "who", TARGET: "target"}  # a name's place in a message's stored arguments


def stored_said(message: str) -> dict[str, Any] | None:
    """What a draft's message says (its key and arguments, the marks as roles), for the store
    to say it again in the reader's language; None for a message said without a key."""
    return stored(message, _ROLE)


def stored_message(message: str) -> str:
    """A draft's message as stored: literal braces doubled, the rules' marks as {who} and
    {target}, for `record_ops.named` to fill in one pass when it is read."""
    escaped = message.replace("{", "{{").replace("}", "}}")
    for mark, placeholder in _STORED_PLACEHOLDER.items():
        escaped = escaped.replace(mark, placeholder)
    return escaped


@dataclass(frozen=True, kw_only=True, slots=True)
class ConflictDraft:
    """A conflict or a note a fold raised, before the pipeline gives it an id and names."""

    kind: str
    chapter: int  # the chapter that wrote the contradiction, not the one it contradicts
    # said with `Said(key, …)` (the store keeps the key and arguments to say it again when read);
    # may hold WHO and TARGET: the entities' names go there when it is read
    message: str
    entity_id: str | None = None  # None for a thread's or a rule's conflict (`field` names it)
    field: str | None = None
    expected: Any = None  # what memory held (or what the rule expected)
    found: Any = None  # what the chapter said
    evidence: tuple[dict[str, Any], ...] = ()
    target: str | None = None  # the other entity of a relation conflict


@dataclass(kw_only=True, slots=True)
class Chain:
    """The versions of one key open before the replayed chapters, and what the replay does.

    `touched` holds every version the replay reopened or opened, each as it now stands: closing
    one replaces it there by a copy with its end and status, so what is written back is
    `touched` as the replay leaves it.
    """

    touched: list[Version] = field(default_factory=list)
    conflicts: list[ConflictDraft] = field(default_factory=list)
    notes: list[ConflictDraft] = field(default_factory=list)  # advice: warned, never recorded
    events: list[tuple[ChainEvent, int]] = field(default_factory=list)  # (what, chapter)
    _current: int | None = None  # where the version that holds now is in `touched`
    _tentatives: list[int] = field(default_factory=list)  # where the open tentative ones are

    @property
    def current(self) -> Version | None:
        return None if self._current is None else self.touched[self._current]

    @classmethod
    def reopen(cls, open_versions: Iterable[Version], tentative_below: float) -> Chain:
        """Reset versions open at the replay start to how they stood before it closed them."""
        chain = cls()
        for version in open_versions:
            tentative = version.status == "tentative" or version.confidence < tentative_below
            chain._add(_as(version, None, "tentative" if tentative else "active"), tentative)
        return chain

    def _add(self, version: Version, tentative: bool) -> None:
        if tentative:
            self._tentatives.append(len(self.touched))
        else:
            self._current = len(self.touched)
        self.touched.append(version)

    def close_current(self, chapter: int, status: str = "outdated") -> None:
        if self._current is not None:
            closing = self.touched[self._current]
            self.touched[self._current] = replace(closing, valid_to=chapter, status=status)
            self.events.append(
                ("contradicted" if status == "contradicted" else "superseded", chapter)
            )
            self._current = None

    def close_tentatives(self, chapter: int) -> None:
        for i in self._tentatives:
            self.touched[i] = replace(self.touched[i], valid_to=chapter)
        self._tentatives.clear()

    def open(self, version: Version, tentative: bool) -> None:
        self._add(_as(version, None, "tentative" if tentative else "active"), tentative)
        self.events.append(("tentative" if tentative else "added", version.valid_from))

    def conflict(self, draft: ConflictDraft) -> None:
        self.conflicts.append(draft)

    def note(self, draft: ConflictDraft) -> None:
        self.notes.append(draft)

    def unplanted(
        self,
        a: Assertion,
        what: Literal["thread", "secret", "rule"],
        expected: str,
        key: str,
        evidence: tuple[dict[str, Any], ...],
        **said: Any,
    ) -> None:
        """A thread, a secret or a rule acted on before any chapter planted it: the conflict
        `thread_unknown`, `secret_unknown` or `rule_unknown` of the chapter acting on it, its
        subject the field, its message the catalogue's `key` naming the chapter and the
        subject (as `{thread}`, `{secret}` or `{rule}`) and what else `said` gives."""
        message = Said(key, chapter=a.chapter, **{what: a.subject}, **said)
        self.conflict(
            ConflictDraft(
                kind=f"{what}_unknown",
                chapter=a.chapter,
                field=a.subject,
                expected=expected,
                message=message,
                evidence=evidence,
            )
        )


def _as(version: Version, valid_to: int | None, status: str) -> Version:
    """`version` with this end and status: itself when it has them already (most versions a
    replay reopens are open and active, and a commit should not pay for copying them)."""
    if version.valid_to == valid_to and version.status == status:
        return version
    return replace(version, valid_to=valid_to, status=status)


def same_value(a: Any, b: Any) -> bool:
    """Values agree when equal or when they print the same (an agent writes 3 or "3")."""
    if a == b:
        return True
    if isinstance(a, list) or isinstance(b, list):
        return False
    return str(a).strip() == str(b).strip()


def new_version(
    a: Assertion, value: Any, source_type: str, confidence: float, state: str | None = None
) -> Version:
    """The version an assertion opens, from its chapter on (`Chain.open` sets its status)."""
    return Version(
        family=a.family,
        key=a.key,
        subject=a.subject,
        field=a.field,
        obj=a.obj,
        value=value,
        valid_from=a.chapter,
        valid_to=None,
        status="active",
        source_chapter=a.chapter,
        source_type=source_type,
        confidence=confidence,
        evidence=tuple(a.payload.get("evidence", ())),
        state=state,
    )


def how_learnt(payload: KnowledgePayload) -> str | None:
    """How a character came to know a secret, in the reader's language where the engine said
    it (「埋设时即知情」, 「第3章在场得知」), else as the chapter result wrote it."""
    return said_again(payload.get("how_said"), {}) or payload.get("how")


def fmt(value: Any) -> str:
    """A value as a message shows it: a list's items joined, an empty list and nothing said as
    such. The joins and words are kept as keys (`Said`), so a conflict that keeps the value
    says them again in the language of whoever reads it."""
    if value is None:
        return Said("value_none")
    if not isinstance(value, list):
        return str(value)
    if not value:
        return Said("value_empty")
    return said_together([str(item) for item in value])


def said_together(parts: list[str]) -> str:
    """Items listed as the reader's language lists them (甲、乙 / A, B), each join kept as a key
    (`vocab_and`) and each part as given (a `Said` part is said again too)."""
    shown = parts[-1]
    for part in reversed(parts[:-1]):
        shown = Said("vocab_and", first=part, rest=shown)
    return shown


@dataclass(frozen=True, kw_only=True, slots=True)
class Activity:
    """An entity appearing or acting in a chapter (appearance, state change, scene, event)."""

    entity_id: str
    chapter: int  # story time
    kind: str
    mention: str
