"""Chapters edited by hand: a book whose chapter files change after their commit says so
(`webnovel status`: edited, missing, uncommitted), and `webnovel sync` takes the edited texts in
again: the stored text and search follow the file, the result stays, and the chapter is marked
stale in the pack and on the dashboard until a new result is committed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters

from cli_runner import run_cli

FIRST = 5
NEW_WORDS = "青铜古镜忽然映出一张陌生的脸。"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The sample's first chapters, each committed from the CLI with `--text chapters/N.md`."""
    book = tmp_path / "book"
    with webnovel.init_project(book, title="青灯照剑", genre="仙侠"):
        pass
    folder = book / "chapters"
    folder.mkdir()
    for chapter in list(sample_chapters())[:FIRST]:
        result = tmp_path / f"{chapter.number:04d}.json"
        result.write_text(json.dumps(chapter.result, ensure_ascii=False), encoding="utf-8")
        text = folder / f"{chapter.number:04d}.md"
        text.write_text(chapter.text or "", encoding="utf-8")
        ran = cli(book, "commit", str(result), "--text", str(text))
        assert ran.returncode == 0, ran.stderr
    return book


def cli(root: Path, *args: str) -> Any:
    return run_cli("--project", str(root), *args)


def answer(root: Path, *args: str) -> Any:
    ran = cli(root, *args)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def test_status_sees_files_edited_gone_and_never_committed(root: Path) -> None:
    assert answer(root, "status") == {"edited": [], "missing": [], "uncommitted": [], "stale": []}
    assert "章节文件与记忆一致" in cli(root, "status", "--format", "text").stdout
    edited = root / "chapters" / "0002.md"
    edited.write_text(edited.read_text(encoding="utf-8") + NEW_WORDS, encoding="utf-8")
    (root / "chapters" / "0003.md").unlink()
    (root / "chapters" / "0006.md").write_text("第六章的草稿", encoding="utf-8")
    (root / "chapters" / "番外.md").write_text("番外", encoding="utf-8")
    found = answer(root, "status")
    assert [(e["chapter"], e["path"]) for e in found["edited"]] == [(2, "chapters/0002.md")]
    assert found["edited"][0]["committed_hash"] != found["edited"][0]["file_hash"]
    assert found["missing"] == [{"chapter": 3, "path": "chapters/0003.md"}]
    assert found["uncommitted"] == [
        {"path": "chapters/0006.md", "chapter": 6},
        {"path": "chapters/番外.md", "chapter": None},
    ]
    text = cli(root, "status", "--format", "text").stdout
    assert "第2章的正文文件提交后被改过" in text and "第3章的正文文件不见了" in text


def test_sync_takes_the_edited_text_in_and_marks_the_chapter_stale(root: Path) -> None:
    edited = root / "chapters" / "0002.md"
    edited.write_text(edited.read_text(encoding="utf-8") + NEW_WORDS, encoding="utf-8")
    with webnovel.open_project(root) as book:
        before = book.stored_commit(2)
        assert not [h for h in book.search("青铜古镜", top_k=5) if "青铜古镜" in h.text]
        book.publish(FIRST)  # a text edited by hand is no revision of the result: not refused
    done = answer(root, "sync")
    assert done == {
        "synced": [2],
        "missing": [],
        "stale": [2],
        "proposals": [],
        "published_revised": [2],  # but said (tests/test_published_text.py)
        "published_through": FIRST,
    }
    with webnovel.open_project(root) as book:
        after = book.stored_commit(2)
        assert after is not None and before is not None
        assert after["result"] == before["result"] and NEW_WORDS in after["text"]
        found = [h for h in book.search("青铜古镜", top_k=5) if "青铜古镜" in h.text]
        assert found and found[0].chapter == 2
        pack = book.build_memory_pack(chapter=FIRST + 1, record=False)
        assert pack.to_dict()["stale_chapters"] == [2]
        assert "第2章的正文在章节结果之后被手改过" in pack.render("prompt")
        from webnovel.dashboard.pages import overview

        page = overview(book, FIRST)
        assert page.stale == [2] and page.edited == []
    assert answer(root, "status")["edited"] == []
    assert answer(root, "sync") == {"synced": [], "missing": [], "stale": [2], "proposals": []}

    # a new result for the chapter (made from its new text) ends the mark
    revised = copy.deepcopy(before["result"])
    revised["summary"] = str(revised.get("summary") or "") + "镜中映出陌生的脸。"
    path = root / "revised.json"
    path.write_text(json.dumps(revised, ensure_ascii=False), encoding="utf-8")
    ran = cli(root, "commit", str(path), "--force")
    assert ran.returncode == 0, ran.stderr
    assert answer(root, "status")["stale"] == []


def test_the_overview_shows_edited_chapters(root: Path) -> None:
    edited = root / "chapters" / "0004.md"
    edited.write_text(NEW_WORDS, encoding="utf-8")
    from webnovel.dashboard.pages import overview

    with webnovel.open_project(root) as book:
        page = overview(book, FIRST)
    assert page.edited == [4] and page.stale == []


def test_impact_of_a_text_alone_shows_what_search_loses_and_gains(
    root: Path, tmp_path: Path
) -> None:
    with webnovel.open_project(root) as book:
        stored = book.stored_commit(2)
    assert stored is not None
    result = tmp_path / "0002.json"
    result.write_text(json.dumps(stored["result"], ensure_ascii=False), encoding="utf-8")
    text = tmp_path / "0002.md"
    text.write_text(stored["text"] + NEW_WORDS, encoding="utf-8")
    found = answer(root, "impact", str(result), "--text", str(text))
    assert found["status"] == "changed"
    assert (found["changed"], found["conflicts_added"], found["chapters"]) == ([], [], [])
    assert [p for p in found["passages_gained"] if NEW_WORDS in p["text"]]
    assert found["passages_lost"] and not [
        p for p in found["passages_lost"] if NEW_WORDS in p["text"]
    ]
    shown = cli(root, "impact", str(result), "--text", str(text), "--format", "text").stdout
    assert "检索与摘要：第2章失去" in shown and "青铜古镜" in shown
    same = answer(root, "impact", str(result), "--text", str(root / "chapters" / "0002.md"))
    assert same["status"] == "unchanged" and same["passages_gained"] == []


def test_sync_with_a_model_shows_the_impact_then_commits_with_yes(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real chat-completions server on 127.0.0.1 reads the edited chapter 2 anew: in its new
    reading 林砚 dies there. `sync --extract` shows what that would do and commits nothing more;
    `--yes` commits it (the model's answer is kept: no second request) and the mark is gone."""
    from chat_server import chat_server, gold_results

    answers = gold_results()
    answers[2] = copy.deepcopy(answers[2])
    answers[2].setdefault("state_changes", []).append(
        {"entity_id": "linyan", "field": "status", "new": "死亡", "reason": "走火入魔"}
    )
    edited = root / "chapters" / "0002.md"
    edited.write_text(edited.read_text(encoding="utf-8") + NEW_WORDS, encoding="utf-8")
    with chat_server(answers=answers) as server:
        monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", "sk-test-local")
        monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")
        shown = answer(root, "sync", "--extract")
        assert shown["synced"] == [2] and shown["stale"] == [2]
        [proposal] = shown["proposals"]
        assert proposal["chapter"] == 2 and proposal["committed"] is False
        impact = proposal["impact"]
        assert any(c["field"] == "status" and c["after"] == "死亡" for c in impact["changed"])
        dead = {
            c["chapter"] for c in impact["conflicts_added"] if c["kind"] == "dead_entity_active"
        }
        assert dead and dead <= set(range(3, FIRST + 1))
        with webnovel.open_project(root) as book:
            assert book.fact("linyan", "status").value == "存活"  # type: ignore[union-attr]
        asked = len(server.seen)
        assert server.seen[-1].chapter == 2 and NEW_WORDS in server.seen[-1].user_text

        committed = answer(root, "sync", "--extract", "--yes")
        assert committed["proposals"][0]["committed"] is True and committed["stale"] == []
        assert len(server.seen) == asked  # the answer was kept in the book
    with webnovel.open_project(root) as book:
        assert book.fact("linyan", "status").value == "死亡"  # type: ignore[union-attr]
        assert NEW_WORDS in (book.stored_commit(2) or {})["text"]
    assert answer(root, "status")["edited"] == []
