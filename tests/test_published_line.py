"""The published line: `publish --through N` is kept in the book and shown by resume, stats and
the dashboard; a revision or retraction of a chapter readers have is refused, naming what it
would change and the published chapters it contradicts, unless forced, and a forced one is
logged as a revision of a published chapter. From the CLI and over MCP (the SDK's client)."""

from __future__ import annotations

import copy
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import webnovel

from cli_runner import run_cli
from saga import Saga, generate_saga

CHAPTERS = 40
LINE = 30


@pytest.fixture(scope="module")
def saga() -> Saga:
    return generate_saga(CHAPTERS, seed=11)


@pytest.fixture(scope="module")
def committed(tmp_path_factory: pytest.TempPathFactory, saga: Saga) -> Path:
    root = tmp_path_factory.mktemp("published") / "base"
    with webnovel.init_project(root, title="saga") as book:
        for result in saga.results:
            book.commit(result)
    return root


@pytest.fixture
def root(committed: Path, tmp_path: Path) -> Path:
    copied = tmp_path / "book"
    shutil.copytree(committed, copied)
    return copied


def killing(saga: Saga, chapter: int) -> dict[str, Any]:
    """Chapter `chapter` revised: someone who acts in many later chapters dies in it."""
    seen: dict[str, int] = {}
    for result in saga.results[chapter:]:
        for appeared in result.get("entities_appeared", []):
            seen[appeared["id"]] = seen.get(appeared["id"], 0) + 1
    victim = max(
        (e for e in seen if saga.truth.fact(e, "status", chapter) == "存活"), key=lambda e: seen[e]
    )
    revision = copy.deepcopy(saga.results[chapter - 1])
    revision["state_changes"].append({"entity_id": victim, "field": "status", "new": "死亡"})
    return revision


def cli(root: Path, *args: str) -> Any:
    return run_cli("--project", str(root), *args)


def test_publish_is_kept_and_shown(root: Path) -> None:
    ran = cli(root, "publish", "--through", str(LINE))
    assert ran.returncode == 0 and json.loads(ran.stdout) == {"published_through": LINE}
    assert json.loads(cli(root, "stats").stdout)["published_through"] == LINE
    assert json.loads(cli(root, "resume").stdout)["published_through"] == LINE
    assert "发布线：读者已读到第30章" in cli(root, "resume", "--format", "text").stdout
    beyond = cli(root, "publish", "--through", str(CHAPTERS + 1))
    assert beyond.returncode == 2 and "超过了已提交的最新一章" in beyond.stderr
    cleared = cli(root, "publish", "--through", "0")
    assert cleared.returncode == 0 and json.loads(cleared.stdout) == {"published_through": None}
    assert json.loads(cli(root, "stats").stdout)["published_through"] is None


def test_revising_a_published_chapter_is_refused_then_forced(
    root: Path, saga: Saga, tmp_path: Path
) -> None:
    cli(root, "publish", "--through", str(LINE))
    revision = tmp_path / "ch20.json"
    revision.write_text(json.dumps(killing(saga, 20), ensure_ascii=False), encoding="utf-8")
    with webnovel.open_project(root) as book:
        seq = book.commit_seq()
        expected = book.impact(killing(saga, 20))
    contradicted = [c for c in expected.published if c != 20]
    assert contradicted, "the victim acts in published chapters after 20"

    text = cli(root, "impact", str(revision), "--format", "text").stdout
    assert "—— 发布线：读者已读到第30章 ——" in text
    assert f"第{contradicted[0]}章【已发布】" in text

    refused = cli(root, "commit", str(revision))
    assert refused.returncode == 1
    assert "第20章已发布" in refused.stderr and "--force" in refused.stderr
    assert f"第{'、'.join(map(str, contradicted))}章" in refused.stderr
    with webnovel.open_project(root) as book:
        assert book.commit_seq() == seq  # nothing written

    forced = cli(root, "commit", str(revision), "--force")
    assert forced.returncode == 0 and json.loads(forced.stdout)["status"] == "committed"
    with webnovel.open_project(root) as book:
        entry = book.commit_log(limit=1)[0]
    assert (entry.chapter, entry.published_through) == (20, LINE)
    assert entry.to_dict()["published_revision"] is True


def test_retracting_a_published_chapter_is_refused_then_forced(root: Path) -> None:
    cli(root, "publish", "--through", str(LINE))
    refused = cli(root, "retract", "25", "--yes")
    assert (
        refused.returncode == 1 and "第25章已发布" in refused.stderr and "未撤回" in refused.stderr
    )
    forced = cli(root, "retract", "25", "--yes", "--force")
    assert forced.returncode == 0 and json.loads(forced.stdout)["status"] == "retracted"
    with webnovel.open_project(root) as book:
        entry = book.commit_log(limit=1)[0]
    assert (entry.kind, entry.published_through) == ("retraction", LINE)


def test_chapters_past_the_line_revise_freely(root: Path, saga: Saga, tmp_path: Path) -> None:
    cli(root, "publish", "--through", str(LINE))
    revision = tmp_path / "ch35.json"
    revision.write_text(json.dumps(killing(saga, 35), ensure_ascii=False), encoding="utf-8")
    ran = cli(root, "commit", str(revision))
    assert ran.returncode == 0
    with webnovel.open_project(root) as book:
        assert book.commit_log(limit=1)[0].published_through is None
    same = cli(root, "commit", str(revision))  # the same result again: nothing to refuse
    assert same.returncode == 0 and json.loads(same.stdout)["status"] == "unchanged"


@pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="needs the [mcp] extra")
def test_over_mcp(root: Path, saga: Saga) -> None:
    from test_mcp import run_session, structured

    with webnovel.open_project(root) as book:
        book.publish(LINE)
        expected = book.impact(killing(saga, 20)).to_dict()

    async def body(client: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["impact"] = structured(
            await client.call_tool("impact_of_revision", {"result": killing(saga, 20)})
        )
        out["refused"] = await client.call_tool("commit_chapter", {"result": killing(saga, 20)})
        out["retract_refused"] = await client.call_tool("retract_chapter", {"chapter": 25})
        out["forced"] = structured(
            await client.call_tool("commit_chapter", {"result": killing(saga, 20), "force": True})
        )
        out["resume"] = structured(await client.call_tool("resume", {}))
        return out

    out = run_session(root, body)
    assert out["impact"] == expected
    assert out["refused"].is_error and "第20章已发布" in out["refused"].content[0].text
    assert (
        out["retract_refused"].is_error and "第25章已发布" in out["retract_refused"].content[0].text
    )
    assert out["forced"]["status"] == "committed"
    assert out["resume"]["published_through"] == LINE


def test_review_of_a_new_chapter_marks_what_contradicts_published_chapters(
    root: Path, saga: Saga, tmp_path: Path
) -> None:
    """e14 dies in chapter 25, which readers have: a draft of chapter 41 where he acts is to
    be 圆 forward, and review says which published chapter it contradicts."""
    assert saga.truth.fact("e14", "status", 25) == "死亡"
    draft = {
        "chapter": CHAPTERS + 1,
        "summary": "死去的人又出现了",
        "entities_appeared": [{"id": "e14"}],
    }
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(draft, ensure_ascii=False), encoding="utf-8")
    before = json.loads(cli(root, "review", str(path)).stdout)
    dead = [i for i in before["issues"] if i["category"] == "dead_entity_active"]
    assert dead and dead[0]["contradicts_published"] == []  # no line yet: nothing published
    cli(root, "publish", "--through", str(LINE))
    after = json.loads(cli(root, "review", str(path)).stdout)
    dead = [i for i in after["issues"] if i["category"] == "dead_entity_active"]
    assert dead[0]["contradicts_published"] == [25]
    text = cli(root, "review", str(path), "--format", "text").stdout
    assert "与已发布的第25章矛盾" in text
