"""The records memory answers with beside facts and entities: relations, threads, world rules,
events, secrets and who knows them, co-occurrence, conflicts, and the commit log's entries.

Pure values, as in `schema` (whose module docstring says which time each field is in); they live
here, imported from here and only where one is built, so that a process answering one fact does
not build thirteen classes it never uses: a frozen dataclass costs about 1.5 ms to make, a fifth
of a fresh `webnovel fact` on SQLite for them all. `schema` imports none of them, so the two do
not import each other; `book/values.py` names them for the adapters, fetched on first use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .schema import (
    ConflictStatus,
    Evidence,
    FindingKind,
    JsonRecord,
    Status,
    ThreadKind,
    ThreadStatus,
)


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
    due_time: str | None = None  # due in story time from its planting (四十九日后): see `clock`

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
            "due_time": self.due_time,
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
    flashback: str | None = None  # None: the story's present; "flashback" or "dream"
    # Placed on the story clock (`timeline --story`): its day and part of day. Said in the
    # answer only when placed.
    placed: bool = False
    day: int | None = None
    part: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "chapter": self.chapter,
            "event": self.event,
            "time_hint": self.time_hint,
            "participants": list(self.participants),
            "location": self.location,
            "event_type": self.event_type,
            "flashback": self.flashback,
        }
        if self.placed:
            out |= {"day": self.day, "part": self.part}
        return out


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
    # what the message says, its key and arguments (said.py): `message` is said again from it
    # when read, in the reader's language; None for a conflict stored before it was kept
    said: dict[str, Any] | None = None

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
    # those of them that only read the author's own Chinese words (「境界」 → realm): in the
    # JSON's `normalized` for agents, left out of the text an author reads
    own_words: tuple[str, ...] = ()
    # a replacement of a chapter before the latest, weighed: how many answers it changed
    answers_changed: int | None = None
    # What this commit or retraction changed in the book's open conflicts (`conflicts` lists
    # every one of later chapters, most of them older than it): those it added, those it
    # took away, and how many are open after it (None: it changed nothing).
    conflicts_added: tuple[Conflict, ...] = ()
    conflicts_removed: tuple[Conflict, ...] = ()
    open_conflicts: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "chapter": self.chapter,
            "status": self.status,
            "commit_id": self.commit_id,
            "counts": self.counts.to_dict(),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "conflicts_added": [c.to_dict() for c in self.conflicts_added],
            "conflicts_removed": [c.to_dict() for c in self.conflicts_removed],
            "open_conflicts": self.open_conflicts,
            "warnings": list(self.warnings),
            "normalized": list(self.normalized),
        }
        if self.answers_changed is not None:
            data["answers_changed"] = self.answers_changed
        return data


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
    # set when the commit was forced across the published line: the line it crossed
    published_through: int | None = None

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
            "published_revision": self.published_through is not None,
            "published_through": self.published_through,
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
    kind: str | None = None  # SECRET_KINDS: identity, fate, whereabouts, plan, technique, other
    thread: str | None = None  # the thread whose closing ends it

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
            "kind": self.kind,
            "thread": self.thread,
        }


@dataclass(frozen=True, kw_only=True)
class Together(JsonRecord):
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
