"""A chapter number past any book's (twenty digits: past what SQLite holds) given to any command or
MCP tool that takes one: a refusal from the catalogue, never a traceback. The commands and tools
are found from the parser and the server's tool list, so a new one that takes a chapter is
tested here too (or fails until it is listed)."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.cli.main import build_parser, main
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters

HUGE = 99999999999999999999  # 20 digits: SQLite's INTEGER stops at 2**63 (19)
H = str(HUGE)
RESULT = str(sample_book_dir() / "results" / "004.json")
CHECKED_IN_RESULT = "--chapter:"  # a chapter given beside a result is checked with it

# Each command-line argument that takes a chapter number: how to give it HUGE, and how the
# refusal names it (the facade's and MCP's name for it; a chapter result's check says --chapter).
CLI: dict[tuple[str, str], tuple[list[str], str]] = {
    ("commit", "--chapter"): (["commit", RESULT, "--chapter", H], f"{CHECKED_IN_RESULT} 应为"),
    ("retract", "chapter"): (["retract", H, "--yes"], "chapter 应为"),
    ("restore", "chapter"): (["restore", H], "chapter 应为"),
    ("entities", "--as-of"): (["entities", "--as-of", H], "as_of 应为"),
    ("fact", "--as-of"): (["fact", "林砚", "realm", "--as-of", H], "as_of 应为"),
    ("history", "--as-of"): (["history", "林砚", "realm", "--as-of", H], "as_of 应为"),
    ("relations", "--as-of"): (["relations", "林砚", "--as-of", H], "as_of 应为"),
    ("cooccurrence", "--as-of"): (["cooccurrence", "林砚", "--as-of", H], "as_of 应为"),
    ("threads", "--as-of"): (["threads", "--as-of", H], "as_of 应为"),
    ("rules", "--as-of"): (["rules", "--as-of", H], "as_of 应为"),
    ("knows", "--as-of"): (["knows", "林砚", "--as-of", H], "as_of 应为"),
    ("secrets", "--as-of"): (["secrets", "--as-of", H], "as_of 应为"),
    ("chapter", "chapter"): (["chapter", H], "chapter 应为"),
    ("timeline", "--from"): (["timeline", "--from", H], "start 应为"),
    ("timeline", "--to"): (["timeline", "--to", H], "end 应为"),
    ("timeline", "--as-of"): (["timeline", "--as-of", H], "as_of 应为"),
    ("clock", "--as-of"): (["clock", "--as-of", H], "as_of 应为"),
    ("search", "--as-of"): (["search", "白眉", "--as-of", H], "as_of 应为"),
    ("conflicts", "--as-of"): (["conflicts", "--as-of", H], "as_of 应为"),
    ("pack", "--chapter"): (["pack", "--chapter", H], "chapter 应为"),
    ("review", "--chapter"): (["review", RESULT, "--chapter", H], f"{CHECKED_IN_RESULT} 应为"),
    ("impact", "--chapter"): (["impact", RESULT, "--chapter", H], f"{CHECKED_IN_RESULT} 应为"),
    ("result", "chapter"): (["result", H], "chapter 应为"),
    ("publish", "--through"): (["publish", "--through", H], "发布线应为"),
    ("import", "--start"): (
        ["import", "text", "chapters", "--start", H, "--dry-run"],
        "start 应为",
    ),
    ("rename", "--from"): (["rename", "林砚", "林默", "--from", H], "from_chapter 应为"),
    ("prefill", "chapter"): (["prefill", H], "chapter 应为"),
    ("extract", "chapter"): (["extract", H], "chapter 应为"),
    ("extract", "--from"): (["extract", "--from", H], "start 应为"),
    ("extract", "--to"): (["extract", "--to", H], "end 应为"),
    ("wiki", "--as-of"): (["wiki", "wiki", "--as-of", H], "--as-of 应为"),
}
# integer arguments that count something other than chapters
COUNTS = {"--limit", "--top-k", "--budget", "--batch", "--min-count", "--concurrency"}

# Each MCP tool's arguments besides the chapter number, and its integers that are no chapter.
TOOL_ARGUMENTS: dict[str, dict[str, Any]] = {
    "review_draft": {"result": {"chapter": 4}},
    "impact_of_revision": {"result": {"chapter": 4}},
    "get_fact": {"subject": "林砚", "field": "realm"},
    "get_history": {"subject": "林砚"},
    "get_relations": {"subject": "林砚"},
    "knows": {"subject": "林砚"},
    "search_memory": {"text": "白眉"},
}
TOOL_COUNTS = {"top_k", "budget_tokens"}


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three sample chapters with their texts, and the sample's texts beside them."""
    root = tmp_path_factory.mktemp("huge") / "book"
    with webnovel.init_project(root, title="青灯照剑") as made:
        for chapter in list(sample_chapters())[:3]:
            made.commit(chapter.result, text=chapter.text)
    (root / "chapters").mkdir()
    for name in ("004.md", "005.md"):
        text = (sample_book_dir() / "chapters" / name).read_text(encoding="utf-8")
        (root / "chapters" / name).write_text(text, encoding="utf-8")
    return root


def chapter_arguments() -> set[tuple[str, str]]:
    """(command, argument) for every integer argument of every command that is no count."""
    found: set[tuple[str, str]] = set()

    def walk(parser: argparse.ArgumentParser, command: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, name)
            elif action.type is int:
                name = action.option_strings[0] if action.option_strings else action.dest
                if name not in COUNTS:
                    found.add((command, name))

    walk(build_parser(), "")
    return found


def test_every_command_taking_a_chapter_is_listed() -> None:
    assert chapter_arguments() == set(CLI)


@pytest.mark.parametrize("argument", sorted(CLI), ids=" ".join)
def test_a_huge_chapter_number_is_refused_by_every_command(
    book: Path,
    argument: tuple[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(book)
    argv, named = CLI[argument]
    code = main(["--project", str(book), *argv])
    said = capsys.readouterr().err
    assert code in (1, 2), said
    assert said.startswith("错误：") and f"：{named}" in said and H in said, said
    assert "Traceback" not in said


def int_arguments(schema: dict[str, Any]) -> list[str]:
    """A tool's integer arguments (given as such, or as one of a union) that are no count."""
    found = []
    for name, spec in schema["properties"].items():
        types = {spec.get("type"), *(one.get("type") for one in spec.get("anyOf", []))}
        if "integer" in types and name not in TOOL_COUNTS:
            found.append(name)
    return found


@pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="needs the [mcp] extra")
def test_a_huge_chapter_number_is_refused_by_every_mcp_tool(book: Path) -> None:
    from mcp import Client

    from webnovel.mcp import create_server

    async def ask_all() -> dict[tuple[str, str], Any]:
        answers: dict[tuple[str, str], Any] = {}
        with webnovel.open_project(book) as opened:
            async with Client(create_server(opened).lowlevel()) as client:
                for tool in (await client.list_tools()).tools:
                    for name in int_arguments(tool.input_schema):
                        given = {**TOOL_ARGUMENTS.get(tool.name, {}), name: HUGE}
                        required = tool.input_schema.get("required", [])
                        given.update({n: HUGE for n in required if n not in given})
                        answers[(tool.name, name)] = await client.call_tool(tool.name, given)
        return answers

    answers = asyncio.run(ask_all())
    assert ("retract_chapter", "chapter") in answers and ("get_timeline", "end") in answers
    for (tool, name), answer in answers.items():
        assert answer.is_error, (tool, name, answer.content)
        message = json.loads(answer.content[0].text)["message"]
        named = CHECKED_IN_RESULT if tool in ("review_draft", "impact_of_revision") else name
        said = "：" + message  # as the CLI shows it, after 错误：
        assert f"：{named} 应为" in said and H in said, (tool, name, message)


def test_extract_takes_a_chapter_or_a_range_and_names_the_one_given(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--project", str(book), "extract", "3", "--from", "2"]) == 2
    assert "请给出章节号 N 或 --from/--to，二者择一" in capsys.readouterr().err
    assert main(["--project", str(book), "extract", "0"]) == 2
    assert "chapter 应为不小于 1 的章节号，实际是 0" in capsys.readouterr().err
