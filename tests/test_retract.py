"""Taking a chapter back: the book answers exactly as if the chapter had never been committed,
through rebuild too; the log keeps the retracted commit; committing it again restores it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.cli.main import main
from webnovel.errors import UnknownChapter

from answers import book_answers
from saga import generate_saga

SAGA = generate_saga(40, seed=5, text_chars=300)
ENTITIES = sorted({e for e, _ in SAGA.truth.facts})[:12]
FIELDS = ["realm", "location", "status", "items"]
CHAPTERS = list(range(0, 42, 3))
GONE = 17


def answers(book: webnovel.Project) -> dict[str, Any]:
    out = book_answers(book, ENTITIES, FIELDS, CHAPTERS)
    out["search"] = sorted((h.chapter, h.text) for h in book.search("东海岛 剑", top_k=200))
    out["chapters"] = [c["chapter"] for c in book.chapters()]
    return out


def build(root: Path, skip: int | None = None) -> webnovel.Project:
    book = webnovel.init_project(root, title="t")
    for result, text in zip(SAGA.results, SAGA.texts, strict=True):
        if result["chapter"] != skip:
            book.commit(result, text=text)
    return book


def test_a_retracted_book_equals_a_book_built_without_the_chapter(tmp_path: Path) -> None:
    with build(tmp_path / "without", skip=GONE) as without:
        expected = answers(without)
    with build(tmp_path / "whole") as book:
        before = answers(book)
        assert any(chapter == GONE for chapter, _ in before["search"])
        report = book.retract(GONE)
        assert (report.chapter, report.status) == (GONE, "retracted")
        assert answers(book) == expected
        book.rebuild()
        assert answers(book) == expected  # rebuild honours the mark
        log = book.storage.conn.execute(
            "SELECT commit_id, retracted_at FROM commits WHERE chapter = ? ORDER BY seq", (GONE,)
        ).fetchall()
        assert len(log) == 2 and all(row[1] for row in log)  # kept, marked, and the tombstone
        again = book.commit(SAGA.results[GONE - 1], text=SAGA.texts[GONE - 1])
        assert again.status == "committed"  # the same content comes back
        assert answers(book) == before


def test_retracting_a_chapter_never_committed_is_a_clear_error(book: webnovel.Project) -> None:
    with pytest.raises(UnknownChapter, match="第3章尚未提交"):
        book.retract(3)


def test_cli_retract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t") as book:
        for result in SAGA.results[:3]:
            book.commit(result)
    assert main(["--project", str(root), "retract", "3", "--yes", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["chapter"], report["status"]) == (3, "retracted")
    assert main(["--project", str(root), "retract", "3", "--yes"]) == 1
    assert "第3章尚未提交" in capsys.readouterr().err
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() == 2
