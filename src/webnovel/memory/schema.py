"""Memory values: the seed's unified memory item and its companions.

Pure values with no I/O. Each has `to_dict()` giving exactly the JSON shape of CONTRACT §3, so the
CLI, the Python API and later adapters print the same thing. Story time is the chapter; an interval
`[valid_from, valid_to)` has `valid_to = None` while it holds. Record time (`recorded_at`,
`updated_at`) is when a commit wrote something, in UTC, and never decides an answer.

A value read *as of* chapter N is seen as N knew it (`chain_ops.known_at`): an interval a later
chapter closed is still open (`valid_to` None), its status is the one it had at N, and evidence
from later chapters is left out. Each temporal field below says which time it is in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypedDict, get_args

Status = Literal["active", "outdated", "contradicted", "tentative"]
Evidence = dict[str, Any]  # {"chapter": int, "ref": str, "quote": str (optional)}
# The highest chapter the contract accepts (docs/contract.md): SQLite holds 64-bit integers, but
# a chapter past a million is a mistake, not a book.
MAX_CHAPTER = 1_000_000


class ReadAsMapping:
    """For a value that was a mapping in earlier releases: `value[key]` still answers, from its
    JSON, with a DeprecationWarning naming the field to read instead."""

    def to_dict(self) -> dict[str, Any]:
        """Its fields as its JSON (a value whose JSON differs says so itself)."""
        from dataclasses import asdict

        fields_: dict[str, Any] = asdict(self)  # type: ignore[call-overload]  # a dataclass
        return fields_

    def __getitem__(self, key: str) -> Any:
        import warnings

        warnings.warn(
            f"{type(self).__name__} is no longer a mapping: read .{key}, or to_dict()[{key!r}]",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.to_dict()[key]


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


@dataclass(frozen=True, kw_only=True, slots=True)
class RelationEdge:
    """A directed relation that holds over `[valid_from, valid_to)`."""

    source: str
    target: str
    type: str
    valid_from: int  # story time: the first chapter the relation holds in
    valid_to: int | None  # the chapter it was ended or replaced in (exclusive); None: holds
    status: Status
    description: str | None = None
    evidence: tuple[Evidence, ...] = ()
    confidence: float = 1.0
    source_name: str = ""
    target_name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "from_name": self.source_name or self.source,
            "to_name": self.target_name or self.target,
            "type": self.type,
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "status": self.status,
            "description": self.description,
            "evidence": list(self.evidence),
            "confidence": self.confidence,
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
    urgency: float | None
    related: list[str]
    resolved_chapter: int | None
    progress: str
    last_chapter: int


THREAD_ACTIONS: tuple[ThreadAction, ...] = get_args(ThreadAction)
ThreadFilter = Literal["open", "resolved", "abandoned", "overdue", "all"]  # what a listing asks
THREAD_FILTERS: tuple[ThreadFilter, ...] = get_args(ThreadFilter)


@dataclass(frozen=True, kw_only=True, slots=True)
class Thread:
    """A foreshadowing thread, open loop, reader promise or subplot, as of some chapter."""

    id: str
    kind: ThreadKind
    content: str
    status: ThreadStatus  # as of the chapter asked
    planted_chapter: int | None  # story time: its plant (None: acted on, never planted)
    due_chapter: int | None  # the chapter it should be paid off by
    resolved_chapter: int | None  # the chapter that resolved or abandoned it, as of then
    urgency: float | None
    overdue: bool  # open and past `due_chapter` as of the chapter asked
    related: tuple[str, ...] = ()
    last_chapter: int | None = None  # the last chapter that planted or moved it
    progress: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "content": self.content,
            "progress": self.progress,
            "status": self.status,
            "planted_chapter": self.planted_chapter,
            "due_chapter": self.due_chapter,
            "resolved_chapter": self.resolved_chapter,
            "urgency": self.urgency,
            "overdue": self.overdue,
            "related": list(self.related),
            "last_chapter": self.last_chapter,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class ThreadStep:
    """One state in a thread's history: the thread as it stood from chapter `since`, and the
    evidence for that step (its planting, an advance, its resolution)."""

    thread: Thread
    since: int  # story time: the chapter this step began in
    evidence: tuple[Evidence, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {**self.thread.to_dict(), "since": self.since, "evidence": list(self.evidence)}


@dataclass(frozen=True, kw_only=True, slots=True)
class WorldRule:
    id: str
    rule: str
    domain: str | None
    valid_from: int  # story time: the chapter this wording was revealed or revised in
    valid_to: int | None  # the chapter that revised or retired it (exclusive); None: in force
    status: Status
    evidence: tuple[Evidence, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rule": self.rule,
            "domain": self.domain,
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "status": self.status,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class TimelineEvent:
    id: str
    chapter: int  # story time: the chapter it happened in (`time_hint` places it inside)
    event: str
    time_hint: str | None = None
    participants: tuple[str, ...] = ()
    location: str | None = None
    event_type: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "chapter": self.chapter,
            "event": self.event,
            "time_hint": self.time_hint,
            "participants": list(self.participants),
            "location": self.location,
            "event_type": self.event_type,
        }


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
    "secret_source_unaware",
    "secret_unknown",
    "thread_unknown",
    "set_remove_missing",
]
# Advice: findings a commit warns about and review reports, never recorded as conflicts.
AdviceKind = Literal[
    "ladder_regression",
    "name_taken",
    "ambiguous_alias",
    "relation_jump",
    "early_reveal",
    "already_known",
    "promise_due",
    "thread_overdue",
    "location_continuity",
    "item_held_elsewhere",
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


@dataclass(frozen=True, kw_only=True, slots=True)
class Conflict:
    """A contradiction kept as a record: both sides' evidence, never a silent overwrite."""

    id: str
    kind: FindingKind  # a recorded conflict's is a ConflictKind; notes carry advice
    entity_id: str | None
    field: str | None
    chapter: int  # story time: the chapter that wrote the contradiction, not the one it contradicts
    expected: Any  # what memory held
    found: Any  # what the chapter said
    message: str
    evidence: tuple[Evidence, ...] = ()  # both sides', each naming its chapter
    status: ConflictStatus = "open"
    note: str | None = None
    target: str | None = None  # a relation conflict's other entity

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "entity_id": self.entity_id,
            "field": self.field,
            "chapter": self.chapter,
            "expected": self.expected,
            "found": self.found,
            "message": self.message,
            "evidence": list(self.evidence),
            "status": self.status,
            "note": self.note,
        }


@dataclass(kw_only=True, slots=True)
class CommitCounts:
    added: int = 0
    superseded: int = 0
    contradicted: int = 0
    tentative: int = 0

    def count(self, event: str) -> None:
        """One more of what a replay did: added, superseded, contradicted or tentative."""
        if event == "added":
            self.added += 1
        elif event == "superseded":
            self.superseded += 1
        elif event == "contradicted":
            self.contradicted += 1
        elif event == "tentative":
            self.tentative += 1
        else:
            raise ValueError(f"not something a commit counts: {event!r}")

    def to_dict(self) -> dict[str, int]:
        return {
            "added": self.added,
            "superseded": self.superseded,
            "contradicted": self.contradicted,
            "tentative": self.tentative,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class CommitReport:
    chapter: int
    status: Literal["committed", "unchanged", "retracted"]
    commit_id: str
    counts: CommitCounts = field(default_factory=CommitCounts)
    conflicts: tuple[Conflict, ...] = ()
    warnings: tuple[str, ...] = ()
    normalized: tuple[str, ...] = ()  # what intake rewrote to make the result canonical

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "status": self.status,
            "commit_id": self.commit_id,
            "counts": self.counts.to_dict(),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "warnings": list(self.warnings),
            "normalized": list(self.normalized),
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class ChapterRecord:
    """A committed chapter as the chapters table holds it: what its current commit said of it."""

    chapter: int
    commit_id: str
    title: str | None
    summary: str | None
    word_count: int | None
    meta: dict[str, Any]
    recorded_at: str  # record time: when its current commit ran


@dataclass(frozen=True, kw_only=True, slots=True)
class CommitEntry:
    """One line of the commit log with what the commit cost and changed. Commits made before
    the book recorded costs (schema 0005) have no counts, time or size."""

    seq: int  # the commit's place in the log (record order, not story order)
    chapter: int
    commit_id: str
    recorded_at: str  # record time, UTC
    kind: Literal["commit", "retraction"]
    retracted: bool
    title: str | None = None
    counts: CommitCounts | None = None
    conflicts: int | None = None
    elapsed_ms: float | None = None
    index_bytes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "chapter": self.chapter,
            "commit_id": self.commit_id,
            "recorded_at": self.recorded_at,
            "kind": self.kind,
            "retracted": self.retracted,
            "title": self.title,
            "counts": self.counts.to_dict() if self.counts else None,
            "conflicts": self.conflicts,
            "elapsed_ms": self.elapsed_ms,
            "index_bytes": self.index_bytes,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class Knowledge:
    """What one character knows or suspects of one secret, since when, how and from whom."""

    entity_id: str
    entity_name: str
    secret_id: str
    content: str
    state: str  # knows | suspects
    since: int  # story time: the chapter they learnt or came to suspect it in
    how: str | None = None
    source: str | None = None
    evidence: tuple[Evidence, ...] = ()
    source_name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "entity_id": self.entity_id,
            "entity_name": self.entity_name,
            "secret_id": self.secret_id,
            "content": self.content,
            "state": self.state,
            "since": self.since,
            "how": self.how,
            "from": self.source,
            "from_name": self.source_name,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class Secret:
    """A secret of the story as of a chapter: who knows it, and whether the reader does."""

    id: str
    content: str
    status: str  # open | retired
    reader_knows: bool  # as of the chapter asked
    reveal_due: int | None  # the chapter it should be revealed to the reader by
    planted_chapter: int | None  # story time: the chapter that planted it
    revealed_chapter: int | None  # the chapter that revealed it to the reader, as of then
    known_by: tuple[str, ...] = ()
    suspected_by: tuple[str, ...] = ()
    about: tuple[str, ...] = ()  # names of whom it is about
    unaware: tuple[str, ...] = ()  # of those, who does not know it

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "content": self.content,
            "status": self.status,
            "reader_knows": self.reader_knows,
            "reveal_due": self.reveal_due,
            "planted_chapter": self.planted_chapter,
            "revealed_chapter": self.revealed_chapter,
            "known_by": list(self.known_by),
            "suspected_by": list(self.suspected_by),
            "about": list(self.about),
            "unaware": list(self.unaware),
        }


@dataclass(frozen=True, kw_only=True)
class Together(ReadAsMapping):
    """Someone who shares chapters (and scenes) with an entity up to a chapter: being in the
    same chapter is co-occurrence, never a relation fact."""

    entity_id: str
    name: str  # as known at the chapter asked
    chapters: int  # chapters both are in
    scenes: int  # scenes both are in
    last_chapter: int  # the latest chapter both are in, up to the one asked

    def to_dict(self) -> dict[str, Any]:
        return {
            "entity_id": self.entity_id,
            "name": self.name,
            "chapters": self.chapters,
            "scenes": self.scenes,
            "last_chapter": self.last_chapter,
            "kind": "co-occurrence",
        }
