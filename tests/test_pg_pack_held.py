"""A PostgreSQL book's handle holds its rules and dead between packs too, by the server's
snapshot of transactions: whatever writes the book (this handle, another machine, a DBA's
SQL) is seen by the next pack, and a write that is rolled back is never held."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

import webnovel
from webnovel.memory.packs.memory_pack import PackRequest
from webnovel.memory.packs.orchestrator import build_memory_pack, ranking_cache
from webnovel.memory.store.ranking_scans import book_state

from library_nights import OUTLINE, night
from stores import POSTGRES_URL, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)
QI = {"id": "qi", "rule": "灵气只在子时充盈", "domain": "修炼"}


def _rules(book: webnovel.Project, held: object) -> list[str]:
    request = PackRequest(task="chapter_write", chapter=2, outline=OUTLINE)
    pack = build_memory_pack(book.storage.conn, book.config, book.aliases(), request, held=held)
    return [i.value for s in pack.sections if s.name == "world_rules" for i in s.items]


def _reword_from_another_connection(book: webnovel.Project, rule: str) -> None:
    schema = book.storage.index.schema
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as other:
        other.execute(f'SET search_path TO "{schema}"')
        other.execute(
            "UPDATE versions SET value_json = jsonb_set(value_json::jsonb, '{rule}', %s)::text "
            "WHERE family = 'rule'",
            (f'"{rule}"',),
        )


def test_a_write_from_anywhere_is_seen_by_the_next_pack(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit(night(1, world_rules=[QI]))
        held = ranking_cache()
        for _ in range(4):  # scanned, then held while nothing on the server moves
            assert _rules(book, held) == ["灵气只在子时充盈"]
        state = book_state(book.storage.conn)
        assert state is not None

        _reword_from_another_connection(book, "灵气全无")
        assert book_state(book.storage.conn) != state
        assert _rules(book, held) == ["灵气全无"] == _rules(book, held) == _rules(book, held)

        with webnovel.open_project(tmp_path / "book") as other:
            other.commit(night(1, world_rules=[{**QI, "rule": "灵气只在卯时充盈"}]))
        assert _rules(book, held) == ["灵气只在卯时充盈"] == _rules(book, held)


def test_a_rolled_back_write_is_never_held(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit(night(1, world_rules=[QI]))
        held = ranking_cache()
        assert _rules(book, held) == ["灵气只在子时充盈"] == _rules(book, held)
        conn = book.storage.conn
        with book.storage.index.trial():
            conn.execute(
                "UPDATE versions SET value_json = ? WHERE family = 'rule'",
                ('{"rule": "灵气全无", "domain": "修炼"}',),
            )
            assert book_state(conn) is None  # the rows seen are not committed ones
            assert _rules(book, held) == ["灵气全无"] == _rules(book, held)
        assert _rules(book, held) == ["灵气只在子时充盈"] == _rules(book, held)
