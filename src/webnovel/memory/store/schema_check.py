"""A book's SQLite file checked against our migrations before anything runs in it.

A received book's `index.db` (or `vectors.db`) was made by whoever sent it. SQLite runs what a
file's schema says: a trigger fires on our next commit, a view can stand where a table should,
an index can refuse our rows, and a file with a dropped table or deleted migration rows makes
the migrations fail half way. So a file is opened with SQLite's defences for untrusted files
(`guard`), and before the migrations touch it, its schema is compared with the one our
migrations make (`check_schema`): every table, index and virtual table theirs, with the same
definition, no trigger or view at all, its migration rows a prefix of ours. One read of
`sqlite_master`; the schema to compare with is made once per process in memory.
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache

from ...errors import DamagedBook, DamagedCache, one_line
from ...messages import say
from .migrations import Migration, migrate

# our migrations make none of these: any one of them is someone else's
REFUSED_KINDS = ("trigger", "view")


def guard(conn: sqlite3.Connection) -> None:
    """SQLite's defences for a file someone else made: no function with side effects, and no
    virtual table that is not marked safe, runs from the schema (`trusted_schema`); a page
    whose cells overrun it is refused as corrupt rather than read (`cell_size_check`); and,
    where the sqlite3 module offers it, SQLite's defensive mode."""
    conn.execute("PRAGMA trusted_schema=OFF")
    conn.execute("PRAGMA cell_size_check=ON")
    # Python 3.12's sqlite3 can also set DEFENSIVE (no writable_schema, no shadow-table writes);
    # on an older Python the two above are what there is
    defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
    if defensive is not None and hasattr(conn, "setconfig"):
        conn.setconfig(defensive, True)


def refuse_code(conn: sqlite3.Connection, path: object) -> None:
    """Raise DamagedBook if the file holds a trigger or a view: for a cache in the book's
    folder that has no migrations of its own (the extraction's answers.db), this is what could
    run in it, and deleting the cache is the remedy."""
    for kind, name in conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name"
    ):
        problem = say("schema_foreign", kind=_kind(kind), name=one_line(name, 80))
        raise DamagedCache(path, problem)


def check_schema(conn: sqlite3.Connection, migrations: list[Migration], path: object) -> None:
    """Raise DamagedBook unless the file's schema is the one `migrations` make, up to the
    migrations it records (a file none of them touched yet is an empty one)."""
    found = {
        row[1]: (row[0], row[2], row[3])
        for row in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    }
    for name, (kind, _, _) in sorted(found.items()):
        if kind in REFUSED_KINDS:
            raise DamagedBook(
                path, say("schema_foreign", kind=_kind(kind), name=one_line(name, 80))
            )
    if not found:
        return  # a new file: the migrations make everything
    if found.get("schema_migrations", ("",))[0] != "table":
        raise DamagedBook(path, say("schema_no_migrations"))
    recorded = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    names = [name for name, _ in migrations]
    unknown = sorted(recorded - set(names))
    if unknown:
        raise DamagedBook(path, say("schema_unknown_migration", name=one_line(unknown[0], 80)))
    done = len(recorded)
    if recorded != set(names[:done]):
        missing = next(n for n in names if n not in recorded)
        raise DamagedBook(path, say("schema_migration_missing", name=missing))
    expected, shadows = reference_schema(tuple(migrations[:done]))
    for name, (kind, table, sql) in expected.items():
        have = found.get(name)
        if have is None:
            raise DamagedBook(
                path, say("schema_missing", kind=_kind(kind), name=one_line(name, 80))
            )
        same = have[2] == sql[0] or normalized(have[2]) == sql[1]  # as made, or as made before
        if have[0] != kind or have[1] != table or not same:
            raise DamagedBook(
                path, say("schema_changed", kind=_kind(kind), name=one_line(name, 80))
            )
    for name, (kind, _, _) in sorted(found.items()):
        if name in expected or name.startswith("sqlite_") or name.startswith(shadows):
            continue  # SQLite's own tables, and those of our virtual tables (its version's)
        raise DamagedBook(path, _foreign_or_unrecorded(migrations, kind, name))
    if "meta" in expected:
        seq = conn.execute("SELECT value FROM meta WHERE key = 'commit_seq'").fetchone()
        if seq is not None and not _is_number(seq[0]):
            raise DamagedBook(path, say("schema_bad_commit_seq", value=repr(seq[0])[:40]))


Objects = dict[str, tuple[str, str, tuple[str, str]]]


@lru_cache(maxsize=8)
def reference_schema(migrations: tuple[Migration, ...]) -> tuple[Objects, tuple[str, ...]]:
    """What `migrations` make, name → (type, table, (SQL, normalized SQL)), and the prefix of
    their virtual tables' shadow tables: applied once to an empty database in memory. SQLite's
    own objects and the shadow tables (whose definitions are the SQLite version's, not ours)
    are left out."""
    memory = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(memory, list(migrations))
        rows = memory.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    finally:
        memory.close()
    shadows = tuple(f"{name}_" for _, name, _, sql in rows if _is_virtual(sql))
    objects = {
        name: (kind, table, (sql, normalized(sql)))
        for kind, name, table, sql in rows
        if sql is not None and not name.startswith("sqlite_")
        if not (shadows and name.startswith(shadows))
    }
    return objects, shadows


def normalized(sql: str | None) -> str:
    """A definition as SQLite keeps it, without comments or differences of spacing: a book made
    when migrations ran as one script kept their comments inside its tables' text."""
    if sql is None:
        return ""
    text = re.sub(r"--[^\n]*", " ", sql)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\s*([(),])\s*", r"\1", text).strip()


def _is_virtual(sql: str | None) -> bool:
    return bool(sql) and normalized(sql).upper().startswith("CREATE VIRTUAL TABLE")


def _foreign_or_unrecorded(migrations: list[Migration], kind: str, name: str) -> str:
    """What an object the recorded migrations did not make says: that a later migration's
    record was deleted (it is that migration's), or that someone else made it."""
    for done in range(1, len(migrations) + 1):
        if name in reference_schema(tuple(migrations[:done]))[0]:
            return say("schema_migration_missing", name=migrations[done - 1][0])
    return say("schema_foreign", kind=_kind(kind), name=one_line(name, 80))


def _is_number(value: object) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdigit()


def _kind(kind: str) -> str:
    """A schema object's kind in the reader's words (表、索引、触发器、视图)."""
    return say(f"schema_kind_{kind}") if kind in ("table", "index", "trigger", "view") else kind


LOG_COLUMNS = ("seq", "commit_id", "chapter", "result_json", "text", "recorded_at")


def open_for_reading(path: object) -> sqlite3.Connection:
    """A connection to a damaged file that only reads it: nothing from its schema runs
    (`trusted_schema`), and a schema entry SQLite cannot parse (a flipped byte in some table's
    definition) does not hide the tables it can (`writable_schema`, which here writes nothing)."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA trusted_schema=OFF")
    conn.execute("PRAGMA cell_size_check=ON")
    conn.execute("PRAGMA writable_schema=ON")
    return conn


def readable_log(path: object) -> bool:
    """Whether the file's commit log can be read: `commits` is a table (not a view) with the
    log's columns. What `rebuild` needs to make the book's index anew (recovery.py)."""
    try:
        conn = open_for_reading(path)
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return False
    try:
        kind = conn.execute("SELECT type FROM sqlite_master WHERE name = 'commits'").fetchone()
        if kind is None or kind[0] != "table":
            return False
        columns = {row[1] for row in conn.execute("SELECT * FROM pragma_table_info('commits')")}
        return set(LOG_COLUMNS) <= columns
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return False
    finally:
        conn.close()
