"""What an agent pays for before its first call: the tool list (`tools/list`) and the server's
instructions (`initialize`), as the SDK's real client receives them from the server
`webnovel mcp` runs, in process.

Every session pays for the tool list. It was 31,657 bytes (31,551 in English) while the
chapter-result JSON Schema was in it three times (commit_chapter, review_draft,
impact_of_revision) and every optional argument said `anyOf … null` and `"default": null`;
commit_chapter alone holds the schema now, and the list may not grow back past 60% of that."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)

LIST_BYTES_BEFORE = {"zh": 31_657, "en": 31_551}  # the list as it was, in UTF-8 on the wire
MOST = 0.6  # of that, at most


def session(root: Path, body: Callable[[Any], Awaitable[Any]]) -> Any:
    """`body` with the SDK's client connected to a server made now over the book at `root` (in
    the language WEBNOVEL_LANG asks for at this moment)."""
    from mcp import Client

    from webnovel.mcp import create_server

    async def main() -> Any:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                return await body(client)

    return asyncio.run(main())


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tool-list") / "book"
    with webnovel.init_project(root, title="青灯照剑") as opened:
        for chapter in list(sample_chapters())[:3]:
            opened.commit(chapter.result, text=chapter.text)
    return root


def listed(root: Path) -> tuple[str, dict[str, Any], str | None]:
    """The tool list as the wire carries it, its tools by name, and the server's instructions."""

    async def body(client: Any) -> tuple[str, dict[str, Any], str | None]:
        tools = await client.list_tools()
        wire = tools.model_dump_json(by_alias=True, exclude_unset=True)
        return wire, {t.name: t.input_schema for t in tools.tools}, client.instructions

    answer: tuple[str, dict[str, Any], str | None] = session(root, body)
    return answer


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_tool_list_is_small_and_holds_the_schema_once(
    book: Path, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", language)
    wire, schemas, _ = listed(book)
    size = len(wire.encode("utf-8"))
    print(f"\ntools/list ({language}): {size:,} bytes, {len(wire):,} characters")
    assert size <= MOST * LIST_BYTES_BEFORE[language], size
    assert wire.count('"Chapter result"') == 1  # the schema's title: one copy, commit_chapter's
    assert schemas["commit_chapter"]["properties"]["result"]["title"] == "Chapter result"
    for tool in ("review_draft", "impact_of_revision"):
        result = schemas[tool]["properties"]["result"]
        assert set(result) == {"type", "description"} and result["type"] == "object", tool
        assert "commit_chapter" in result["description"]  # where its shape is
    # an argument that may be left out is left out of `required`, and says nothing more
    for tool, schema in schemas.items():
        for name, argument in schema["properties"].items():
            assert "anyOf" not in argument and argument.get("default", 0) is not None, (tool, name)
    as_of = schemas["get_fact"]["properties"]["as_of"]
    assert set(as_of) == {"type", "description"} and as_of["type"] == "integer"
    assert schemas["search_memory"]["properties"]["top_k"]["default"] == 10  # a real default
    assert schemas["commit_chapter"]["properties"]["text"]["maxLength"] == 2_000_000


def test_a_result_given_to_review_or_impact_is_checked_against_the_full_schema(
    book: Path,
) -> None:
    """review_draft and impact_of_revision advertise only "an object shaped as commit_chapter's
    result"; the server checks what they are given against the full schema all the same, and
    its error names each bad path."""
    good = next(iter(sample_chapters())).result
    bad = {"chapter": 2, "state_changes": [{"entity_id": "林砚", "new": "筑基"}]}

    async def body(client: Any) -> dict[str, Any]:
        schemas = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        out: dict[str, Any] = {"schemas": schemas}
        for tool in ("review_draft", "impact_of_revision"):
            out[tool] = await client.call_tool(tool, {"result": good})
            out[f"{tool} bad"] = await client.call_tool(tool, {"result": bad})
        out["null as_of"] = await client.call_tool(
            "get_fact", {"subject": "林砚", "field": "realm", "as_of": None}
        )
        return out

    out = session(book, body)
    for tool in ("review_draft", "impact_of_revision"):
        assert "properties" not in out["schemas"][tool]["properties"]["result"], tool
        assert not out[tool].is_error, (tool, out[tool].content)
        error = out[f"{tool} bad"]
        assert error.is_error, tool
        refused = json.loads(error.content[0].text)
        assert refused["code"] == "invalid_chapter_result", (tool, refused)
        assert "$.state_changes[0]" in refused["message"] and "field" in refused["message"]
        assert any("$.state_changes[0]" in p for p in refused["details"]["problems"])
    # a null given for an argument left out of `required` is still taken as left out
    assert not out["null as_of"].is_error, out["null as_of"].content
    assert json.loads(out["null as_of"].content[0].text)["entity_id"] == "linyan"


def test_the_server_s_instructions_speak_the_server_s_language(
    book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The instructions an agent gets in the `initialize` answer are the catalogue's: Chinese by
    default, English under WEBNOVEL_LANG=en, said when the server starts."""
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    _, _, chinese = listed(book)
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    _, _, english = listed(book)
    assert chinese is not None and chinese.startswith("一部连载小说的长期记忆")
    assert "build_memory_pack" in chinese and "commit_chapter" in chinese
    assert english is not None and english.startswith("Long-term memory for one serialized novel")
    assert "一" not in english


def test_impact_of_revision_takes_a_whole_chapter_s_revised_text(book: Path) -> None:
    """A revised chapter's text is as long as a chapter (its schema's `maxLength` is
    commit_chapter's `text`'s), not the 2,000 characters of a name or a question."""
    chapter = next(iter(sample_chapters()))
    revised = chapter.text + "\n" + "林砚在灯下又坐了一夜。" * 400  # a chapter's length, 4,000+

    async def body(client: Any) -> tuple[dict[str, Any], Any]:
        schemas = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        answer = await client.call_tool(
            "impact_of_revision", {"result": chapter.result, "text": revised}
        )
        return schemas, answer

    schemas, answer = session(book, body)
    text_schema = schemas["impact_of_revision"]["properties"]["text"]
    assert text_schema["maxLength"] == schemas["commit_chapter"]["properties"]["text"]["maxLength"]
    assert len(revised) > 4_000
    assert not answer.is_error, answer.content[0].text


def test_an_agent_s_mistakes_are_said_in_the_agent_s_words(book: Path) -> None:
    """What an agent is told names the tool's own arguments, never the command line's flags,
    and a refused checked commit lists its blocking issues as review gives them."""
    unknown = {
        "chapter": 4,
        "state_changes": [{"entity_id": "无名氏", "field": "realm", "new": "筑基"}],
    }

    async def body(client: Any) -> dict[str, Any]:
        return {
            "no chapter": await client.call_tool("commit_chapter", {"result": {}}),
            "no result": await client.call_tool("impact_of_revision", {}),
            "blocked": await client.call_tool("commit_chapter", {"result": unknown}),
        }

    out = session(book, body)
    no_chapter = json.loads(out["no chapter"].content[0].text)
    assert no_chapter["code"] == "invalid_chapter_result"
    assert "命令行" in no_chapter["message"], no_chapter  # the flag is named as the CLI's only
    no_result = json.loads(out["no result"].content[0].text)
    assert no_result["code"] == "invalid_argument" and "--" not in no_result["message"], no_result
    assert "retract=true" in no_result["message"]
    blocked = json.loads(out["blocked"].content[0].text)
    assert blocked["code"] == "review_blocked", blocked
    [issue] = [i for i in blocked["details"]["blocking"] if i["category"] == "unknown_entity"]
    assert issue["found"] == "无名氏" and issue["blocking"] and issue["fix_hint"], issue
    assert len(blocked["details"]["issues"]) == len(blocked["details"]["blocking"])
