"""What one commit or retraction did to the book's open conflicts: those it added, those it
took away, and how many are open after it. A commit's `conflicts` lists every conflict of the
chapters from its own on, so one death in a long book re-printed the same 1,913 on every later
commit and hid the one new conflict among them; these fields say only what changed."""

from __future__ import annotations

from typing import Any

from ..store import record_ops
from ..store.connection import Connection, Cursor, Row


def ask_open_conflicts(conn: Connection) -> Cursor:
    """Ask for the open conflicts before a change, and read them (`open_conflicts`) after the
    next statement that waits for its answer, before the change touches a conflict: on
    PostgreSQL the question then costs no round trip of its own."""
    return record_ops.ask_open_conflict_rows(conn)


def open_conflicts(asked: Cursor) -> dict[str, Row]:
    """The open conflicts asked for, as stored rows by id (read into records only if the
    change takes them away)."""
    return record_ops.rows_by_id(asked)


def conflicts_changed(conn: Connection, open_before: dict[str, Row]) -> dict[str, Any]:
    """The CommitReport's `conflicts_added`, `conflicts_removed` (as records, in the order
    `conflicts` lists them) and `open_conflicts`, against `open_before`."""
    open_after = record_ops.open_conflict_ids(conn)
    new_ids = sorted(open_after - set(open_before))
    added = list(record_ops.open_conflict_rows(conn, new_ids).values())
    removed = [row for key, row in open_before.items() if key not in open_after]
    return {
        "conflicts_added": tuple(record_ops.conflicts_of_rows(conn, _in_order(added))),
        "conflicts_removed": tuple(record_ops.conflicts_of_rows(conn, _in_order(removed))),
        "open_conflicts": len(open_after),
    }


def _in_order(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r["chapter"], r["kind"], r["id"]))
