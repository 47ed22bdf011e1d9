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
RESULT = str(sample_book_dir() / "results" / "004.json")

# Each command-line argument that takes a chapter number: how to give it HUGE.
CLI: dict[tuple[str, str], list[str]] = {
    ("commit", "--chapter"): ["commit", RESULT, "--chapter", str(HUGE)],
    ("retract", "chapter"): ["retract", str(HUGE), "--yes"],
    ("entities", "--as-of"): ["entities", "--as-of", str(HUGE)],
    ("fact", "--as-of"): ["fact", "林砚", "realm", "--as-of", str(HUGE)],
    ("history", "--as-of"): ["history", "林砚", "realm", "--as-of", str(HUGE)],
    ("relations", "--as-of"): ["relations", "林砚", "--as-of", str(HUGE)],
    ("cooccurrence", "--as-of"): ["cooccurrence", "林砚", "--as-of", str(HUGE)],
    ("threads", "--as-of"): ["threads", "--as-of", str(HUGE)],
    ("rules", "--as-of"): ["rules", "--as-of", str(HUGE)],
    ("knows", "--as-of"): ["knows", "林砚", "--as-of", str(HUGE)],
    ("secrets", "--as-of"): ["secrets", "--as-of", str(HUGE)],
    ("chapter", "chapter"): ["chapter", str(HUGE)],
    ("timeline", "--from"): ["timeline", "--from", str(HUGE)],
    ("timeline", "--to"): ["timeline", "--to", str(HUGE)],
    ("timeline", "--as-of"): ["timeline", "--as-of", str(HUGE)],
    ("clock", "--as-of"): ["clock", "--as-of", str(HUGE)],
    ("search", "--as-of"): ["search", "白眉", "--as-of", str(HUGE)],
    ("conflicts", "--as-of"): ["conflicts", "--as-of", str(HUGE)],
    ("pack", "--chapter"): ["pack", "--chapter", str(HUGE)],
    ("review", "--chapter"): ["review", RESULT, "--chapter", str(HUGE)],
    ("impact", "--chapter"): ["impact", RESULT, "--chapter", str(HUGE)],
    ("result", "chapter"): ["result", str(HUGE)],
    ("publish", "--through"): ["publish", "--through", str(HUGE)],
    ("import", "--start"): ["import", "text", "chapters", "--start", str(HUGE), "--dry-run"],
    ("rename", "--from"): ["rename", "林砚", "林默", "--from", str(HUGE)],
    ("prefill", "chapter"): ["prefill", str(HUGE)],
    ("extract", "chapter"): ["extract", str(HUGE)],
    ("extract", "--from"): ["extract", "--from", str(HUGE)],
    ("extract", "--to"): ["extract", "--to", str(HUGE)],
    ("wiki", "--as-of"): ["wiki", "wiki", "--as-of", str(HUGE)],
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
    code = main(["--project", str(book), *CLI[argument]])
    said = capsys.readouterr().err
    assert code in (1, 2), said
    assert said.startswith("错误：") and str(HUGE) in said, said
    assert "Traceback" not in said


def int_arguments(schema: dict[str, Any]) -> list[str]:
    return [
        name
        for name, spec in schema["properties"].items()
        if "integer" in json.dumps(spec) and name not in TOOL_COUNTS
    ]


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
        error = json.loads(answer.content[0].text)
        assert str(HUGE) in error["message"], (tool, name, error)
