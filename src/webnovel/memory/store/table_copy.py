"""A whole book's tables carried into another store's fresh book, in one transaction.

What `webnovel copy` does by default: the commit log with its texts and the memory derived from
it, row for row, between any two stores (SQLite and PostgreSQL, either way). The same rows give
the same answers, and a 10,000-chapter book moves in seconds of COPY instead of a replay's
round trips per chapter. Both books are at the same migrations (opening a book applies those it
lacks), so their tables match; a table without a primary key keeps its rowid, the order its
rows came in, which queries sort by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from ...errors import InvalidInput
from .index_store import IndexStore, SQLiteStore
from .migrations import created_tables

ROWS_A_PROGRESS = 2000  # how often a copy says how far it got
# the meta a store records of itself (the vector column its server allows), never carried
STORES_OWN_META = frozenset({"vectors_column"})


def copy_tables(
    source: IndexStore,
    target: IndexStore,
    progress: Callable[[int, int], None] | None = None,
    meta: dict[str, str] | None = None,
) -> int:
    """Replace every table of `target` with the rows of `source`'s, read under the source's
    write lock (no commit lands half way) and written in one transaction; returns the number
    of commits copied. `progress(done, total)` counts rows. `meta` are rows the target's meta
    keeps besides the source's (a copy's mark that it is not finished yet)."""
    wanted, have = table_columns(target), table_columns(source)
    if set(wanted) != set(have):
        missing, extra = sorted(set(wanted) - set(have)), sorted(set(have) - set(wanted))
        raise InvalidInput.of("tables_differ", missing=missing, extra=extra)
    order = sorted(wanted, key=_creation_order)  # a table before the tables that refer to it
    with source.atomic() as conn:
        counts = {t: int(conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]) for t in order}
        total, done = sum(counts.values()), 0

        def rows(table: str, columns: list[str]) -> Iterator[Sequence[Any]]:
            nonlocal done
            names = ", ".join(f'"{c}"' for c in columns)
            for row in conn.execute(f'SELECT {names} FROM "{table}"'):
                if table == "meta" and (row[0] in STORES_OWN_META or row[0] in (meta or {})):
                    continue
                yield row
                done += 1
                if progress and done % ROWS_A_PROGRESS == 0:
                    progress(done, total)
            if table == "meta":
                yield from (meta or {}).items()

        tables = [(t, wanted[t], rows(t, wanted[t])) for t in order]
        if isinstance(target, SQLiteStore):
            with target.atomic() as into:
                for table, columns, given in tables:
                    names = ", ".join(f'"{c}"' for c in columns)
                    marks = ", ".join("?" for _ in columns)
                    into.execute(f'DELETE FROM "{table}"')
                    into.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', given)
        else:
            from .pg.pg_store import PostgresStore

            assert isinstance(target, PostgresStore)
            target.load_tables(tables)
        if progress:
            progress(total, total)
    return counts.get("commits", 0)


def table_columns(index: IndexStore) -> dict[str, list[str]]:
    """A book's tables but its migrations, with their columns; SQLite's implicit rowid is
    named where a table has no primary key (PostgreSQL keeps it as a column of its own)."""
    if not isinstance(index, SQLiteStore):
        from .pg.pg_store import PostgresStore

        assert isinstance(index, PostgresStore)
        return index.table_columns()
    conn = index.conn
    tables: dict[str, list[str]] = {}
    for (table,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'"
    ).fetchall():
        info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
        columns = [row[1] for row in info]
        tables[table] = columns if any(row[5] for row in info) else [*columns, "rowid"]
    return tables


@lru_cache(maxsize=1)
def _created() -> dict[str, int]:
    """Each table's place in the migrations (a FOREIGN KEY only refers back)."""
    return {name: n for n, name in enumerate(created_tables())}


def _creation_order(table: str) -> tuple[int, str]:
    return (_created().get(table, len(_created())), table)
