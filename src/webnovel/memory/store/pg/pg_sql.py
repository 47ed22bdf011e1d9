"""PostgreSQL's dialect of the store's one set of queries: each SQLite statement translated once.

The store's queries are written for SQLite, which runs them as they are (its raw connection stays
on the hot path). A PostgreSQL connection passes each statement through `translate`, cached by
its text, so a commit pays for a dictionary lookup, not a rewrite. The rules are few because the
queries keep to the SQL both engines speak (`ON CONFLICT`, `RETURNING`, `COALESCE`); what remains
is SQLite's spelling of parameters, a handful of functions, and its JSON helpers over the text
columns that hold JSON. DDL gets its own rules (`translate_ddl`): integer keys become identities,
every integer a bigint, REAL a double, and text compares bytewise (`COLLATE "C"`), as SQLite does,
so that every ORDER BY gives the same answer on both.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..index_store import BOOK_BYTES, BOOK_BYTES_AT_COMMIT

# A commit measures the book's size at its first commit and every SIZE_EVERY-th after; the
# others record the last measure (the dashboard's growth curve moves in steps of this many).
SIZE_EVERY = 16

# JSON paths the queries read out of text columns, with the type SQLite's json_extract gives back.
_JSON_TYPES = {
    "due_chapter": "numeric",  # numbers come back as int or float (pg_store's NumberLoader)
    "last_chapter": "numeric",
    "urgency": "numeric",
    "status": "text",
    "related": "json",
}
# A version's JSON value and its parsed copy, a column PostgreSQL computes as each row is written
# (pg_store.PG_MIGRATIONS); what json_extract reads of the one, PostgreSQL reads of the other.
PARSED_COLUMN = ("value_json", "value_jsonb")
_JSON_EXTRACT = re.compile(r"json_extract\((\w+(?:\.\w+)?), '\$\.(\w+)'\)")
_JSON_EACH = re.compile(r"json_each\((\w+(?:\.\w+)?), '\$\.(\w+)'\) (\w+)")
_JSON_GROUP_ARRAY = re.compile(r"\bjson_group_array\((\w+(?:\.\w+)?)\)")
_UNARY_PLUS = re.compile(r"(?<=[\s(])\+(?=[A-Za-z_])")  # `+column` keeps SQLite off an index
# Statements that a commit runs with executemany, ~55 rows a commit. PostgreSQL runs each of
# them as one statement over arrays of the rows' values: one execution instead of one a row
# (each costs the client a bind and the server an executor start). Their effect is the rows'
# effects in any order: deletes by key, and updates of distinct rows. Beside each, the column
# that names the row an UPDATE changes (None for a delete): rows naming one row twice would
# race in one statement, so `executemany` runs those one by one.
BATCHED: dict[str, tuple[str, int | None]] = {
    "DELETE FROM versions WHERE family = ? AND key = ? AND valid_from >= ?": (
        "DELETE FROM versions v USING unnest(%s::text[], %s::text[], %s::bigint[]) "
        "AS u(family, key, since) "
        "WHERE v.family = u.family AND v.key = u.key AND v.valid_from >= u.since",
        None,
    ),
    "DELETE FROM conflicts WHERE scope = ? AND chapter >= ?": (
        "DELETE FROM conflicts c USING unnest(%s::text[], %s::bigint[]) AS u(scope, since) "
        "WHERE c.scope = u.scope AND c.chapter >= u.since",
        None,
    ),
    "UPDATE versions SET valid_to = ?, status = ? WHERE id = ?": (
        "UPDATE versions v SET valid_to = u.valid_to, status = u.status "
        "FROM unnest(%s::bigint[], %s::text[], %s::bigint[]) AS u(valid_to, status, id) "
        "WHERE v.id = u.id",
        2,
    ),
}


@lru_cache(maxsize=4096)
def translate(sql: str) -> str:
    """A statement of the store, in PostgreSQL's dialect (psycopg's `%s` / `%(name)s` params)."""
    sql = sql.replace(BOOK_BYTES_AT_COMMIT, _book_bytes_at_commit())
    sql = sql.replace(BOOK_BYTES, _book_bytes())
    sql = _parameters(sql)
    # `? IS NULL` (an optional filter): PostgreSQL must be told the parameter's type
    sql = re.sub(r"(%s|%\(\w+\)s) IS (NOT )?NULL", r"CAST(\1 AS text) IS \2NULL", sql)
    sql = _JSON_EXTRACT.sub(_json_extract, sql)
    sql = _JSON_EACH.sub(_json_each, sql)
    # SQLite's JSON text of the gathered values ('[]' for none): json_agg gives NULL for none
    sql = _JSON_GROUP_ARRAY.sub(r"COALESCE(json_agg(\1)::text, '[]')", sql)
    sql = _UNARY_PLUS.sub("", sql)
    sql = re.sub(r"\bIFNULL\(", "COALESCE(", sql, flags=re.IGNORECASE)
    sql = re.sub(r"\binstr\(", "strpos(", sql, flags=re.IGNORECASE)
    # SQLite takes an empty list; PostgreSQL compares with an empty array of the column's type
    sql = re.sub(r"\bNOT IN \(\s*\)", "<> ALL('{}')", sql)
    sql = re.sub(r"\bIN \(\s*\)", "= ANY('{}')", sql)
    return _scalar_min_max(sql)


@lru_cache(maxsize=1)
def _book_bytes() -> str:
    """The book's size: its tables, with their indexes and TOAST, each named. (Finding the
    schema's tables in `pg_class` reads every book's rows there: 3 ms a commit with a few dozen
    books in the database, and more with each. A name is one index lookup.)"""
    from ..migrations import created_tables
    from .pg_vectors import TABLE as VECTORS

    tables = ["schema_migrations", *created_tables(), VECTORS]  # the vectors too: a PG table
    names = ", ".join(f"'{table}'" for table in tables)
    return (
        "(SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0) "
        f"FROM unnest(ARRAY[{names}]) AS t)"
    )


@lru_cache(maxsize=1)
def _book_bytes_at_commit() -> str:
    """The size a commit records: measured at the book's first commit and every SIZE_EVERY-th
    (its sequence number, already in the log), else the last measure. Each branch's subquery
    runs only when its branch is taken (an InitPlan runs when its value is first asked for):
    summing every relation's files was 4.5 of a small commit's 8 ms of server time."""
    size = _book_bytes()
    last = "(SELECT index_bytes FROM commit_stats ORDER BY seq DESC LIMIT 1)"
    return (
        f"(CASE WHEN (SELECT MAX(seq) FROM commits) % {SIZE_EVERY} = 1 THEN {size} "
        f"ELSE COALESCE({last}, {size}) END)"
    )


def _json_extract(match: re.Match[str]) -> str:
    column, key = match.group(1), match.group(2)
    kind = _JSON_TYPES.get(key, "text")
    document = f"({column})::json"
    if column.rsplit(".", 1)[-1] == PARSED_COLUMN[0]:
        # the version's value parsed once, when it was written: parsing the text anew for each
        # field was two thirds of reading the open threads (1,800 rows at 10,000 chapters)
        document = column.removesuffix(PARSED_COLUMN[0]) + PARSED_COLUMN[1]
    if kind == "json":  # an array or object comes back as JSON text (parsed: spaced as jsonb
        # spaces it; readers decode it or look for a quoted id in it)
        return f"({document} -> '{key}')::text"
    value = f"({document} ->> '{key}')"
    return value if kind == "text" else f"{value}::{kind}"


def _json_each(match: re.Match[str]) -> str:
    column, key, alias = match.groups()
    # SQLite's json_each walks an array's elements, or yields a lone value once
    return (
        f"json_array_elements_text(CASE json_typeof(({column})::json -> '{key}') "
        f"WHEN 'array' THEN ({column})::json -> '{key}' "
        f"ELSE json_build_array(({column})::json ->> '{key}') END) AS {alias}(value)"
    )


def _parameters(sql: str) -> str:
    """`?` → `%s`, `:name` → `%(name)s`, a literal `%` doubled; string literals left alone."""
    out: list[str] = []
    for n, part in enumerate(re.split(r"('(?:[^']|'')*')", sql)):
        if n % 2:  # a quoted literal
            out.append(part.replace("%", "%%"))
            continue
        part = part.replace("%", "%%").replace("?", "%s")
        out.append(re.sub(r"(?<![:\w]):([A-Za-z_]\w*)", r"%(\1)s", part))
    return "".join(out)


_IN_LIST = re.compile(r"(?<!NOT )\bIN \(\s*%s(?:\s*,\s*%s)*\s*\)")


@lru_cache(maxsize=1024)
def in_lists(statement: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A translated statement with each `IN (%s, %s, …)` as `= ANY(%s)`, and where each list's
    parameters begin and how many there are: one array stands for them. The store's lists
    vary in length, so each length was a statement of its own, planned anew every time (a
    fifth of a commit's server time); as one array they are one statement, prepared once."""
    if "%(" in statement:
        return statement, ()
    lists = []
    out, at = [], 0
    for match in _IN_LIST.finditer(statement):
        first = _count_params(statement[: match.start()])
        lists.append((first, match.group(0).count("%s")))
        out += [statement[at : match.start()], "= ANY(%s)"]
        at = match.end()
    return "".join(out) + statement[at:], tuple(lists)


def _count_params(text: str) -> int:
    return sum(part.count("%s") for part in text.split("%%"))


@lru_cache(maxsize=1024)
def numbered(statement: str) -> str:
    """A translated statement with PostgreSQL's own `$1, $2, …` for its `%s` (and `%%` as `%`),
    to run as it is. psycopg parses a statement's `%s` in Python and keeps the result only for
    statements of ≤ 50 parameters: a commit's inserts of many rows were parsed anew each time
    (~1 ms each). Positional parameters only."""
    assert "%(" not in statement, statement
    parts = statement.split("%%")
    count = 0
    for n, part in enumerate(parts):
        pieces = part.split("%s")
        for k in range(1, len(pieces)):
            count += 1
            pieces[k] = f"${count}" + pieces[k]
        parts[n] = "".join(pieces)
    return "%".join(parts)


def _scalar_min_max(sql: str) -> str:
    """SQLite's MIN(a, b) and MAX(a, b) with several arguments are LEAST and GREATEST."""
    for name, scalar in (("MIN", "LEAST"), ("MAX", "GREATEST")):
        start = 0
        while (at := sql.upper().find(name + "(", start)) >= 0:
            start = at + len(name) + 1
            if at and (sql[at - 1].isalnum() or sql[at - 1] == "_"):
                continue
            depth, commas, i = 1, 0, start
            while depth and i < len(sql):
                depth += {"(": 1, ")": -1}.get(sql[i], 0)
                commas += sql[i] == "," and depth == 1
                i += 1
            if commas:
                sql = sql[:at] + scalar + sql[at + len(name) :]
    return sql


def translate_ddl(script: str) -> str:
    """A migration's SQLite DDL in PostgreSQL's dialect. A table with no primary key gets
    SQLite's implicit `rowid` as a column of its own, last (so that inserts by position still
    fill the others): queries order such rows by it, and unlike PostgreSQL's `ctid` it stays
    put when a row is updated."""
    script = re.sub(
        r"(CREATE TABLE \w+ \((?:(?!PRIMARY KEY)[^;])*?)\n\s*\)",
        r"\1,\n    rowid BIGINT GENERATED ALWAYS AS IDENTITY\n)",
        script,
    )
    script = re.sub(
        r"\bINTEGER PRIMARY KEY( AUTOINCREMENT)?",
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        script,
    )
    script = re.sub(r"\bINTEGER\b", "BIGINT", script)
    script = re.sub(r"\bREAL\b", "DOUBLE PRECISION", script)
    script = re.sub(r"\bTEXT\b", 'TEXT COLLATE "C"', script)
    script = re.sub(r"\)\s*WITHOUT ROWID", ")", script)
    return script
