"""`webnovel books --delete` takes a whole book, for good: off a terminal (an agent's shell) it
deletes only when told `--yes`, and otherwise says what it would have deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import run_cli
from stores import POSTGRES_URL, book_name, init_book

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
