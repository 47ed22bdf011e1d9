"""A shared store's books from the command line. `webnovel books --delete` takes a whole book,
for good: off a terminal (an agent's shell) it deletes only when told `--yes`, and otherwise
says what it would have deleted. `stats` names the store that holds the book."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from cli_runner import run_cli
from stores import POSTGRES_URL, book_name, drop_book, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)


def test_a_book_is_deleted_off_a_terminal_only_with_yes(tmp_path: Path) -> None:
    name = book_name()
    with init_book("postgresql", tmp_path / "book", title="青云志", book=name) as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
    url = POSTGRES_URL or ""
    refused = run_cli("books", "--store", url, "--delete", name)
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert "《青云志》" in refused.stderr and "1 次提交" in refused.stderr
    listed = run_cli("books", "--store", url, "--format", "json")
    assert name in listed.stdout
    assert run_cli("books", "--store", url, "--delete", name, "--yes").returncode == 0
    assert name not in run_cli("books", "--store", url, "--format", "json").stdout
    missing = run_cli("books", "--store", url, "--delete", name)
    assert missing.returncode == 1 and name in missing.stderr


def test_a_copy_to_the_same_server_keeps_the_password_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOVELS_DB_PASSWORD", "any")  # the test server trusts loopback
    with init_book(
        "postgresql", tmp_path / "book", book=book_name(), password_env="NOVELS_DB_PASSWORD"
    ) as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
    copy_name = book_name()
    url = POSTGRES_URL or ""
    try:
        ran = run_cli(
            "--project", str(tmp_path / "book"), "copy", str(tmp_path / "copy"),
            "--store", url, "--book", copy_name,
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr
    finally:
        drop_book(copy_name)
    config = (tmp_path / "copy" / ".webnovel" / "config.toml").read_text(encoding="utf-8")
    assert 'password_env = "NOVELS_DB_PASSWORD"' in config
    other = run_cli(
        "--project", str(tmp_path / "book"), "copy", str(tmp_path / "sq"), "--password-env", "X",
    )  # fmt: skip
    assert other.returncode == 2 and "--password-env" in other.stderr


def test_a_book_whose_schema_went_meanwhile_does_not_stop_the_list(tmp_path: Path) -> None:
    """Another machine may delete a book while this one lists: its registry row is read, its
    schema is gone by the time it is looked at."""
    name = book_name()
    with init_book("postgresql", tmp_path / "book", book=name) as book:
        schema = book.storage.index.schema
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as admin:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    listed = run_cli("books", "--store", POSTGRES_URL or "", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert [b["readable"] for b in json.loads(listed.stdout) if b["book"] == name] == [False]


def test_init_says_which_store_holds_the_book(tmp_path: Path) -> None:
    name = book_name()
    url = POSTGRES_URL or ""
    try:
        made = run_cli(
            "init", str(tmp_path / "b"), "--title", "青云志", "--store", url, "--book", name,
            "--format", "json",
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert json.loads(made.stdout)["store"] == f"{url}#{name}"
    finally:
        drop_book(name)
    alone = run_cli("init", str(tmp_path / "s"), "--title", "青云志", "--format", "json")
    assert json.loads(alone.stdout)["store"] == "sqlite"


def test_stats_names_the_store_that_holds_the_book(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "b", title="青云志") as book:
        where = book.storage.location.shown()  # type: ignore[union-attr]
    as_json = run_cli("--project", str(tmp_path / "b"), "stats", "--format", "json")
    assert json.loads(as_json.stdout)["book"]["store"] == where
    as_text = run_cli("--project", str(tmp_path / "b"), "stats", "--format", "text").stdout
    assert f"书库：{where}" in as_text
    assert "书库中的本书：" in as_text and "index.db" not in as_text  # no such file here
    init_book("sqlite", tmp_path / "s").close()
    alone = run_cli("--project", str(tmp_path / "s"), "stats", "--format", "json").stdout
    assert "store" not in json.loads(alone)["book"]
