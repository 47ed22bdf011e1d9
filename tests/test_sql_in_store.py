"""All SQL of ours is in the store (`memory/store/`): a query is found, typed against the
`Connection` protocol and ported to PostgreSQL in one place. The one exception reads another
program's file: the upstream project's `index.db`, read-only, by `ingest/upstream_import.py`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "webnovel"
STORE = PACKAGE / "memory" / "store"
READS_ANOTHER_PROGRAMS_FILE = {PACKAGE / "ingest" / "upstream_import.py"}

# a string that starts like a statement: SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM,
# CREATE/DROP TABLE or INDEX, PRAGMA
STATEMENT = re.compile(
    r"^\s*(SELECT\s.+\sFROM\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s"
    r"|(CREATE|DROP)\s+(TABLE|INDEX|VIRTUAL|TRIGGER|VIEW)\s|PRAGMA\s)",
    re.IGNORECASE | re.DOTALL,
)


def _statements(path: Path) -> list[str]:
    """The string literals of a module that read as SQL statements (implicitly joined pieces
    count as one, as Python joins them)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if STATEMENT.match(text):
            where = path.relative_to(PACKAGE) if PACKAGE in path.parents else path.name
            found.append(f"{where}:{node.lineno}: {text[:60]!r}")
    return found


def test_no_sql_statement_is_written_outside_the_store() -> None:
    outside = [
        path
        for path in PACKAGE.rglob("*.py")
        if STORE not in path.parents and path not in READS_ANOTHER_PROGRAMS_FILE
    ]
    assert [s for path in sorted(outside) for s in _statements(path)] == []


def test_the_check_finds_a_statement_where_one_is_written(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        'def f(conn):\n    return conn.execute(\n        "SELECT name FROM entity_intros "\n'
        '        "WHERE chapter < ?", (1,))\n\nWORDS = "select one of them"\n',
        encoding="utf-8",
    )
    assert len(_statements(module)) == 1
    assert _statements(READS_ANOTHER_PROGRAMS_FILE.copy().pop())  # the exception does hold SQL
