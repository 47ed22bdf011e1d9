"""A process that commits many chapters in a burst keeps the planner's statistics of its
PostgreSQL book current (memory/store/pg/pg_statistics.py): the tables that changed by
autovacuum's measure are analyzed by the writer itself, not a minute later by autovacuum."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
import pytest

from webnovel.memory.store.pg import pg_statistics

from saga import generate_saga
from stores import POSTGRES_URL, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)
SAGA = generate_saga(12, seed=3, text_chars=200)


def _analyzed(schema: str) -> dict[str, bool]:
    """Which of the book's tables were analyzed by hand (ANALYZE), not by autovacuum."""
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as admin:
        rows = admin.execute(
            "SELECT relname, last_analyze IS NOT NULL FROM pg_stat_user_tables "
            "WHERE schemaname = %s",
            (schema,),
        ).fetchall()
    return dict(rows)


def test_a_burst_of_commits_analyzes_the_tables_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_statistics, "CHECK_EVERY", 4)  # a burst of a test's size
    with init_book("postgresql", tmp_path / "book") as book:
        schema = book.storage.index.schema  # type: ignore[attr-defined]
        for result in SAGA.results[:6]:
            book.commit(result)
        # the server counts a backend's changes at most once a second: the next ones see
        # these (a real burst has hundreds of commits between looks)
        time.sleep(1.1)
        for result in SAGA.results[6:]:
            book.commit(result)
        analyzed = _analyzed(schema)
    # the tables a commit writes dozens of rows to; the small ones are under autovacuum's
    # threshold too (50 rows), and those untouched since the book was made are left alone
    assert analyzed["versions"] and analyzed["assertions"] and analyzed["activities"]
    assert not analyzed["chapters"] and not analyzed["schema_migrations"]


def test_a_writer_of_a_chapter_now_and_then_leaves_it_to_autovacuum(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        schema = book.storage.index.schema  # type: ignore[attr-defined]
        for result in SAGA.results[:3]:
            book.commit(result)
    assert not any(_analyzed(schema).values())
