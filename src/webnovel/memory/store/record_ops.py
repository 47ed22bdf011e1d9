"""Per-chapter records: timeline events, scenes, and the conflict ledger."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from ..said import said_again
from .connection import Connection, Cursor, Row
from .entity_ops import entity_names
from .index_store import dumps, loads, rows_in

if TYPE_CHECKING:  # made when first built (memory/records.py)
    from ..records import Conflict, TimelineEvent

# -- timeline ---------------------------------------------------------------------------------


def insert_events(conn: Connection, events: Iterable[TimelineEvent]) -> None:
    events = list(events)
    conn.executemany(
        "INSERT INTO timeline_events (id, chapter, seq, event, time_hint, location, "
        "event_type, participants_json, mode) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET chapter = excluded.chapter, seq = excluded.seq, "
        "event = excluded.event, time_hint = excluded.time_hint, location = excluded.location, "
        "event_type = excluded.event_type, participants_json = excluded.participants_json, "
        "mode = excluded.mode",
        [
            (
                e.id,
                e.chapter,
                n,
                e.event,
                e.time_hint,
                e.location,
                e.event_type,
                dumps(list(e.participants)),
                e.flashback,
            )
            for n, e in enumerate(events)
        ],
    )
    conn.executemany(
        "INSERT INTO timeline_participants VALUES (?, ?, ?)",
        [(e.id, p, e.chapter) for e in events for p in set(e.participants)],
    )


def delete_chapter_events(conn: Connection, chapter: int) -> None:
    conn.execute("DELETE FROM timeline_participants WHERE chapter = ?", (chapter,))
    conn.execute("DELETE FROM timeline_events WHERE chapter = ?", (chapter,))


def rename_participant(conn: Connection, old: str, new: str) -> None:
    rows = conn.execute(
        "SELECT id, participants_json FROM timeline_events WHERE participants_json LIKE ?",
        (f"%{old}%",),
    ).fetchall()
    for event_id, participants in rows:
        # an event may have named both: it takes part once
        renamed = list(dict.fromkeys(new if p == old else p for p in loads(participants)))
        conn.execute(
            "UPDATE timeline_events SET participants_json = ? WHERE id = ?",
            (dumps(renamed), event_id),
        )


def list_events(
    conn: Connection,
    start: int | None,
    end: int | None,
    entity: str | None,
    limit: int | None = None,
) -> list[TimelineEvent]:
    """Events in story order; with `limit`, only the latest `limit` of them."""
    bounds = (start if start is not None else 0, end if end is not None else 2**62)
    order = "DESC" if limit is not None else "ASC"
    tail = (limit if limit is not None else 2**62,)
    if entity is None:
        rows = conn.execute(
            "SELECT * FROM timeline_events WHERE chapter BETWEEN ? AND ? "
            f"ORDER BY chapter {order}, seq {order} LIMIT ?",
            (*bounds, *tail),
        ).fetchall()
    else:
        rows = conn.execute(
            "SELECT e.* FROM timeline_participants p JOIN timeline_events e ON e.id = p.event_id "
            f"WHERE p.entity_id = ? AND p.chapter BETWEEN ? AND ? "
            f"ORDER BY e.chapter {order}, e.seq {order} LIMIT ?",
            (entity, *bounds, *tail),
        ).fetchall()
    if limit is not None:
        rows.reverse()
    return [_event(r) for r in rows]


def events_of_many(
    conn: Connection, entity_ids: list[str], start: int, end: int
) -> dict[str, list[TimelineEvent]]:
    """`list_events` of each entity between chapters `start` and `end`, in one statement per
    500 entities (a pack asks for each entity in play)."""
    rows = rows_in(
        conn,
        "SELECT p.entity_id AS participant, e.* FROM timeline_participants p "
        "JOIN timeline_events e ON e.id = p.event_id "
        "WHERE p.chapter BETWEEN ? AND ? AND p.entity_id IN ({marks})",
        list(dict.fromkeys(entity_ids)),
        params=(start, end),
    )
    out: dict[str, list[TimelineEvent]] = {entity_id: [] for entity_id in entity_ids}
    for r in sorted(rows, key=lambda r: (r["chapter"], r["seq"])):
        out[r["participant"]].append(_event(r))
    return out


def _event(r: Row) -> TimelineEvent:
    from .. import records

    return records.TimelineEvent(
        id=r["id"],
        chapter=r["chapter"],
        event=r["event"],
        time_hint=r["time_hint"],
        participants=tuple(loads(r["participants_json"])),
        location=r["location"],
        event_type=r["event_type"],
        flashback=r["mode"],
    )


# -- scenes -----------------------------------------------------------------------------------


def replace_scenes(conn: Connection, chapter: int, scenes: Iterable[dict[str, Any]]) -> None:
    conn.execute("DELETE FROM scenes WHERE chapter = ?", (chapter,))
    conn.executemany(
        "INSERT INTO scenes (chapter, idx, location, characters_json, summary, content, mode,"
        " time) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chapter, idx) DO UPDATE SET "
        "location = excluded.location, characters_json = excluded.characters_json, "
        "summary = excluded.summary, content = excluded.content, mode = excluded.mode, "
        "time = excluded.time",
        [
            (
                chapter,
                s["index"],
                s.get("location"),
                dumps(list(s.get("characters", ()))),
                s.get("summary"),
                s.get("content"),
                s.get("mode"),
                s.get("time"),
            )
            for s in scenes
        ],
    )


def scenes_between(conn: Connection, start: int, end: int) -> list[dict[str, Any]]:
    """Scenes of chapters [start, end] in the order told, each with its characters' ids, its
    mode (None for the story's present, else "flashback" or "dream") and its stated time."""
    return [
        {
            "chapter": r["chapter"],
            "index": r["idx"],
            "location": r["location"],
            "characters": loads(r["characters_json"]) or [],
            "summary": r["summary"],
            "mode": r["mode"],
            "time": r["time"],
        }
        for r in conn.execute(
            "SELECT chapter, idx, location, characters_json, summary, mode, time FROM scenes "
            "WHERE chapter BETWEEN ? AND ? ORDER BY chapter, idx",
            (start, end),
        )
    ]


def scene_partners(conn: Connection, entity_id: str, as_of: int | None) -> dict[str, int]:
    """Other entity → the scenes (up to chapter `as_of`) it shares with `entity_id`."""
    shared: dict[str, int] = {}
    for (characters_json,) in conn.execute(
        "SELECT characters_json FROM scenes WHERE chapter <= ? AND characters_json LIKE ?",
        (as_of if as_of is not None else 2**62, f'%"{entity_id}"%'),
    ):
        characters = loads(characters_json) or []
        if entity_id in characters:
            for other in set(characters) - {entity_id}:
                shared[other] = shared.get(other, 0) + 1
    return shared


# -- conflicts --------------------------------------------------------------------------------


def replace_conflicts(
    conn: Connection, scope: str, from_chapter: int, conflicts: Iterable[Conflict]
) -> None:
    """Conflicts of one scope from a chapter on are derived: drop them and write the new set."""
    replace_conflicts_of(conn, [(scope, from_chapter, conflicts)])


def replace_conflicts_of(
    conn: Connection, scopes: Sequence[tuple[str, int, Iterable[Conflict]]]
) -> None:
    """`replace_conflicts` of many scopes: one statement deletes, one writes (scopes share no
    conflict, so all the deletes may go first)."""
    conn.executemany(
        "DELETE FROM conflicts WHERE scope = ? AND chapter >= ?",
        [(scope, from_chapter) for scope, from_chapter, _ in scopes],
    )
    conn.executemany(
        "INSERT INTO conflicts (id, scope, kind, entity_id, field, chapter, "
        "expected_json, found_json, message, evidence_json, target, args_json) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        "scope = excluded.scope, kind = excluded.kind, entity_id = excluded.entity_id, "
        "field = excluded.field, chapter = excluded.chapter, "
        "expected_json = excluded.expected_json, found_json = excluded.found_json, "
        "message = excluded.message, evidence_json = excluded.evidence_json, "
        "target = excluded.target, args_json = excluded.args_json",
        [
            (
                c.id,
                scope,
                c.kind,
                c.entity_id,
                c.field,
                c.chapter,
                dumps(c.expected),
                dumps(c.found),
                c.message,
                dumps(list(c.evidence)),
                c.target,
                None if c.said is None else dumps(c.said),
            )
            for scope, _, conflicts in scopes
            for c in conflicts
        ],
    )


def first_conflicts_of(conn: Connection, scope: str, since: int, before: int) -> dict[str, int]:
    """The entities a scope's conflicts in chapters since..before-1 are about, each with the
    first such chapter."""
    rows = conn.execute(
        "SELECT entity_id, MIN(chapter) FROM conflicts WHERE scope = ? AND chapter >= ? "
        "AND chapter < ? AND entity_id IS NOT NULL GROUP BY entity_id",
        (scope, since, before),
    )
    return {str(entity_id): int(chapter) for entity_id, chapter in rows}


def stored_conflict_ids(conn: Connection, ids: Iterable[str]) -> set[str]:
    """Which of these conflicts are still recorded (a later replay may have replaced some)."""
    wanted, found = sorted(set(ids)), set()
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ",".join("?" * len(part))
        found |= {
            r[0] for r in conn.execute(f"SELECT id FROM conflicts WHERE id IN ({marks})", part)
        }
    return found


_PLACEHOLDERS = re.compile(r"\{\{|\}\}|\{who\}|\{target\}")


def _fill(fill: dict[str, str], found: re.Match[str]) -> str:
    return fill.get(found.group(), found.group())


def named(conn: Connection, conflicts: list[Conflict]) -> list[Conflict]:
    """Conflicts with their messages said in the reader's language, the entities by their names
    now; a conflict stored without its arguments (an older book) keeps the sentence it was
    written with, {who} and {target} replaced by the names."""
    ids = {i for c in conflicts for i in (c.entity_id, c.target) if i}
    names = entity_names(conn, ids)
    out = []
    for c in conflicts:
        roles = {
            role: names.get(entity_id, entity_id)
            for role, entity_id in (("who", c.entity_id), ("target", c.target))
            if entity_id is not None
        }
        again = said_again(c.said, roles)
        if again is not None:
            out.append(replace(c, message=again))
            continue
        fill = {"{{": "{", "}}": "}"}
        for placeholder, entity_id in (("{who}", c.entity_id), ("{target}", c.target)):
            if entity_id is not None:
                fill[placeholder] = names.get(entity_id, entity_id)
        # one pass: a name that reads "{target}" is shown as it is, never filled in again
        message = _PLACEHOLDERS.sub(partial(_fill, fill), c.message)
        out.append(replace(c, message=message))
    return out


def list_conflicts(
    conn: Connection,
    *,
    include_settled: bool = False,
    entity_id: str | None = None,
    chapter: int | None = None,
    entity_ids: list[str] | None = None,
    up_to: int | None = None,
    since: int | None = None,
) -> list[Conflict]:
    """Conflicts, open ones unless `include_settled`; `entity_ids` keeps those about any of
    these entities or about no entity (threads, rules); `up_to` keeps chapters <= it."""
    where: list[str] = ["1 = 1"]
    params: list[str | int] = []
    if not include_settled:
        where.append("r.status IS NULL")
    if entity_id is not None:
        where.append("c.entity_id = ?")
        params.append(entity_id)
    if chapter is not None:
        where.append("c.chapter = ?")
        params.append(chapter)
    if entity_ids is not None:
        marks = ",".join("?" * len(entity_ids)) or "NULL"
        where.append(f"(c.entity_id IS NULL OR c.entity_id IN ({marks}))")
        params.extend(entity_ids)
    if up_to is not None:
        where.append("c.chapter <= ?")
        params.append(up_to)
    if since is not None:
        where.append("c.chapter >= ?")
        params.append(since)
    rows = conn.execute(
        "SELECT c.*, r.status AS verdict, r.note FROM conflicts c "
        "LEFT JOIN conflict_resolutions r ON r.conflict_id = c.id "
        f"WHERE {' AND '.join(where)} ORDER BY c.chapter, c.kind, c.id",
        params,
    ).fetchall()
    return conflicts_of_rows(conn, rows)


_OPEN = (
    "FROM conflicts c LEFT JOIN conflict_resolutions r ON r.conflict_id = c.id "
    "WHERE r.status IS NULL"
)


def open_conflict_rows(conn: Connection, ids: Sequence[str] | None = None) -> dict[str, Row]:
    """The open conflicts as stored (those of `ids`, when given), by id, not yet read into
    records: a commit holds them to say which ones it took away (`conflicts_of_rows`),
    reading only those."""
    if ids is None:
        return rows_by_id(ask_open_conflict_rows(conn))
    out: dict[str, Row] = {}
    for start in range(0, len(ids), 500):
        part = list(ids[start : start + 500])
        marks = ",".join("?" * len(part))
        sql = f"SELECT c.*, r.status AS verdict, r.note {_OPEN} AND c.id IN ({marks})"
        out |= {r["id"]: r for r in conn.execute(sql, part).fetchall()}
    return out


def ask_open_conflict_rows(conn: Connection) -> Cursor:
    """The question of `open_conflict_rows(conn)`, its answer read later (`rows_by_id`): on
    PostgreSQL it goes out with the next statement that waits for its answer."""
    return conn.execute(f"SELECT c.*, r.status AS verdict, r.note {_OPEN}")


def rows_by_id(asked: Cursor) -> dict[str, Row]:
    return {r["id"]: r for r in asked.fetchall()}


def open_conflict_ids(conn: Connection) -> set[str]:
    """The ids of the open conflicts: a fifth of the cost of their rows (2,000: 3 ms)."""
    return {r[0] for r in conn.execute(f"SELECT c.id {_OPEN}")}


def conflicts_of_rows(conn: Connection, rows: Iterable[Row]) -> list[Conflict]:
    """Stored conflict rows (with their `verdict` and `note`) as records, named now."""
    from .. import records

    return named(
        conn,
        [
            records.Conflict(
                id=r["id"],
                kind=r["kind"],
                entity_id=r["entity_id"],
                field=r["field"],
                chapter=r["chapter"],
                expected=loads(r["expected_json"]),
                found=loads(r["found_json"]),
                message=r["message"],
                evidence=tuple(loads(r["evidence_json"])),
                status=r["verdict"] or "open",
                note=r["note"],
                target=r["target"],
                said=loads(r["args_json"]),
            )
            for r in rows
        ],
    )


def settle_conflict(conn: Connection, conflict_id: str, status: str, note: str | None) -> bool:
    if conn.execute("SELECT 1 FROM conflicts WHERE id = ?", (conflict_id,)).fetchone() is None:
        return False
    conn.execute(
        "INSERT INTO conflict_resolutions VALUES (?, ?, ?, ?) ON CONFLICT(conflict_id) DO UPDATE "
        "SET status = excluded.status, note = excluded.note, recorded_at = excluded.recorded_at",
        (conflict_id, status, note, datetime.now(UTC).isoformat(timespec="seconds")),
    )
    return True


def conflict_verdicts(conn: Connection) -> list[tuple[str, str, str | None, str]]:
    """The author's verdicts on conflicts (id, status, note, when), kept apart from the derived
    conflicts: a copy of the book carries them over."""
    return [
        (r[0], r[1], r[2], r[3])
        for r in conn.execute(
            "SELECT conflict_id, status, note, recorded_at FROM conflict_resolutions "
            "ORDER BY conflict_id"
        )
    ]


def restore_verdicts(
    conn: Connection, verdicts: Iterable[tuple[str, str, str | None, str]]
) -> None:
    conn.executemany(
        "INSERT INTO conflict_resolutions VALUES (?, ?, ?, ?) ON CONFLICT(conflict_id) DO UPDATE "
        "SET status = excluded.status, note = excluded.note, recorded_at = excluded.recorded_at",
        list(verdicts),
    )


def met_in_scenes(
    conn: Connection, subjects: set[str], others: set[str], start: int, end: int
) -> set[str]:
    """Of `others`, those who shared a present scene (not a memory, not a dream) with one of
    `subjects` in chapters [start, end]."""
    met: set[str] = set()
    for subject in sorted(subjects):
        for (characters_json,) in conn.execute(
            "SELECT characters_json FROM scenes WHERE chapter BETWEEN ? AND ? AND mode IS NULL "
            "AND characters_json LIKE ?",
            (start, end, f'%"{subject}"%'),
        ):
            characters = set(loads(characters_json) or [])
            if subject in characters:
                met |= characters & others
    return met
