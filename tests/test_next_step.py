"""An error's next step follows the surface showing it: a name that means two entities tells
the terminal the command that merges or renames, an agent over MCP the tool that tells the two
apart (and that merging is the author's), the dashboard its character page; the error's details
hold the step as data either way."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import DamagedBook, Surface, UnknownConflict
from webnovel.messages import MESSAGES

from cli_runner import run_cli

TWO_OF_ONE_NAME = (
    {
        "chapter": 1,
        "entities_new": [
            {"id": "linyan", "name": "林砚", "type": "角色", "current": {"realm": "炼气"}}
        ],
    },
    {"chapter": 2, "entities_new": [{"id": "lin_yan", "name": "林砚", "type": "角色"}]},
)
STEP = {"action": "merge_or_rename", "arguments": {"newer": "lin_yan", "older": "linyan"}}
DETAILS = {"reference": "林砚", "candidates": ["lin_yan", "linyan"], "next_step": STEP}
MERGE = "webnovel candidates merge lin_yan --into linyan"


@pytest.fixture
def book(tmp_path: Path) -> Iterator[webnovel.Project]:
    """A book where 林砚 names two entities: chapter 2 introduced the name again."""
    with webnovel.init_project(tmp_path / "b", title="t") as made:
        for result in TWO_OF_ONE_NAME:
            made.commit(result)
        yield made


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_agent_over_mcp_is_told_tools_not_commands(
    book: webnovel.Project, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp")
    from mcp import Client

    from webnovel.mcp import create_server

    monkeypatch.setenv("WEBNOVEL_LANG", lang)

    async def ask() -> Any:
        async with Client(create_server(book).lowlevel()) as client:
            return await client.call_tool("get_fact", {"subject": "林砚", "field": "境界"})

    answer = asyncio.run(ask())
    error = json.loads(answer.content[0].text)
    assert answer.is_error and error["code"] == "ambiguous_entity"
    said = error["message"]
    assert "webnovel " not in said  # no command an agent cannot run
    if lang == "zh":
        assert said.startswith("「林砚」指代不明：可能是 lin_yan、linyan；请改用 id。")
        assert "调用 get_history，subject 分别填 lin_yan 和 linyan" in said
        assert "请把这两个 id 告诉作者" in said
    else:
        assert "call get_history with subject lin_yan, then linyan" in said
        assert "tell the author these two ids" in said
    assert error["details"] == DETAILS


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_terminal_is_told_the_command(
    book: webnovel.Project, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", lang)
    asked = run_cli("--project", str(book.root), "fact", "林砚", "境界", "--format", "text")
    assert asked.returncode == 1
    assert MERGE in asked.stderr
    assert "get_history" not in asked.stderr
    rename = (
        "webnovel rename lin_yan 新名字" if lang == "zh" else "webnovel rename lin_yan NEW-NAME"
    )
    assert rename in asked.stderr


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_dashboard_is_told_its_page(
    book: webnovel.Project, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("starlette")
    from dashboard_server import running_dashboard

    monkeypatch.setenv("WEBNOVEL_LANG", lang)
    subject = urllib.parse.quote("林砚")
    with running_dashboard(book.root) as running:
        answer = running.get(f"/api/query/fact?subject={subject}&field=realm")
    error = json.loads(answer.body)
    assert answer.status == 400 and error["code"] == "ambiguous_entity"
    page = (
        "在 lin_yan 的人物页用「改名」"
        if lang == "zh"
        else "「Rename」 on lin_yan's character page"
    )
    assert page in error["error"] and "get_history" not in error["error"]
    assert error["details"] == DETAILS


def test_each_surface_says_an_unknown_conflict_and_a_damaged_book_its_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    unknown = UnknownConflict("c-nope")
    assert str(unknown) == "未知冲突「c-nope」：用 `webnovel conflicts --all` 查看全部"
    assert unknown.said(Surface.MCP).endswith(
        "调用 list_conflicts，include_settled 填 true，查看全部"
    )
    assert unknown.said(Surface.PAGE).endswith("冲突页列出全部，已处理的在页末")
    assert unknown.details == {
        "id": "c-nope",
        "next_step": {"action": "list_conflicts", "arguments": {}},
    }
    damaged = DamagedBook("b/.webnovel/index.db", "缺表 commits", recoverable=True)
    assert "运行 webnovel rebuild" in str(damaged)
    assert "webnovel rebuild" not in damaged.said(Surface.MCP) and "告诉作者" in damaged.said(
        Surface.MCP
    )
    assert "之后看板照常可用" in damaged.said(Surface.PAGE)
    assert damaged.details["next_step"] == {"action": "rebuild", "arguments": {}}
    lost = DamagedBook("b/.webnovel/index.db", "缺表 commits", recoverable=False)
    assert "next_step" not in lost.details and "告诉作者" not in lost.said(Surface.MCP)


def test_every_step_is_said_on_every_surface_and_mcp_names_only_its_tools(
    book: webnovel.Project,
) -> None:
    """A step said on one surface is said on all three; what MCP says names no terminal
    command, and every tool it names is one the server lists."""
    pytest.importorskip("mcp")
    from webnovel.mcp import create_server

    tools = set(create_server(book).tools)
    steps = {
        key.removeprefix("next_").rsplit("_", 1)[0] for key in MESSAGES if key.startswith("next_")
    }
    assert steps >= {"merge_or_rename", "list_conflicts", "rebuild"}
    for step in steps:
        for surface in Surface:
            assert f"next_{step}_{surface}" in MESSAGES, (step, surface)
        for words in MESSAGES[f"next_{step}_mcp"]:
            assert "webnovel " not in words, step
            named = re.findall(r"(?:调用|call) ([a-z_]+)", words)
            assert set(named) <= tools, (step, named)


def test_a_connection_lost_mid_commit_says_where_to_see_whether_it_landed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The store's error for a dropped connection, made from the driver's own error: the
    terminal is told `webnovel resume`, an agent the `resume` tool, the dashboard its header."""
    psycopg = pytest.importorskip("psycopg")
    from webnovel.memory.store.pg.pg_unreachable import store_error

    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    dropped = store_error(psycopg.OperationalError("server closed the connection unexpectedly"))
    assert dropped is not None and dropped.code == "store_unavailable"
    assert "可用 webnovel resume 查看它是否已提交" in str(dropped)
    assert "书库恢复后调用 resume 查看它是否已提交" in dropped.said(Surface.MCP)
    assert "页首的「共 N 章」" in dropped.said(Surface.PAGE)
    assert dropped.details == {
        "said": "server closed the connection unexpectedly",
        "next_step": {"action": "see_resume", "arguments": {}},
    }
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert "call resume once the store is back" in dropped.said(Surface.MCP)
