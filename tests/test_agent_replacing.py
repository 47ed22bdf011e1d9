"""An agent cannot lose a chapter by mistake: a result committed under the number of an earlier
chapter, which would replace that chapter's result and change what the book answers, is refused
under `check` (MCP `commit_chapter`'s default, CLI `commit --check`) with the changed answers in
`details`, unless forced; without `check` it is committed and the report says how many answers
it changed. Over the SDK's real client and through the CLI."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import ReplacementChangesAnswers, UnknownVersion
from webnovel.ingest.sample_book import sample_chapters

from cli_runner import run_cli

# chapter 15's events committed as chapter 9 by mistake: chapter 9 made 韩啸 a 血衣堂护法
MISNUMBERED = {
    "chapter": 9,
    "title": "下山",
    "summary": "（误把第15章内容当成第9章）",
    "entities_appeared": [{"id": "linyan"}],
}


@pytest.fixture(scope="module")
def committed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("replacing") / "base"
    with webnovel.init_project(root, title="青灯照剑") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
    return root


@pytest.fixture
def root(committed: Path, tmp_path: Path) -> Path:
    copied = tmp_path / "book"
    shutil.copytree(committed, copied)
    return copied


def faction(root: Path) -> Any:
    with webnovel.open_project(root) as book:
        return book.fact("hanxiao", "faction").value


@pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="needs the [mcp] extra")
def test_a_checked_replacement_that_changes_answers_is_refused_over_mcp(root: Path) -> None:
    from test_mcp import run_session, structured, tool_error

    async def body(client: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["refused"] = tool_error(
            await client.call_tool("commit_chapter", {"result": MISNUMBERED})
        )
        out["kept"] = structured(
            await client.call_tool("get_fact", {"subject": "韩啸", "field": "faction"})
        )
        out["forced"] = structured(
            await client.call_tool("commit_chapter", {"result": MISNUMBERED, "force": True})
        )
        out["replaced"] = structured(
            await client.call_tool("get_fact", {"subject": "韩啸", "field": "faction"})
        )
        out["restored"] = structured(await client.call_tool("restore_chapter", {"chapter": 9}))
        out["back"] = structured(
            await client.call_tool("get_fact", {"subject": "韩啸", "field": "faction"})
        )
        out["no_such"] = tool_error(
            await client.call_tool("restore_chapter", {"chapter": 9, "commit_id": "zz"})
        )
        return out

    out = run_session(root, body)
    refused = out["refused"]
    assert refused["code"] == "replacement_changes_answers"
    details = refused["details"]
    assert details["chapter"] == 9 and details["latest"] == 12
    assert details["answers_changed"] >= 2
    changed = {(c["entity_id"], c["field"]): c for c in details["changed"]}
    assert changed[("hanxiao", "faction")]["before"] == "血衣堂"
    assert details["next_step"]["action"] == "force_replacement"
    # said to an agent in its own words: the tool's argument, not the terminal's flag
    assert "force=true" in refused["message"] and "--force" not in refused["message"]
    assert "韩啸" in refused["message"]
    assert out["kept"]["value"] == "血衣堂"  # nothing was written
    forced = out["forced"]
    assert forced["status"] == "committed"
    assert forced["answers_changed"] == details["answers_changed"]
    assert any("改变了" in w and "restore_chapter" in w for w in forced["warnings"])
    assert out["replaced"]["value"] == "玄霄门"
    # the way back: the version the replacement took the place of, from the log
    restored = out["restored"]
    assert restored["status"] == "committed" and restored["answers_changed"] >= 2
    assert out["back"]["value"] == "血衣堂"
    assert out["no_such"]["code"] == "unknown_version"
    with webnovel.open_project(root) as book:
        text = book.chapter(9).to_dict()
    assert text["summary"] != MISNUMBERED["summary"]


def test_the_cli_refuses_under_check_and_commits_otherwise_saying_the_count(
    root: Path, tmp_path: Path
) -> None:
    path = tmp_path / "ch9.json"
    path.write_text(json.dumps(MISNUMBERED, ensure_ascii=False), encoding="utf-8")
    refused = run_cli("--project", str(root), "commit", str(path), "--check")
    assert refused.returncode == 1
    assert "本次未替换" in refused.stderr and "--force" in refused.stderr
    assert faction(root) == "血衣堂"
    ran = run_cli("--project", str(root), "commit", str(path))
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert report["status"] == "committed" and report["answers_changed"] >= 2
    assert faction(root) == "玄霄门"
    back = run_cli("--project", str(root), "restore", "9", "--commit", report["commit_id"][:10])
    assert back.returncode == 1 and "没有 commit id 以" in back.stderr  # it stands on that one
    back = run_cli("--project", str(root), "restore", "9")
    assert back.returncode == 0, back.stderr
    assert json.loads(back.stdout)["status"] == "committed"
    assert faction(root) == "血衣堂"


def test_a_new_chapter_the_latest_or_the_same_result_is_not_weighed(root: Path) -> None:
    """Only a replacement of an earlier chapter that changes answers is refused: the latest
    chapter revised, and an earlier one committed again as it was, pass the check."""
    results = {c.result["chapter"]: c.result for c in sample_chapters()}
    with webnovel.open_project(root) as book:
        same = book.commit(results[9], check=True, weigh=True)
        assert same.status == "unchanged" and same.answers_changed is None
        latest = dict(results[12], summary="改写了结尾")
        revised = book.commit(latest, check=True, weigh=True)
        assert revised.status == "committed" and revised.answers_changed is None


def test_the_way_back_on_each_backend(book: webnovel.Project) -> None:
    """A forced replacement, refused first, and `restore` bringing the version it replaced
    back, with its text: the log read and the refusal the same on SQLite and PostgreSQL."""
    results = [c.result for c in sample_chapters()][:10]
    texts = [c.text for c in sample_chapters()][:10]
    for result, text in zip(results, texts, strict=True):
        book.commit(result, text=text)
    with pytest.raises(ReplacementChangesAnswers) as refused:
        book.commit(MISNUMBERED, check=True)
    assert refused.value.details["answers_changed"] >= 2
    replaced = book.commit(MISNUMBERED, check=True, force=True)
    assert replaced.answers_changed == refused.value.details["answers_changed"]
    assert book.fact("hanxiao", "faction").value == "玄霄门"
    with pytest.raises(UnknownVersion):
        book.restore(9, commit_id=replaced.commit_id)  # the version it stands on now
    back = book.restore(9)
    assert back.status == "committed" and book.fact("hanxiao", "faction").value == "血衣堂"
    stored = book.stored_commit(9)
    assert stored is not None and stored["text"] == texts[8]


@pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="needs the [mcp] extra")
def test_a_published_chapter_s_refusal_names_the_surface_s_way_to_force(
    root: Path, tmp_path: Path
) -> None:
    from test_mcp import run_session, tool_error

    with webnovel.open_project(root) as book:
        book.publish(10)

    async def body(client: Any) -> dict[str, Any]:
        return tool_error(await client.call_tool("commit_chapter", {"result": MISNUMBERED}))

    refused = run_session(root, body)
    assert refused["code"] == "published_chapter_revised"
    assert "force=true" in refused["message"] and "--force" not in refused["message"]
    assert refused["details"]["next_step"]["action"] == "force_published"
    assert refused["details"]["chapter"] == 9 and refused["details"]["line"] == 10
    path = tmp_path / "ch9.json"
    path.write_text(json.dumps(MISNUMBERED, ensure_ascii=False), encoding="utf-8")
    ran = run_cli("--project", str(root), "commit", str(path))
    assert ran.returncode == 1 and "第9章已发布" in ran.stderr
    assert "--force" in ran.stderr and "force=true" not in ran.stderr
