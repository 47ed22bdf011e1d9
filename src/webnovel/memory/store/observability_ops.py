"""What commits cost and changed: one row per commit, read back as a log and per chapter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .connection import Connection, Row
from .index_store import BOOK_BYTES_AT_COMMIT

if TYPE_CHECKING:  # made when first built (memory/records.py)
    from ..records import CommitCounts, CommitEntry


def record_commit(
    conn: Connection,
    seq: int,
    chapter: int,
    elapsed_ms: float,
    counts: CommitCounts,
    conflicts: int,
) -> None:
    """Called last inside the commit's transaction, so the size is the book's after it."""
    conn.execute(
        "INSERT INTO commit_stats (seq, chapter, elapsed_ms, added, superseded, "
        "contradicted, tentative, conflicts, index_bytes) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, {BOOK_BYTES_AT_COMMIT}) "
        "ON CONFLICT (seq) DO UPDATE SET chapter = excluded.chapter, "
        "elapsed_ms = excluded.elapsed_ms, added = excluded.added, "
        "superseded = excluded.superseded, contradicted = excluded.contradicted, "
        "tentative = excluded.tentative, conflicts = excluded.conflicts, "
        "index_bytes = excluded.index_bytes",
        (
            seq,
            chapter,
            round(elapsed_ms, 3),
            counts.added,
            counts.superseded,
            counts.contradicted,
            counts.tentative,
            conflicts,
        ),
    )


_LOG_COLUMNS = (
    "c.seq, c.chapter, c.commit_id, c.recorded_at, c.retracted_at, c.published_through, "
    "ch.title, s.elapsed_ms, "
    "s.added, s.superseded, s.contradicted, s.tentative, s.conflicts, s.index_bytes"
)


def _entry(row: Row) -> CommitEntry:
    from .. import records

    counts = (
        records.CommitCounts(
            added=row["added"],
            superseded=row["superseded"],
            contradicted=row["contradicted"],
            tentative=row["tentative"],
        )
        if row["elapsed_ms"] is not None
        else None
    )
    return records.CommitEntry(
        seq=row["seq"],
        chapter=row["chapter"],
        commit_id=row["commit_id"],
        recorded_at=row["recorded_at"],
        kind="retraction" if row["commit_id"].startswith("retract:") else "commit",
        retracted=row["retracted_at"] is not None,
        title=row["title"],
        counts=counts,
        conflicts=row["conflicts"],
        elapsed_ms=row["elapsed_ms"],
        index_bytes=row["index_bytes"],
        published_through=row["published_through"],
    )


def commit_log(conn: Connection, up_to: int | None, limit: int) -> list[CommitEntry]:
    """The latest commits (retractions too) of chapters up to `up_to`, newest first."""
    rows = conn.execute(
        f"SELECT {_LOG_COLUMNS} FROM commits c LEFT JOIN commit_stats s ON s.seq = c.seq "
        "LEFT JOIN chapters ch ON ch.chapter = c.chapter AND ch.commit_seq = c.seq "
        "WHERE c.chapter <= ? ORDER BY c.seq DESC LIMIT ?",
        (up_to if up_to is not None else 2**62, limit),
    ).fetchall()
    return [_entry(r) for r in rows]


def chapter_costs(
    conn: Connection, up_to: int | None
) -> list[tuple[int, float | None, int | None]]:
    """For each chapter up to `up_to`, in order: (chapter, commit time in ms, index size after
    it) of the commit it stands on."""
    rows = conn.execute(
        "SELECT ch.chapter, s.elapsed_ms, s.index_bytes FROM chapters ch "
        "LEFT JOIN commit_stats s ON s.seq = ch.commit_seq WHERE ch.chapter <= ? "
        "ORDER BY ch.chapter",
        (up_to if up_to is not None else 2**62,),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]
