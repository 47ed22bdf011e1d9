"""Per-chapter activity: who appears, acts or is mentioned in which chapter, with the mention.
A commit replaces its chapter's rows; the entity's first and last chapter, and a conflict's
window of what the entity did, are read from here."""

from __future__ import annotations

from collections.abc import Iterable

from ..chains import Activity
from .connection import Connection


def insert_activities(conn: Connection, activities: Iterable[Activity]) -> None:
    conn.executemany(
        "INSERT INTO activities (entity_id, chapter, kind, mention) VALUES (?, ?, ?, ?)",
        [(a.entity_id, a.chapter, a.kind, a.mention) for a in activities],
    )


def delete_chapter_activities(conn: Connection, chapter: int) -> None:
    """(`assertion_ops.chapter_contribution` names the entities, read before.)"""
    conn.execute("DELETE FROM activities WHERE chapter = ?", (chapter,))


def activity_chapters(conn: Connection, entity_id: str, up_to: int | None) -> list[int]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT chapter FROM activities WHERE entity_id = ? AND chapter <= ? "
            "ORDER BY chapter",
            (entity_id, up_to if up_to is not None else 2**62),
        )
    ]


_WINDOWS_BATCH = 300  # (entity, window) pairs a statement: 4 parameters each


def activities_in(
    conn: Connection, windows: dict[str, list[tuple[int, int | None]]]
) -> dict[str, list[Activity]]:
    """Many entities' activity, each entity's in its own half-open chapter ranges (None: no end),
    in a statement per `_WINDOWS_BATCH` ranges; each entity's activity in its ranges' order."""
    wanted = [
        (entity_id, n, start, end if end is not None else 2**62)
        for entity_id, ranges in windows.items()
        for n, (start, end) in enumerate(ranges)
    ]
    found: list[tuple[str, int, int, int, str, str]] = []
    for at in range(0, len(wanted), _WINDOWS_BATCH):
        part = wanted[at : at + _WINDOWS_BATCH]
        rows = conn.execute(
            "WITH wanted(entity_id, n, since, until) AS (VALUES "
            + ", ".join("(?, ?, ?, ?)" for _ in part)
            + ") SELECT a.entity_id, wanted.n, a.chapter, a.rowid, a.kind, a.mention "
            "FROM wanted JOIN activities a ON a.entity_id = wanted.entity_id "
            "AND a.chapter >= wanted.since AND a.chapter < wanted.until",
            [value for row in part for value in row],
        ).fetchall()
        found += [tuple(r) for r in rows]
    out: dict[str, list[Activity]] = {entity_id: [] for entity_id in windows}
    for entity_id, _, chapter, _, kind, mention in sorted(found, key=lambda r: r[:4]):
        out[entity_id].append(
            Activity(entity_id=entity_id, chapter=chapter, kind=kind, mention=mention)
        )
    return out
