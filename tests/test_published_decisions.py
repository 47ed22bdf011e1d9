"""An imported serial published through its last chapter (trial 6): the author's decisions on
names and an agent filling in the import's guessed memory are not refused as revisions of what
readers have read (each was a dead end: `--force` exists on neither `candidates` nor `rename`),
and are logged as revisions of published chapters. A checked commit under a wrong chapter
number is told first that it would replace that chapter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import ReplacementChangesAnswers

from cli_runner import run_cli

CHAPTERS = {
    n: f"林砚在第{n}天练剑，韩啸在崖下冷眼旁观。韩啸记下了剑路，苏晚晴端来热茶。"
    for n in range(1, 7)
}
CAST = "id,name,aliases,type\nlinyan,林砚,阿砚,角色\nsuwanqing,苏晚晴,,角色\n"


@pytest.fixture
def published(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    (root / "寒江.txt").write_text(
        "".join(f"第{n}章 章{n}\n　　{text}\n" for n, text in CHAPTERS.items()), encoding="utf-8"
    )
    (root / "cast.csv").write_text(CAST, encoding="utf-8")
    for args in (
        ["import", "text", str(root / "寒江.txt"), "--cast", str(root / "cast.csv")],
        ["publish", "--through", "6"],
    ):
        ran = run_cli("--project", str(root), *args, "--format", "json")
        assert ran.returncode == 0, ran.stderr
    return root


def published_lines(root: Path, count: int) -> dict[int, Any]:
    with webnovel.open_project(root) as book:
        return {e.chapter: e.published_through for e in book.commit_log(limit=count)}


def test_names_are_decided_past_the_published_line_and_logged(published: Path) -> None:
    accepted = run_cli("--project", str(published), "candidates", "accept", "韩啸")
    assert accepted.returncode == 0, accepted.stderr
    with webnovel.open_project(published) as book:
        assert book.entity("韩啸").name == "韩啸"
    assert set(published_lines(published, 1).values()) == {6}
    renamed = run_cli("--project", str(published), "rename", "韩啸", "韩啸天", "--from", "3")
    assert renamed.returncode == 0, renamed.stderr
    with webnovel.open_project(published) as book:
        assert book.entity("韩啸天").id == book.entity("韩啸").id
        assert book.entity("韩啸天").name == "韩啸天"
    assert set(published_lines(published, 1).values()) == {6}


def test_an_agent_fills_in_an_imported_published_chapter_without_consent(
    published: Path,
) -> None:
    result = {
        "chapter": 2,
        "summary": "林砚练剑，剑意初成。",
        "entities_appeared": [{"id": "linyan", "role": "present"}],
        "state_changes": [{"entity_id": "linyan", "field": "realm", "new": "炼气"}],
    }
    with webnovel.open_project(published) as book:
        report = book.commit(result, check=True)
        assert report.status == "committed"
        assert book.fact("linyan", "realm").value == "炼气"
        # the agent's result is no guess: changing it again is a revision readers would see
        with pytest.raises(webnovel.errors.PublishedChapterRevised):
            book.commit({**result, "state_changes": []}, check=True)
    assert published_lines(published, 1) == {2: 6}


def test_a_wrong_chapter_number_is_told_before_the_review(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "lin", "name": "林砚", "type": "角色"}]})
        book.commit(
            {"chapter": 2, "state_changes": [{"entity_id": "lin", "field": "realm", "new": "筑基"}]}
        )
        book.commit({"chapter": 3, "summary": "林砚下山。"})
        wrong = {  # chapter 3's result sent as chapter 2: it names someone never introduced too
            "chapter": 2,
            "entities_appeared": [{"id": "nobody"}],
            "state_changes": [{"entity_id": "lin", "field": "realm", "new": "金丹"}],
        }
        with pytest.raises(ReplacementChangesAnswers) as refused:
            book.commit(wrong, check=True)
        assert refused.value.code == "replacement_changes_answers"
        assert json.dumps(refused.value.details, ensure_ascii=False).count("筑基") >= 1


def test_restore_of_a_chapter_never_committed_says_so(tmp_path: Path) -> None:
    """Not 「没有别的版本可换回」 (a trial): a chapter the book never had has no version at all."""
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit({"chapter": 1, "summary": "开篇。"})
        for missing in (0, 99):
            with pytest.raises(webnovel.errors.UnknownChapter):
                book.restore(missing)
        with pytest.raises(webnovel.errors.UnknownVersion):
            book.restore(1)  # committed once: no other version
