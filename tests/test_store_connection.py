"""The store's queries are typed against its own `Connection` (memory/store/connection.py), which
both backends satisfy (mypy checks it there and in the PostgreSQL connection), never against
sqlite3's with PostgreSQL's cast to it: `sqlite3.Connection` is named only where the code runs on
SQLite alone."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "webnovel"

# the code that needs SQLite itself: vectors.db, a file's pragmas, migrations and recovery,
# upstream's database, and the index's own SQLite handle
SQLITE_ONLY = {
    "ingest/upstream_import.py",
    "memory/retrieval/dense_matrix.py",
    "memory/retrieval/search.py",  # the vectors.db beside the book's connection
    "memory/store/index_store.py",
    "memory/store/migrations.py",
    "memory/store/recovery.py",
    "memory/store/schema_check.py",
    "memory/store/vector_store.py",
}


def _names_sqlite(node: ast.AST | None) -> bool:
    return node is not None and any(
        isinstance(n, ast.Attribute)
        and n.attr in ("Connection", "Row")
        and isinstance(n.value, ast.Name)
        and n.value.id == "sqlite3"
        for n in ast.walk(node)
    )


def _annotations(tree: ast.AST) -> list[ast.expr | None]:
    found: list[ast.expr | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node.returns)
            arguments = node.args
            for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                found.append(arg.annotation)
    return found


def _modules() -> dict[str, ast.AST]:
    return {
        path.relative_to(SRC).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    }


def test_sqlite3s_connection_is_named_only_where_the_code_runs_on_sqlite_alone() -> None:
    naming = {
        module
        for module, tree in _modules().items()
        if any(_names_sqlite(annotation) for annotation in _annotations(tree))
    }
    assert naming <= SQLITE_ONLY, sorted(naming - SQLITE_ONLY)


def test_no_connection_is_cast_to_sqlite3s() -> None:
    casts = [
        f"{module}:{node.lineno}"
        for module, tree in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "cast"
        and node.args
        and _names_sqlite(node.args[0])
    ]
    assert not casts, casts


def test_the_postgresql_modules_live_in_their_own_package_loaded_only_for_a_postgresql_book(
    tmp_path: Path,
) -> None:
    """store/pg/ holds the second backend; opening and reading a SQLite book loads none of it."""
    import subprocess
    import sys

    store = SRC / "memory" / "store"
    assert not sorted(p.name for p in store.glob("pg_*.py"))
    assert {p.stem for p in (store / "pg").glob("pg_*.py")} >= {
        "pg_connection",
        "pg_sql",
        "pg_statistics",
        "pg_store",
        "pg_unreachable",
        "pg_vectors",
    }
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, webnovel\n"
            f"webnovel.init_project({str(tmp_path / 'book')!r}, title='书').close()\n"
            f"book = webnovel.open_project({str(tmp_path / 'book')!r})\n"
            "book.entities(); book.stats(); book.resume()\n"
            "print(' '.join(m for m in sys.modules if 'pg' in m.split('.')[-1] or 'psycopg' in m))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert loaded == [], loaded
