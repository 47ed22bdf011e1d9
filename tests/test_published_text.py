"""A published chapter's text replaced by `sync`, `sync --force` or `import text`: readers have
read it, so a text alone (a typo fixed, memory unchanged) goes in without --force but is said,
naming the chapters and that they are published, and logged as a revision of a published
chapter; a change of its memory still needs --force (tests/test_reimport_keeps.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from test_reimport_keeps import answer, cli, novel

SIX = {n: f"林砚在第{n}天练剑，苏晚晴在旁观看，剑光如雪。" for n in range(1, 7)}
CAST = "id,name,aliases,type\nlinyan,林砚,,角色\nsuwanqing,苏晚晴,,角色\n"
TYPO_FIXED = "（错字已改）"
SAID = "其中已发布的章节（读者已读过，已发布至第4章）正文有改动：第4章"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """Six chapters imported from the book's folder; chapter 4's result written by an agent
    (a death: the import keeps it, so a new text leaves its memory as it is); published
    through chapter 4."""
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    (root / "寒江.txt").write_text(novel(SIX), encoding="utf-8")
    (root / "cast.csv").write_text(CAST, encoding="utf-8")
    answer(root, "import", "text", str(root / "寒江.txt"), "--cast", str(root / "cast.csv"))
    with webnovel.open_project(root) as opened:
        written = {
            "chapter": 4,
            "title": "雪夜",
            "summary": "苏晚晴死于雪夜。",
            "entities_appeared": [{"id": "suwanqing"}, {"id": "linyan"}],
            "state_changes": [{"entity_id": "suwanqing", "field": "status", "new": "死亡"}],
        }
        assert opened.commit(written).status == "committed"
        opened.publish(through=4)
    return root


def fix_typo(root: Path, chapter: int) -> None:
    (root / "寒江.txt").write_text(
        novel(SIX | {chapter: SIX[chapter] + TYPO_FIXED}), encoding="utf-8"
    )


def logged(root: Path, chapter: int) -> int | None:
    """The published line the last commit of `chapter` was logged as crossing."""
    with webnovel.open_project(root) as opened:
        entry = next(e for e in opened.commit_log(limit=20) if e.chapter == chapter)
        stored = opened.stored_commit(chapter)
        assert stored is not None and stored["text"].endswith(TYPO_FIXED)
        assert opened.fact("suwanqing", "status").value == "死亡"  # memory unchanged
        return entry.published_through


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_sync_of_a_published_text_alone_is_said_and_logged(book: Path, force: tuple[str]) -> None:
    fix_typo(book, 4)
    ran = cli(book, "sync", *force, "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert SAID in ran.stdout, ran.stdout
    assert logged(book, 4) == 4
    fix_typo(book, 4)  # unchanged now: nothing said
    assert "published_revised" not in answer(book, "sync", *force)


def test_sync_json_names_the_published_chapters(book: Path) -> None:
    (book / "寒江.txt").write_text(
        novel(SIX | {4: SIX[4] + TYPO_FIXED, 6: SIX[6] + TYPO_FIXED}), encoding="utf-8"
    )
    done = answer(book, "sync")
    assert done["synced"] == [4, 6]
    assert (done["published_revised"], done["published_through"]) == ([4], 4)
    with webnovel.open_project(book) as opened:
        lines = {e.chapter: e.published_through for e in opened.commit_log(limit=2)}
    assert lines == {4: 4, 6: None}


def test_import_of_a_published_text_alone_is_said_and_logged(book: Path) -> None:
    fix_typo(book, 4)
    ran = cli(book, "import", "text", str(book / "寒江.txt"), "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "正文有改动：第4章" in ran.stdout and SAID in ran.stdout, ran.stdout
    assert logged(book, 4) == 4
    again = answer(book, "import", "text", str(book / "寒江.txt"))
    assert "published_revised" not in again and again["unchanged"] == 6


def test_import_json_names_the_published_chapters(book: Path) -> None:
    fix_typo(book, 4)
    done = answer(book, "import", "text", str(book / "寒江.txt"))
    assert (done["published_revised"], done["published_through"]) == ([4], 4)


def test_commit_of_a_published_text_alone_is_logged(book: Path) -> None:
    """`commit --text` of the same result with a new text: not refused, logged all the same."""
    result = answer(book, "result", "4")
    (book / "result.json").write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    (book / "0004.md").write_text(SIX[4] + TYPO_FIXED, encoding="utf-8")
    answer(book, "commit", str(book / "result.json"), "--text", str(book / "0004.md"))
    assert logged(book, 4) == 4
