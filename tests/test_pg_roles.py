"""A studio gives some users a read-only role. Such a user opens a book as it is and reads it;
where opening would need more (a book made by an older version, or a new book), it is told in
Chinese what is missing and who may do it, never shown a traceback."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

import webnovel
from webnovel.errors import StoreForbidden

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


def _as(role: str, folder: Path) -> None:
    """The book's folder as the role's machine has it: the same config, another user."""
    config = folder / ".webnovel" / "config.toml"
    user = (POSTGRES_URL or "").split("://", 1)[1].split("@", 1)[0]
    config.write_text(config.read_text().replace(f"://{user}@", f"://{role}@"))


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
        schema = book.storage.index.schema
        _schema_sql(
            book,
            f'GRANT USAGE ON SCHEMA "{schema}" TO {reader}',
            f'GRANT SELECT ON ALL TABLES IN SCHEMA "{schema}" TO {reader}',
        )
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
    user = (POSTGRES_URL or "").split("://", 1)[1].split("@", 1)[0]
    url = (POSTGRES_URL or "").replace(f"://{user}@", f"://{reader}@")
    with pytest.raises(StoreForbidden, match=f"用户 {reader} 没有.*建书的权限"):
        webnovel.init_project(tmp_path / "new", title="新书", store=url, book=f"b-{reader}")
