"""On PostgreSQL a version's JSON value is kept parsed as well (a column the server generates as
each row is written), and the fields a pack ranks threads by are read out of that copy: they
are those SQLite's json_extract gives, a write of the text by any hand is seen at once, and a
book made before the column gets it at its next opening."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

import webnovel
from webnovel.memory.chains import OpenThread
from webnovel.memory.store.pg.pg_sql import translate
from webnovel.memory.store.ranking_scans import pressing_threads, thread_candidates

from library_nights import night
from stores import POSTGRES_URL, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)
CHAPTERS = 10


def _threads(chapter: int) -> list[dict[str, object]]:
    """A thread planted every chapter, some due, some urgent, some naming people; every third
    one paid off two chapters later."""
    planted: list[dict[str, object]] = [
        {
            "id": f"t{chapter}",
            "action": "plant",
            "content": f"第{chapter}夜的残经",
            **({"due_chapter": chapter + 4} if chapter % 2 else {}),
            **({"urgency": 7.5 * chapter} if chapter % 3 else {}),
            **({"related": ["linyan", "laodao"][: chapter % 3]} if chapter % 3 else {}),
        }
    ]
    if chapter > 2 and (chapter - 2) % 3 == 0:
        planted.append({"id": f"t{chapter - 2}", "action": "resolve", "content": "残经找回"})
    return planted


def _book(backend: str, folder: Path) -> webnovel.Project:
    book = init_book(backend, folder)
    for chapter in range(1, CHAPTERS + 1):
        book.commit(night(chapter, plot_threads=_threads(chapter)))
    return book


def _comparable(threads: list[OpenThread]) -> list[tuple[object, ...]]:
    # rows are numbered by each store; the related ids are JSON, spaced as each engine spaces it
    return [
        (t.due_chapter, t.urgency, json.loads(t.related or "null"), t.last_chapter) for t in threads
    ]


def _schema_sql(book: webnovel.Project, sql: str) -> None:
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as other:
        other.execute(f'SET search_path TO "{book.storage.index.schema}"')
        other.execute(sql)


def test_the_fields_read_from_the_parsed_copy_are_sqlite_s(tmp_path: Path) -> None:
    with _book("sqlite", tmp_path / "sq") as sq, _book("postgresql", tmp_path / "pg") as pg:
        kinds = set()
        for chapter in range(1, CHAPTERS + 2):
            expected = _comparable(thread_candidates(sq.storage.conn, chapter))
            assert _comparable(thread_candidates(pg.storage.conn, chapter)) == expected
            kinds.update(type(value) for row in expected for value in row)
            assert [v.subject for v in pressing_threads(pg.storage.conn, chapter, 3)] == [
                v.subject for v in pressing_threads(sq.storage.conn, chapter, 3)
            ]
        assert {int, list, type(None)} <= kinds  # every kind of field was compared


def test_the_parsed_copy_follows_the_text_whoever_writes_it(tmp_path: Path) -> None:
    with _book("postgresql", tmp_path / "pg") as pg:
        _schema_sql(
            pg,
            "UPDATE versions SET value_json = "
            "jsonb_set(value_json::jsonb, '{due_chapter}', '77')::text WHERE family = 'thread'",
        )
        dues = {t.due_chapter for t in thread_candidates(pg.storage.conn, CHAPTERS)}
        assert dues == {77}


def test_a_book_made_before_the_parsed_copy_gets_it_when_opened(tmp_path: Path) -> None:
    with _book("postgresql", tmp_path / "pg") as pg:
        expected = _comparable(thread_candidates(pg.storage.conn, CHAPTERS))
        _schema_sql(
            pg,
            "ALTER TABLE versions DROP COLUMN value_jsonb; "
            "DELETE FROM schema_migrations WHERE name = '0001pg_versions_parsed'",
        )
    with webnovel.open_project(tmp_path / "pg") as reopened:
        assert _comparable(thread_candidates(reopened.storage.conn, CHAPTERS)) == expected
        reopened.commit(night(CHAPTERS + 1, plot_threads=_threads(CHAPTERS + 1)[:1]))
        assert len(thread_candidates(reopened.storage.conn, CHAPTERS + 1)) == len(expected) + 1


def test_json_extract_of_a_version_s_value_reads_the_parsed_copy() -> None:
    sql = translate("SELECT json_extract(v.value_json, '$.due_chapter') FROM versions v")
    assert "v.value_jsonb ->> 'due_chapter'" in sql and "::json " not in sql
    other = translate("SELECT json_extract(payload_json, '$.status') FROM assertions")
    assert "(payload_json)::json ->> 'status'" in other
