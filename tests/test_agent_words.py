"""What an agent over MCP is told of a result it got wrong: a string past its limit names its
path, an unknown id gets the 「是否指…」 suggestion `get_fact` gives (in `details` too), and a
refused commit names the tool's argument, not the terminal's flag. Over the SDK's real client;
the CLI keeps its own words."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import webnovel

from cli_runner import run_cli

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)

FIRST = {
    "chapter": 1,
    "title": "入门",
    "entities_new": [{"id": "shenqing", "name": "沈青", "type": "角色"}],
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t") as book:
        book.commit(FIRST, text="沈青入门。")
    return root


def test_an_agent_is_told_in_tool_words(root: Path) -> None:
    from test_mcp import run_session, structured, tool_error

    huge = {"chapter": 2, "title": "长" * 50_000, "summary": "长" * 300_000}
    typo = {"chapter": 2, "summary": "下山", "entities_appeared": [{"id": "shenqin"}]}
    again = dict(FIRST, summary="沈青入门（改）")

    async def body(client: Any) -> dict[str, Any]:
        call = client.call_tool
        return {
            "huge": tool_error(await call("commit_chapter", {"result": huge})),
            "typo": tool_error(await call("commit_chapter", {"result": typo})),
            "again": structured(await call("commit_chapter", {"result": again})),
        }

    out = run_session(root, body)
    huge_error = out["huge"]
    assert huge_error["code"] == "invalid_chapter_result"
    problems = huge_error["details"]["problems"]
    assert any(p.startswith("$.title: 过长：50,000 个字符，上限 2,000") for p in problems), problems
    assert any(p.startswith("$.summary: 过长：300,000 个字符，上限 20,000") for p in problems)
    typo_error = out["typo"]
    assert typo_error["code"] == "review_blocked"
    [unknown] = typo_error["details"]["blocking"]
    assert unknown["category"] == "unknown_entity" and unknown["suggestions"] == ["shenqing"]
    assert "是否指「shenqing」" in typo_error["message"]
    assert "force=true" in typo_error["message"] and "--force" not in typo_error["message"]
    assert typo_error["details"]["next_step"]["action"] == "force_commit"
    assert any("MCP 的 text 参数" in w for w in out["again"]["warnings"])
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() == 1


def test_the_cli_keeps_its_flag(root: Path, tmp_path: Path) -> None:
    path = tmp_path / "ch2.json"
    typo = {"chapter": 2, "summary": "下山", "entities_appeared": [{"id": "shenqin"}]}
    path.write_text(json.dumps(typo), encoding="utf-8")
    ran = run_cli("--project", str(root), "commit", str(path), "--check")
    assert ran.returncode == 1
    assert "--force" in ran.stderr and "force=true" not in ran.stderr
    assert "是否指「shenqing」" in ran.stderr


def test_the_agents_guide_lists_every_tool_with_its_arguments(tmp_path: Path) -> None:
    """docs/agents.md's tool table is what tools/list serves: each tool, each argument."""
    import re

    from webnovel.mcp import create_server

    guide = (Path(__file__).parents[1] / "docs" / "agents.md").read_text(encoding="utf-8")
    table = {}
    for line in guide.splitlines():
        row = re.match(r"\| `(\w+)`[^|]*\| (.*) \|$", line)
        if row:
            table[row[1]] = set(re.findall(r"`(\w+)`", row[2]))
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        served = {t.name: {a.name for a in t.args} for t in create_server(book).tools.values()}
    assert {name: table.get(name) for name in served} == served
