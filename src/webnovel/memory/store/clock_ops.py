"""What the story clock reads of a book: the scenes that say when they happen (or that are not
now), the chapters whose ending says a time, the last scene told, and the threads due in story
time. All bounded by chapter, so the clock as of N reads nothing of a later chapter."""

from __future__ import annotations

import sqlite3
from typing import Any

from .index_store import loads

_BOUND = "chapter <= ?"
_NO_BOUND = "chapter IS NOT NULL"


def story_scenes(
    conn: sqlite3.Connection, up_to: int | None, every: bool = False
) -> list[dict[str, Any]]:
    """Scenes of chapters up to `up_to` in the order told: those that state a time or are not
    now (a flashback, a dream), or `every` scene (who is where: a character's track)."""
    bound = _BOUND if up_to is not None else _NO_BOUND
    timed = "" if every else " AND (time IS NOT NULL OR mode IS NOT NULL)"
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
            f"WHERE {bound}{timed} ORDER BY chapter, idx",
            () if up_to is None else (up_to,),
        )
    ]


def ending_times(conn: sqlite3.Connection, up_to: int | None) -> dict[int, str]:
    """chapter → the time its `chapter_meta.ending` says, for chapters up to `up_to`."""
    bound = _BOUND if up_to is not None else _NO_BOUND
    out = {}
    for r in conn.execute(
        f"SELECT chapter, meta_json FROM chapters WHERE {bound} AND meta_json LIKE '%\"time\"%'",
        () if up_to is None else (up_to,),
    ):
        ending = (loads(r["meta_json"]) or {}).get("ending")
        if isinstance(ending, dict) and isinstance(ending.get("time"), str):
            out[r["chapter"]] = ending["time"]
    return out


def last_scene(conn: sqlite3.Connection, up_to: int | None) -> tuple[int, int] | None:
    """The chapter and index of the last scene of the present told by chapter `up_to`."""
    bound = _BOUND if up_to is not None else _NO_BOUND
    row = conn.execute(
        f"SELECT chapter, idx FROM scenes WHERE {bound} AND mode IS NULL "
        "ORDER BY chapter DESC, idx DESC LIMIT 1",
        () if up_to is None else (up_to,),
    ).fetchone()
    return None if row is None else (row["chapter"], row["idx"])


def threads_due_in_story_time(conn: sqlite3.Connection, as_of: int | None) -> list[dict[str, Any]]:
    """The threads that hold as of `as_of` with a `due_time`: id and state (any status; the
    caller keeps the open ones, and names those paid off)."""
    n = as_of if as_of is not None else 2**62
    return [
        {"id": r["subject"], "state": loads(r["value_json"])}
        for r in conn.execute(
            "SELECT subject, value_json FROM versions WHERE family = 'thread' "
            "AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) "
            "AND value_json LIKE '%\"due_time\"%' ORDER BY subject",
            (n, n),
        )
    ]
