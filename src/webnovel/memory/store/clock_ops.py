"""What the story clock reads and keeps: the scenes that say when they happen, the chapters'
ending times, the clock as each chapter ends (`story_clock`, derived), and the threads due in
story time. Every read is bounded by chapter, so the clock as of N reads nothing later."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from .connection import Connection
from .index_store import dumps, loads

LAST = 2**62  # no bound: the whole book


class ClockRow(NamedTuple):
    """The clock as a chapter ends: its earliest and latest day, its part of day."""

    chapter: int
    day: int
    day_latest: int
    part: str | None
    unread: tuple[tuple[int | None, str], ...] = ()  # (scene or None: the ending, time)


def scenes_of(conn: Connection, start: int, end: int) -> list[dict[str, Any]]:
    """Scenes of chapters `start`..`end` in the order told, with what the clock reads."""
    return [
        {
            "chapter": r["chapter"],
            "idx": r["idx"],
            "mode": r["mode"],
            "time": r["time"],
            "location": r["location"],
            "characters": loads(r["characters_json"]) or [],
        }
        for r in conn.execute(
            "SELECT chapter, idx, mode, time, location, characters_json FROM scenes "
            "WHERE chapter BETWEEN ? AND ? ORDER BY chapter, idx",
            (start, end),
        )
    ]


def chapters_with(conn: Connection, entity_id: str, as_of: int | None, limit: int) -> list[int]:
    """The latest `limit` chapters up to `as_of` with a scene `entity_id` is in, oldest first.
    The id is looked for as its list holds it, a JSON string, quotes and all, and exactly: LIKE
    would take `_` and `%` in an id for any character, and on SQLite ignore ASCII case, letting
    other characters' scenes use up the limit (and SQLite and PostgreSQL answer differently)."""
    rows = conn.execute(
        "SELECT DISTINCT chapter FROM scenes WHERE chapter <= ? AND instr(characters_json, ?) > 0 "
        "ORDER BY chapter DESC LIMIT ?",
        (LAST if as_of is None else as_of, dumps(entity_id), limit),
    ).fetchall()
    return sorted(r[0] for r in rows)


def ending_times(conn: Connection, start: int, end: int) -> dict[int, str]:
    """chapter → the time its `chapter_meta.ending` says, for chapters `start`..`end`."""
    out = {}
    for r in conn.execute(
        "SELECT chapter, meta_json FROM chapters WHERE chapter BETWEEN ? AND ? "
        "AND meta_json LIKE '%\"time\"%'",
        (start, end),
    ):
        ending = (loads(r["meta_json"]) or {}).get("ending")
        if isinstance(ending, dict) and isinstance(ending.get("time"), str):
            out[r["chapter"]] = ending["time"]
    return out


def clock_at(conn: Connection, chapter: int | None) -> ClockRow | None:
    """The clock as chapter `chapter` ended (or the last chapter before it that has a row)."""
    row = conn.execute(
        "SELECT chapter, day, day_latest, part FROM story_clock WHERE chapter <= ? "
        "ORDER BY chapter DESC LIMIT 1",
        (LAST if chapter is None else chapter,),
    ).fetchone()
    return None if row is None else ClockRow(row[0], row[1], row[2], row[3])


def clock_rows(conn: Connection, chapters: Iterable[int]) -> dict[int, ClockRow]:
    """`clock_at` of each of `chapters` (a few: a thread's planting, an age's saying)."""
    out = {}
    for chapter in set(chapters):
        found = clock_at(conn, chapter)
        if found is not None:
            out[chapter] = found
    return out


def clock_rows_after(conn: Connection, chapter: int) -> list[ClockRow]:
    return [
        ClockRow(r[0], r[1], r[2], r[3])
        for r in conn.execute(
            "SELECT chapter, day, day_latest, part FROM story_clock WHERE chapter > ? "
            "ORDER BY chapter",
            (chapter,),
        )
    ]


def write_clock(conn: Connection, rows: Iterable[ClockRow]) -> None:
    conn.executemany(
        "INSERT INTO story_clock (chapter, day, day_latest, part, unread_json) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (chapter) DO UPDATE SET day = excluded.day, "
        "day_latest = excluded.day_latest, part = excluded.part, "
        "unread_json = excluded.unread_json",
        [
            (
                r.chapter,
                r.day,
                r.day_latest,
                r.part,
                dumps([list(u) for u in r.unread]) if r.unread else None,
            )
            for r in rows
        ],
    )


def shift_clock_after(conn: Connection, chapter: int, days: int, latest: int) -> None:
    """Every chapter after `chapter` moved by the same days: what a revision that changes how
    long a chapter lasts, and not the part of day it ends at, does to the chapters after it."""
    conn.execute(
        "UPDATE story_clock SET day = day + ?, day_latest = day_latest + ? WHERE chapter > ?",
        (days, latest, chapter),
    )


def unread_times(
    conn: Connection, as_of: int | None, limit: int
) -> list[tuple[int, int | None, str]]:
    """The latest `limit` times the clock could not read by chapter `as_of`: (chapter, scene or
    None for an ending, the time as written), in the order told."""
    rows = conn.execute(
        "SELECT chapter, unread_json FROM story_clock WHERE chapter <= ? "
        "AND unread_json IS NOT NULL ORDER BY chapter DESC LIMIT ?",
        (LAST if as_of is None else as_of, limit),
    ).fetchall()
    found = [(r[0], scene, time) for r in reversed(rows) for scene, time in loads(r[1])]
    return found[-limit:]


def last_scene(conn: Connection, up_to: int | None) -> tuple[int, int] | None:
    """The chapter and index of the last scene of the present told by chapter `up_to`."""
    row = conn.execute(
        "SELECT chapter, idx FROM scenes WHERE chapter <= ? AND mode IS NULL "
        "ORDER BY chapter DESC, idx DESC LIMIT 1",
        (LAST if up_to is None else up_to,),
    ).fetchone()
    return None if row is None else (row["chapter"], row["idx"])


def threads_due_in_story_time(conn: Connection, as_of: int | None) -> list[dict[str, Any]]:
    """The threads that hold as of `as_of` with a `due_time`: id and state (any status; the
    caller keeps the open ones, and names those paid off)."""
    n = LAST if as_of is None else as_of
    rows = conn.execute(  # served by the partial index versions_due_in_story_time
        "SELECT subject, value_json FROM versions WHERE family = 'thread' "
        "AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) "
        "AND value_json LIKE '%\"due_time\"%'",
        (n, n),
    ).fetchall()
    return sorted(
        ({"id": r["subject"], "state": loads(r["value_json"])} for r in rows),
        key=lambda row: row["id"],
    )
