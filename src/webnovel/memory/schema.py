"""Memory values: the seed's unified memory item and its companions.

Pure values with no I/O. Each has `to_dict()` giving exactly the JSON shape of CONTRACT §3, so the
CLI, the Python API and later adapters print the same thing. Story time is the chapter; an interval
`[valid_from, valid_to)` has `valid_to = None` while it holds. Record time (`recorded_at`,
`updated_at`) is when a commit wrote something, in UTC, and never decides an answer.

A value read *as of* chapter N is seen as N knew it (`chain_ops.known_at`): an interval a later
chapter closed is still open (`valid_to` None), its status is the one it had at N, and evidence
from later chapters is left out. Each temporal field below (and in `records.py`, where the
records other than facts and entities live) says which time it is in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypedDict, get_args

Status = Literal["active", "outdated", "contradicted", "tentative"]
Evidence = dict[str, Any]  # {"chapter": int, "ref": str, "quote": str (optional)}
# The highest chapter the contract accepts (docs/contract.md): SQLite holds 64-bit integers, but
# a chapter past a million is a mistake, not a book.
MAX_CHAPTER = 1_000_000


class JsonRecord:
    """A value whose JSON is `to_dict()`. It is not a mapping (earlier releases returned some of
    these as mappings): read a field by name, or `to_dict()[key]`."""

    def to_dict(self) -> dict[str, Any]:
        """Its fields as its JSON (a value whose JSON differs says so itself)."""
        from dataclasses import asdict

        fields_: dict[str, Any] = asdict(self)  # type: ignore[call-overload]  # a dataclass
        return fields_


def holds_at(valid_from: int, valid_to: int | None, chapter: int) -> bool:
    """The half-open story-time test `valid_from <= chapter < valid_to`."""
    return valid_from <= chapter and (valid_to is None or chapter < valid_to)


def status_as_of(stored: str, valid_from: int, valid_to: int | None, as_of: int | None) -> Status:
    """A record's status seen from chapter `as_of` (None: from the latest chapter).

    Tentative and contradicted records keep their status; a settled record is `active` where it
    holds and `outdated` otherwise, so an as-of answer never calls a value current that was not.
    """
    if stored == "tentative":
        return "tentative"
    if stored == "contradicted":
        return "contradicted"
    if as_of is None:
        return "active" if valid_to is None else "outdated"
    return "active" if holds_at(valid_from, valid_to, as_of) else "outdated"


@dataclass(frozen=True, kw_only=True, slots=True)
class MemoryItem:
    """One version of one field of one entity (or another keyed fact) over a chapter interval."""

    id: str
    subject: str
    field: str
    value: Any
    status: Status  # as of the chapter asked (`status_as_of`)
    valid_from: int  # story time: the first chapter the value holds in
    valid_to: int | None  # the first chapter it no longer holds in (exclusive); None: holds
    source_chapter: int  # the chapter whose result said it
    source_type: str
    evidence: tuple[Evidence, ...] = ()  # each names its chapter; none later than the one asked
    confidence: float = 1.0
    updated_at: str = ""  # record time: when the commit that wrote it ran
    subject_name: str = ""
    layer: str = "episodic"
    category: str = "character_state"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "layer": self.layer,
            "category": self.category,
            "subject": self.subject,
            "entity_id": self.subject,
            "entity_name": self.subject_name,
            "field": self.field,
            "value": self.value,
            "status": self.status,
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "source": {"chapter": self.source_chapter, "type": self.source_type},
            "evidence": list(self.evidence),
            "confidence": self.confidence,
            "updated_at": self.updated_at,
            "found": True,
        }


class Introduction(NamedTuple):
    """How an entity stands for resolving references to it."""

    settled: bool  # introduced by `entities_new`, not only named (tentative)
    chapter: int | None  # the chapter of its first introduction (story time)


def missing_fact(entity_id: str, field_name: str) -> dict[str, Any]:
    """The CONTRACT answer for a known entity with no value for the field."""
    return {"entity_id": entity_id, "field": field_name, "value": None, "found": False}


@dataclass(frozen=True, kw_only=True, slots=True)
class Entity:
    id: str
    name: str
    type: str = "角色"
    tier: str | None = None
    desc: str | None = None
    aliases: tuple[str, ...] = ()
    is_protagonist: bool = False
    tentative: bool = False  # only named, never introduced by `entities_new`
    first_chapter: int | None = None  # story time: its first introduction (None: tentative)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "tier": self.tier,
            "desc": self.desc,
            "aliases": list(self.aliases),
            "is_protagonist": self.is_protagonist,
            "tentative": self.tentative,
            "first_chapter": self.first_chapter,
        }


ThreadStatus = Literal["open", "resolved", "abandoned"]
ThreadKind = Literal["foreshadowing", "open_loop", "reader_promise", "subplot"]
ThreadAction = Literal["plant", "advance", "resolve", "abandon"]
THREAD_KINDS: tuple[ThreadKind, ...] = get_args(ThreadKind)


def thread_kind(kind: str) -> ThreadKind:
    """`kind` as a thread kind (validated input); anything else is a programming error."""
    for known in THREAD_KINDS:
        if kind == known:
            return known
    raise ValueError(f"not a thread kind: {kind!r}")


class ThreadState(TypedDict, total=False):
    """A thread version's value, as stored (JSON) and folded by the write layer."""

    status: ThreadStatus
    kind: ThreadKind
    content: str
    planted_chapter: int | None
    due_chapter: int | None
    due_time: str | None  # due in story time from the chapter that planted it: 四十九日后
    urgency: float | None
    related: list[str]
    resolved_chapter: int | None
    progress: str
    last_chapter: int


THREAD_ACTIONS: tuple[ThreadAction, ...] = get_args(ThreadAction)
ThreadFilter = Literal["open", "resolved", "abandoned", "overdue", "all"]  # what a listing asks
THREAD_FILTERS: tuple[ThreadFilter, ...] = get_args(ThreadFilter)


# The kinds a commit records (rulebook.RULES with recorded=True; a test keeps the two equal).
ConflictKind = Literal[
    "dead_entity_active",
    "regression",
    "old_value_mismatch",
    "relation_end_missing",
    "thread_closed",
    "rule_unknown",
    "unknown_entity",
    "duplicate_entity",
    "reveal_takes_name",
    "name_reintroduced",
    "secret_source_unaware",
    "secret_unknown",
    "thread_unknown",
    "set_remove_missing",
    "item_not_held",
    "two_places_at_once",
]
# Advice: findings a commit warns about and review reports, never recorded as conflicts.
AdviceKind = Literal[
    "ladder_regression",
    "name_taken",
    "alias_taken",
    "ambiguous_alias",
    "relation_jump",
    "early_reveal",
    "already_known",
    "promise_due",
    "thread_overdue",
    "location_continuity",
    "item_held_elsewhere",
    "knowledge_unrecorded",
    "scene_location",
    "time_backwards",
    "unstated_night",
    "deadline_passed",
]
FindingKind = ConflictKind | AdviceKind
ConflictStatus = Literal["open", "accepted", "resolved"]
CONFLICT_KINDS: tuple[ConflictKind, ...] = get_args(ConflictKind)
ADVICE_KINDS: tuple[AdviceKind, ...] = get_args(AdviceKind)


def finding_kind(kind: str) -> FindingKind:
    """`kind` as a finding's kind; anything else is a programming error, not bad input."""
    for known in (*CONFLICT_KINDS, *ADVICE_KINDS):
        if kind == known:
            return known
    raise ValueError(f"not a kind of finding: {kind!r}")
