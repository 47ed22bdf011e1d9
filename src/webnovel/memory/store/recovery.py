"""A damaged or foreign `index.db` made anew from the commit log rows it still holds.

What `webnovel rebuild` does first when the book's file fails its check on open
(schema_check.py): the log is the source of truth, everything else in the file is derived from
it. The rows that can be read (a commit whose result is not a JSON object, or whose chapter is
not a number, is left out and counted) go into a fresh file beside the old one, with the book's
meta, the author's verdicts on conflicts and the commits' costs; nothing of the old file's
schema (a trigger, a view, a table's definition) comes along, and nothing in it runs. Then the
old file is kept as `index.db.damaged` and the fresh one takes its place by one rename; the
rebuild proper (`Project.rebuild`) then derives memory from the log.

A derived `vectors.db` that fails its check is only moved aside: the search index cuts it anew.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, suppress
from pathlib import Path
from typing import Any

from ...errors import DamagedBook, InvalidInput, one_line
from ...messages import say
from ...untrusted.json_limits import loads as bounded_loads
from .index_store import SQLiteStore
from .migrations import MIGRATIONS
from .schema_check import open_for_reading, readable_log
from .storage import INDEX_DB, VECTORS_DB
from .vector_store import VECTOR_MIGRATIONS

SIDE_FILES = ("-wal", "-shm", "-journal")

Check = Callable[[Any], bool]


UNDECODABLE = object()  # a text value whose bytes are not UTF-8: its row is left out


def _text_or_undecodable(data: bytes) -> Any:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return UNDECODABLE


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _maybe_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# the tables carried, each column with the check its values must pass (a row failing one is
# left out); the log is `commits`, the rest is what a rebuild keeps and cannot derive
CARRIED: dict[str, dict[str, Check]] = {
    "commits": {
        "seq": _whole,
        "commit_id": _text,
        "chapter": _whole,
        "result_json": _text,
        "text": _maybe_text,
        "recorded_at": _text,
        "retracted_at": _maybe_text,
    },
    "meta": {"key": _text, "value": _text},
    "conflict_resolutions": {
        "conflict_id": _text,
        "status": _text,
        "note": _maybe_text,
        "recorded_at": _text,
    },
    "commit_stats": {
        "seq": _whole,
        "chapter": _whole,
        "elapsed_ms": _number,
        "added": _whole,
        "superseded": _whole,
        "contradicted": _whole,
        "tentative": _whole,
        "conflicts": _whole,
        "index_bytes": _whole,
    },
}


def damage(path: Path, migrations: list[Any]) -> DamagedBook | None:
    """What is wrong with the SQLite file at `path`, or None when it opens (and is migrated)
    and SQLite's own check of every page finds nothing (`quick_check`: a damaged page of a
    derived table is found only when read; a rebuild reads them all anyway)."""
    if not path.exists():
        return None
    try:
        store = SQLiteStore(path, migrations)
    except DamagedBook as exc:
        return exc
    try:
        found = [row[0] for row in store.conn.execute("PRAGMA quick_check")]
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        found = [str(exc)]
    finally:
        store.close()
    if found == ["ok"]:
        return None
    problem = say("schema_not_database", error=one_line(found[0]))
    return DamagedBook(path, problem, migrations is not MIGRATIONS or readable_log(path))


def recover_files(memory_dir: Path, derive: Callable[[SQLiteStore], None]) -> dict[str, Any] | None:
    """Make the book's damaged files anew (None when both open as they are): `index.db` from
    its log, memory derived from it by `derive(store)` in the same transaction before the new
    file takes the old one's place, so a recovery killed half way leaves the old file; a
    damaged `vectors.db` is moved aside to be cut again. Raises the DamagedBook of an
    `index.db` whose log cannot be read."""
    report: dict[str, Any] = {}
    found = damage(memory_dir / INDEX_DB, MIGRATIONS)
    if found is not None:
        if not found.recoverable:
            raise found
        report.update(_recover_index(memory_dir, found.problem, derive))
    if damage(memory_dir / VECTORS_DB, VECTOR_MIGRATIONS) is not None:
        report["vectors_kept_as"] = str(_set_aside(memory_dir / VECTORS_DB))
    return report or None


def _recover_index(
    memory_dir: Path, problem: str, derive: Callable[[SQLiteStore], None]
) -> dict[str, Any]:
    path = memory_dir / INDEX_DB
    fresh = memory_dir / (INDEX_DB + ".rebuilding")
    _remove(fresh)  # a recovery killed half way left it; it is remade from the start
    if not readable_log(path):  # checked on open; the file may have changed since
        raise DamagedBook(path, problem, recoverable=False)
    with closing(open_for_reading(path)) as old:
        old.text_factory = _text_or_undecodable
        # the log's last commits may be in its WAL: folded in, so that the file kept has them
        with suppress(sqlite3.DatabaseError, UnicodeDecodeError):
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store = SQLiteStore(fresh)
        try:
            with store.atomic() as conn:
                kept, skipped = _carry(old, conn)
                derive(store)
            store.checkpoint()
        finally:
            store.close()
    kept_as = _set_aside(path, keep_original=True)
    os.replace(fresh, path)  # one rename: the book has its old file or its new one, never none
    return {
        "problem": problem,
        "commits_kept": kept,
        "commits_skipped": skipped,
        "index_kept_as": str(kept_as),
    }


def _carry(old: sqlite3.Connection, new: sqlite3.Connection) -> tuple[int, int]:
    """The readable rows of the old file's log and kept tables into the new file; returns how
    many commits were kept and how many left out."""
    kept_seqs: set[int] = set()
    skipped = 0
    for table, checks in CARRIED.items():
        columns = _columns(old, table)
        wanted = [c for c in checks if c in columns]
        if not wanted or (table != "commits" and set(wanted) != set(checks)):
            continue  # a kept table that is not whole: rebuild does without it
        rows, left_out = _readable_rows(old, table, wanted, checks)
        if table == "commits":
            loggable = [r for r in rows if _loggable(r)]
            skipped = left_out + len(rows) - len(loggable)
            rows = loggable
            kept_seqs = {r["seq"] for r in rows}
        elif table == "meta":
            rows = [r for r in rows if r["key"] != "commit_seq"]
        elif table == "commit_stats":
            rows = [r for r in rows if r["seq"] in kept_seqs]
        names = ", ".join(f'"{c}"' for c in wanted)
        marks = ", ".join("?" for _ in wanted)
        new.executemany(
            f'INSERT OR REPLACE INTO "{table}" ({names}) VALUES ({marks})',
            ([r[c] for c in wanted] for r in rows),
        )
    new.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('commit_seq', ?)",
        (str(max(kept_seqs, default=0)),),
    )
    return len(kept_seqs), skipped


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    try:
        kind = conn.execute("SELECT type FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        if kind is None or kind[0] != "table":
            return set()  # a view standing in its place is not read
        return {row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))}
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return set()


def _readable_rows(
    conn: sqlite3.Connection, table: str, columns: list[str], checks: dict[str, Check]
) -> tuple[list[dict[str, Any]], int]:
    """The table's rows whose every value passes its check, and how many did not; reading
    stops at a page that cannot be read (what came before it is kept)."""
    rows: list[dict[str, Any]] = []
    bad = 0
    for row in _rows(conn, table, columns):
        values = dict(zip(columns, row, strict=True))
        if all(checks[c](v) for c, v in values.items()):
            rows.append(values)
        else:
            bad += 1
    return rows, bad


def _rows(conn: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[tuple[Any, ...]]:
    names = ", ".join(f'"{c}"' for c in columns)
    try:
        for row in conn.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid'):
            yield tuple(row)
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return


def _loggable(row: dict[str, Any]) -> bool:
    """A log row a rebuild can replay: its result a JSON object (a retraction's, null)."""
    try:
        result = bounded_loads(row["result_json"], "result_json")
    except (InvalidInput, ValueError):
        return False
    if row["commit_id"].startswith("retract:"):
        return result is None
    return isinstance(result, dict)


def _set_aside(path: Path, keep_original: bool = False) -> Path:
    """Keep the file (and its WAL) under a name of its own, `.damaged` (numbered if taken); with
    `keep_original`, as a second name of the same file, which stays until replaced."""
    kept = path.with_name(path.name + ".damaged")
    number = 1
    while kept.exists():
        number += 1
        kept = path.with_name(f"{path.name}.damaged{number}")
    if keep_original:
        try:
            os.link(path, kept)
        except OSError:  # a file system without hard links
            import shutil

            shutil.copy2(path, kept)
    else:
        os.replace(path, kept)
    for side in SIDE_FILES:
        with suppress(FileNotFoundError):
            os.replace(f"{path}{side}", f"{kept}{side}")
    return kept


def _remove(path: Path) -> None:
    for name in (str(path), *(f"{path}{side}" for side in SIDE_FILES)):
        with suppress(FileNotFoundError):
            os.remove(name)
