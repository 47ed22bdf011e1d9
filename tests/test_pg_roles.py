"""A studio gives some users a read-only role. Such a user opens a book as it is and reads it;
where opening would need more (a book made by an older version, or a new book), it is told in
Chinese what is missing and who may do it, never shown a traceback."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

import webnovel
from webnovel.errors import StoreForbidden, StoreUnavailable

from cli_runner import run_cli
from stores import POSTGRES_URL, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)
NEWEST = "0008_protagonists_by_first_chapter"


@pytest.fixture
def reader() -> Iterator[str]:
    """A login role that may read what it is granted, and nothing more."""
    role = f"reader_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"GRANT SELECT ON public.webnovel_books TO {role}")
        yield role
        admin.execute(f"DROP OWNED BY {role}")
        admin.execute(f"DROP ROLE {role}")


def _url_as(role: str) -> str:
    user = (POSTGRES_URL or "").split("://", 1)[1].split("@", 1)[0]
    return (POSTGRES_URL or "").replace(f"://{user}@", f"://{role}@")


def _as(role: str, folder: Path) -> None:
    """The book's folder as the role's machine has it: the same config, another user."""
    config = folder / ".webnovel" / "config.toml"
    config.write_text(config.read_text().replace(POSTGRES_URL or "", _url_as(role)))


def _let_read(book: webnovel.Project, role: str) -> None:
    schema = book.storage.index.schema
    _schema_sql(
        book,
        f'GRANT USAGE ON SCHEMA "{schema}" TO {role}',
        f'GRANT SELECT ON ALL TABLES IN SCHEMA "{schema}" TO {role}',
    )


def _schema_sql(book: webnovel.Project, *statements: str) -> None:
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as admin:
        admin.execute(f'SET search_path TO "{book.storage.index.schema}"')
        for statement in statements:
            admin.execute(statement)


def test_a_reader_reads_a_book_and_is_told_who_may_upgrade_it(tmp_path: Path, reader: str) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "linyan", "name": "林砚", "type": "character", "is_protagonist": True}
                ],
                "state_changes": [{"entity_id": "linyan", "field": "realm", "new": "炼气"}],
            }
        )
        _let_read(book, reader)
    _as(reader, tmp_path / "book")
    read = run_cli("--project", str(tmp_path / "book"), "fact", "林砚", "realm", "--format", "text")
    assert read.returncode == 0 and "炼气" in read.stdout

    with webnovel.open_project(tmp_path / "book") as as_reader:  # an older version made it
        _schema_sql(
            as_reader,
            "DROP INDEX entities_protagonists",
            f"DELETE FROM schema_migrations WHERE name = '{NEWEST}'",
        )
    refused = run_cli("--project", str(tmp_path / "book"), "fact", "林砚", "realm")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert "error ignored" not in refused.stderr  # psycopg's own note of the aborted pipeline
    assert "需要升级" in refused.stderr and NEWEST in refused.stderr and reader in refused.stderr


def test_a_reader_may_not_make_a_book_and_is_told_why(tmp_path: Path, reader: str) -> None:
    url = _url_as(reader)
    with pytest.raises(StoreForbidden, match=f"用户 {reader} 没有.*建书的权限"):
        webnovel.init_project(tmp_path / "new", title="新书", store=url, book=f"b-{reader}")
    assert not (tmp_path / "new").exists()  # no folder left that looks half made
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "大纲.md").write_text("第一章", encoding="utf-8")
    with pytest.raises(StoreForbidden):
        webnovel.init_project(tmp_path / "mine", title="新书", store=url, book=f"c-{reader}")
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["大纲.md"]


def test_a_reader_who_commits_is_told_it_may_only_read(tmp_path: Path, reader: str) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
        _let_read(book, reader)
    _as(reader, tmp_path / "book")
    chapter = tmp_path / "2.json"
    chapter.write_text('{"chapter": 2, "entities_appeared": [{"id": "a"}]}', encoding="utf-8")
    refused = run_cli("--project", str(tmp_path / "book"), "commit", str(chapter))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "没有权限" in refused.stderr and "只读用户只能查询" in refused.stderr
    with webnovel.open_project(tmp_path / "book") as as_reader:
        assert as_reader.latest_chapter() == 1


def test_a_book_the_role_may_not_read_is_listed_as_such(tmp_path: Path, reader: str) -> None:
    with init_book("postgresql", tmp_path / "book", title="秘稿") as book:
        name = book.storage.index.location.book
    url = _url_as(reader)
    listed = run_cli("books", "--store", url, "--format", "json")
    assert listed.returncode == 0, listed.stderr
    mine = [b for b in json.loads(listed.stdout) if b["book"] == name]
    assert mine and mine[0]["readable"] is False and mine[0]["commits"] is None
    text = run_cli("books", "--store", url, "--format", "text")
    assert "无权读取" in text.stdout


def test_a_connection_dropped_mid_work_is_said_as_the_store_s(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
        pid = book.storage.index.pg.raw.info.backend_pid
        with psycopg.connect(POSTGRES_URL or "", autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(StoreUnavailable) as dropped:  # the store's own, not the driver's
            book.commit({"chapter": 2, "entities_appeared": [{"id": "a"}]})
        assert "连接断开" in str(dropped.value) and dropped.value.code == "store_unavailable"
        assert isinstance(dropped.value.__cause__, psycopg.OperationalError)
        book.commit({"chapter": 2, "entities_appeared": [{"id": "a"}]})  # the next one works
        assert book.latest_chapter() == 2
