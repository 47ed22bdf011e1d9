"""What the engine asks a PostgreSQL server on purpose does not fail there: a studio's DBA reads
the server's log, and every failed statement is an ERROR in it. Whether the server has pgvector
is asked, not found out by trying and failing on every new book.

Read from the server's own log, which these tests find where `.ci/postgres-start` puts it (beside
the data folder); against another server they skip."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stores import POSTGRES_URL, init_book

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


def test_a_new_book_on_a_server_without_pgvector_logs_no_error(tmp_path: Path) -> None:
    import psycopg

    with psycopg.connect(URL, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone():
            pytest.skip("this server has pgvector")
    with _logged() as lines:
        init_book("postgresql", tmp_path / "book").close()
    assert [line for line in lines if 'extension "vector" is not available' in line] == []
