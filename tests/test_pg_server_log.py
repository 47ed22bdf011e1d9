"""What the engine asks a PostgreSQL server on purpose never fails there: a studio's DBA reads
the server's log, and every failed statement is an ERROR in it. Asking whether a book is in the
store, or whether the server has pgvector, must not be done by trying and failing.

Read from the server's own log, which these tests find where `.ci/postgres-start` puts it (beside
the data folder); against another server they skip."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

import webnovel
from webnovel.errors import ProjectNotFound

from stores import POSTGRES_URL, book_name, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)
URL = POSTGRES_URL or ""


def _server_log() -> Path:
    import psycopg

    with psycopg.connect(URL, autocommit=True) as conn:
        try:
            data = conn.execute("SELECT current_setting('data_directory')").fetchone()
        except psycopg.errors.InsufficientPrivilege:
            pytest.skip("the server's data folder is not ours to read")
    log = Path(str(data[0] if data else "")).parent / "log"
    if not log.is_file():
        pytest.skip("the server's log is not where .ci/postgres-start puts it")
    return log


@contextmanager
def _logged() -> Iterator[list[str]]:
    """The lines the server logs while the block runs (other tests' lines among them)."""
    log = _server_log()
    start = log.stat().st_size
    lines: list[str] = []
    yield lines
    with log.open("rb") as handle:
        handle.seek(start)
        lines += handle.read().decode("utf-8", "replace").splitlines()


def _folder_naming(tmp_path: Path, url: str, book: str) -> Path:
    folder = tmp_path / "folder"
    (folder / ".webnovel").mkdir(parents=True)
    (folder / ".webnovel" / "config.toml").write_text(
        f'[store]\nurl = "{url}"\nbook = "{book}"\n', encoding="utf-8"
    )
    return folder


def _missing_tables(lines: list[str]) -> list[str]:
    """The errors of a statement that named the book's migrations or the store's registry where
    they were not (no other test's statement names them where they are not)."""
    tables = ('relation "schema_migrations" does not', 'relation "public.webnovel_books" does not')
    return [line for line in lines if any(table in line for table in tables)]


def test_asking_for_a_book_the_store_does_not_hold_logs_no_error(tmp_path: Path) -> None:
    init_book("postgresql", tmp_path / "held").close()  # the store's registry exists
    with _logged() as lines, pytest.raises(ProjectNotFound):
        webnovel.open_project(_folder_naming(tmp_path, URL, book_name()))
    assert _missing_tables(lines) == []


def test_nor_in_a_database_that_holds_no_book_yet(tmp_path: Path) -> None:
    import psycopg

    database = f"fresh_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(URL, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {database}")
    try:
        url = urlunsplit(urlsplit(URL)._replace(path="/" + database))
        with _logged() as lines, pytest.raises(ProjectNotFound):
            webnovel.open_project(_folder_naming(tmp_path, url, book_name()))
    finally:
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {database} WITH (FORCE)")
    assert _missing_tables(lines) == []


def test_a_new_book_on_a_server_without_pgvector_logs_no_error(tmp_path: Path) -> None:
    import psycopg

    with psycopg.connect(URL, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone():
            pytest.skip("this server has pgvector")
    with _logged() as lines:
        init_book("postgresql", tmp_path / "book").close()
    assert [line for line in lines if 'extension "vector" is not available' in line] == []


def test_a_book_the_store_holds_still_opens_in_one_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look that no longer fails must still find the book and its migrations: otherwise
    every opening would ask again step by step (`_registered`, `_applied`)."""
    init_book("postgresql", tmp_path / "book").close()
    monkeypatch.setenv("PGOPTIONS", "-c log_statement=all")  # this test's connections only
    with _logged() as lines:
        webnovel.open_project(tmp_path / "book").close()
    looked = [line for line in lines if "to_regclass('schema_migrations')" in line]
    pid = looked[0].split("[", 1)[1].split("]", 1)[0]
    ours = [line for line in lines if f"[{pid}]" in line]
    assert not [line for line in ours if "FROM public.webnovel_books WHERE book = $1" in line]
    assert not [line for line in ours if "SELECT name FROM schema_migrations" in line]
