"""One chapter as memory holds it: its summary, its scenes with their people and places, its
events, what it changed (each value before and after), the threads and secrets it touched, the
people it introduced, and the conflicts it raised. "What happened in chapter 3" is answered
from chapter 3's own records, never by a search that ranks other chapters first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..chains import how_learnt, knowledge_claim
from ..records import Conflict
from ..schema import JsonRecord
from ..store import assertion_ops, chain_ops, commit_ops, entity_ops, record_ops
from ..store.connection import Connection


@dataclass(frozen=True, kw_only=True)
class Change:
    """A value the chapter changed: an entity's field, or a relation between two."""

    family: str  # fact | rel
    subject: str
    subject_name: str
    field: str  # a fact's field, or the other entity's name for a relation
    before: Any
    after: Any
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "subject": self.subject,
            "subject_name": self.subject_name,
            "field": self.field,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
        }


@dataclass(frozen=True, kw_only=True)
class SceneSeen(JsonRecord):
    """One of the chapter's scenes: where, who (by the names known then) and what."""

    index: int
    location: str | None
    characters: list[str]
    summary: str | None
    flashback: str | None = None  # None: the present; "flashback" or "dream" (SCENE_MODES)
    time: str | None = None  # when, in the prose's own words


@dataclass(frozen=True, kw_only=True)
class EventSeen(JsonRecord):
    event: str
    location: str | None
    participants: list[str]  # by the names known then
    event_type: str | None
    flashback: str | None = None  # None: the present; "flashback" or "dream" (SCENE_MODES)


@dataclass(frozen=True, kw_only=True)
class ThreadTouched(JsonRecord):
    """A thread the chapter planted, advanced or closed, with its state as of the chapter."""

    id: str
    action: str
    content: str
    progress: str | None  # what an `advance` said
    status: str | None
    due_chapter: int | None


@dataclass(frozen=True, kw_only=True)
class SecretTouched(JsonRecord):
    """A secret the chapter planted or revealed, or one someone learnt (`who`, `how`)."""

    secret: str
    content: str
    action: str
    who: str | None
    how: str | None


@dataclass(frozen=True, kw_only=True)
class ChapterReport:
    chapter: int
    title: str | None
    summary: str | None
    word_count: int | None
    ending: dict[str, Any]
    introduced: list[str] = field(default_factory=list)
    scenes: list[SceneSeen] = field(default_factory=list)
    events: list[EventSeen] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    threads: list[ThreadTouched] = field(default_factory=list)
    secrets: list[SecretTouched] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "title": self.title,
            "summary": self.summary,
            "word_count": self.word_count,
            "ending": self.ending,
            "introduced": self.introduced,
            "scenes": [s.to_dict() for s in self.scenes],
            "events": [e.to_dict() for e in self.events],
            "changes": [c.to_dict() for c in self.changes],
            "threads": [t.to_dict() for t in self.threads],
            "secrets": [s.to_dict() for s in self.secrets],
            "conflicts": [c.to_dict() for c in self.conflicts],
        }


def chapter_report(conn: Connection, chapter: int) -> ChapterReport | None:
    """Chapter `chapter` as committed, or None when it is not in memory. Names are the names
    known at that chapter."""
    rows = commit_ops.chapter_rows(conn, start=chapter, end=chapter)
    if not rows:
        return None
    row = rows[0]
    assertions = assertion_ops.chapter_assertions(conn, chapter)
    scenes = record_ops.scenes_between(conn, chapter, chapter)
    events = record_ops.list_events(conn, chapter, chapter, None)
    introduced = sorted(entity_ops.introduced_in(conn, [chapter]).get(chapter, set()))
    people = {a.subject for a in assertions if a.family in ("fact", "rel", "know")}
    people |= {a.obj for a in assertions if a.family == "rel" and a.obj}
    people |= {e for s in scenes for e in s["characters"]} | set(introduced)
    people |= {p for e in events for p in e.participants}
    names = entity_ops.names_known_at(conn, people, chapter)
    ending = row.meta.get("ending")
    return ChapterReport(
        chapter=chapter,
        title=row.title,
        summary=row.summary,
        word_count=row.word_count,
        ending=ending if isinstance(ending, dict) else {},
        introduced=[names.get(e, e) for e in introduced],
        scenes=[
            SceneSeen(
                index=s["index"],
                location=s["location"],
                characters=[names.get(e, e) for e in s["characters"]],
                summary=s["summary"],
                flashback=s["mode"],
                time=s["time"],
            )
            for s in scenes
        ],
        events=[
            EventSeen(
                event=e.event,
                location=e.location,
                participants=[names.get(p, p) for p in e.participants],
                event_type=e.event_type,
                flashback=e.flashback,
            )
            for e in events
        ],
        changes=_changes(conn, assertions, chapter, names),
        threads=_threads(conn, assertions, chapter),
        secrets=_secrets(conn, assertions, chapter, names),
        conflicts=record_ops.list_conflicts(conn, include_settled=True, chapter=chapter),
    )


def _changes(
    conn: Connection, assertions: list[Any], chapter: int, names: dict[str, str]
) -> list[Change]:
    out, seen = [], set()
    for a in assertions:
        if a.family not in ("fact", "rel") or (a.family, a.key) in seen:
            continue
        seen.add((a.family, a.key))
        before = chain_ops.version_at(conn, a.family, a.key, chapter - 1) if chapter > 1 else None
        after = chain_ops.version_at(conn, a.family, a.key, chapter)
        if after is not None and after.valid_from != chapter:
            after = None  # the chapter's claim changed nothing (or was contradicted later on)
        if before is None and after is None:
            continue
        if before is not None and after is not None and before.value == after.value:
            continue
        label = a.field if a.family == "fact" else names.get(a.obj or "", a.obj or "")
        out.append(
            Change(
                family=a.family,
                subject=a.subject,
                subject_name=names.get(a.subject, a.subject),
                field=label,
                before=_shown(before.value if before else None, a.family),
                after=_shown(after.value if after else None, a.family),
                reason=a.payload.get("reason"),
            )
        )
    return out


def _shown(value: Any, family: str) -> Any:
    if family == "rel" and isinstance(value, dict):
        return value.get("type")
    return value


def _threads(conn: Connection, assertions: list[Any], chapter: int) -> list[ThreadTouched]:
    out = []
    for a in assertions:
        if a.family != "thread":
            continue
        version = chain_ops.version_at(conn, "thread", a.key, chapter)
        state = version.value if version is not None and isinstance(version.value, dict) else {}
        out.append(
            ThreadTouched(
                id=a.subject,
                action=a.payload.get("action", "plant"),
                content=state.get("content") or a.payload.get("content") or a.subject,
                progress=a.payload.get("content") if a.payload.get("action") == "advance" else None,
                status=state.get("status"),
                due_chapter=state.get("due_chapter"),
            )
        )
    return out


def _secrets(
    conn: Connection, assertions: list[Any], chapter: int, names: dict[str, str]
) -> list[SecretTouched]:
    contents = {
        v.subject: v.value.get("content") or v.subject
        for v in chain_ops.versions_at(conn, "secret", chapter)
    }
    out = []
    for a in assertions:
        if a.family == "secret":
            out.append(
                SecretTouched(
                    secret=a.subject,
                    content=contents.get(a.subject, a.subject),
                    action=a.payload.get("action", "plant"),
                    who=None,
                    how=None,
                )
            )
        elif a.family == "know":
            out.append(
                SecretTouched(
                    secret=a.field,
                    content=contents.get(a.field, a.field),
                    action=a.payload.get("change", "learns"),
                    who=names.get(a.subject, a.subject),
                    how=how_learnt(knowledge_claim(a)),
                )
            )
    return out
