"""The MCP server as an agent uses it, driven by the SDK's real client in process (the server
`webnovel mcp` runs, `create_server` over the opened book, without its stdio): test_mcp_stdio
talks to the real `webnovel mcp` process over its stdio."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.packs.tasks import TASKS
from webnovel.memory.schema import THREAD_FILTERS

# The SDK is imported where it is used: 2.5 s of CPU, paid only by the worker that runs these
# tests (conftest's SAME_WORKER), not by every worker as it collects.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)

TOOLS = {
    "commit_chapter",
    "review_draft",
    "build_memory_pack",
    "get_fact",
    "get_history",
    "get_relations",
    "list_threads",
    "list_rules",
    "get_timeline",
    "search_memory",
    "list_conflicts",
    "resume",
    "list_entities",  # additions to the contract's twelve
    "retract_chapter",
    "prefill_chapter",
    "knows",
    "list_secrets",
    "get_clock",
    "get_chapter",
    "extract_chapter",
    "impact_of_revision",
    "restore_chapter",
}


def run_session(root: Path, body: Callable[[Any], Awaitable[Any]]) -> Any:
    """`body` with the SDK's client connected to a server over the book at `root`, in process:
    the server `webnovel mcp` runs (its stdio is test_mcp_stdio's, a real process's): the SDK
    imported and the book opened once, not again by a Python started for it."""
    from mcp import Client

    from webnovel.mcp import create_server

    async def main() -> Any:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                return await body(client)

    return asyncio.run(main())


def structured(result: Any) -> Any:
    """A tool's JSON answer: its structured content (a list wrapped as {"result": …}), with the
    same JSON as the text of its one content block for hosts that read only text."""
    assert not result.is_error, result.content
    assert len(result.content) == 1
    data = json.loads(result.content[0].text)
    wrapped = data if isinstance(data, dict) else {"result": data}
    assert result.structured_content == wrapped
    return data


def tool_error(result: Any) -> dict[str, Any]:
    """A tool's error: marked so, and sent once, as `{"code", "message", "details"}`."""
    assert result.is_error and result.structured_content is None and len(result.content) == 1
    error = json.loads(result.content[0].text)
    assert set(error) == {"code", "message", "details"}, error
    return dict(error)


def test_tools_prompt_and_resources(read_answers: dict[str, Any]) -> None:
    tools, prompts, prompt, stats = read_answers["listed"]
    assert set(tools) == TOOLS
    result_schema = tools["commit_chapter"].input_schema["properties"]["result"]
    assert result_schema["title"] == "Chapter result"
    assert "state_changes" in result_schema["properties"]
    # the choices an agent sees are the engine's own vocabulary
    task = tools["build_memory_pack"].input_schema["properties"]["task"]
    assert task["enum"] == list(TASKS)
    status = tools["list_threads"].input_schema["properties"]["status"]
    assert status["enum"] == list(THREAD_FILTERS)
    assert prompts == ["extract_chapter_result"]
    text = prompt.messages[0].content.text
    assert "数据代理" in text and "第13章" in text and '"entities_new"' in text
    assert json.loads(stats.contents[0].text)["book"]["title"] == "青灯照剑"


DRAFT_13 = Path(__file__).parents[1] / "examples/sample-book/drafts/013-draft-with-mistakes.json"


@pytest.fixture(scope="module")
def write_loop(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One server over an empty book takes the sample chapters, answers, refuses the draft with
    mistakes, commits it forced and retracts it: one server for the writing tests."""
    root = tmp_path_factory.mktemp("mcp-writes") / "book"
    with webnovel.init_project(root, title="青灯照剑", genre="仙侠"):
        pass
    chapters = list(sample_chapters())
    draft = json.loads(DRAFT_13.read_text(encoding="utf-8"))

    async def body(client: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for chapter in chapters:
            report = structured(
                await client.call_tool(
                    "commit_chapter", {"result": chapter.result, "text": chapter.text}
                )
            )
            assert report["status"] == "committed"
        request = {
            "task": "chapter_write",
            "chapter": 13,
            "outline": "林砚与苏晚晴遭遇韩啸",
            "budget_tokens": 2000,
            "format": "prompt",
        }
        prompt = await client.call_tool("build_memory_pack", request)
        assert prompt.structured_content is None and len(prompt.content) == 1
        out["pack"] = prompt.content[0].text
        out["pack json"] = structured(
            await client.call_tool("build_memory_pack", {**request, "format": "json"})
        )
        timings = []
        for _ in range(5):  # warm: the first call also indexed the book for retrieval
            started = time.perf_counter()
            await client.call_tool("build_memory_pack", request)
            timings.append((time.perf_counter() - started) * 1000)
        out["pack_ms"] = sorted(timings)[2]
        out["fact"] = structured(
            await client.call_tool("get_fact", {"subject": "砚儿", "field": "realm", "as_of": 6})
        )
        out["threads"] = structured(await client.call_tool("list_threads", {"status": "overdue"}))
        out["search"] = structured(
            await client.call_tool("search_memory", {"text": "断刀", "top_k": 3, "as_of": 9})
        )
        out["review"] = structured(
            await client.call_tool(
                "review_draft",
                {
                    "result": {
                        "chapter": 13,
                        "entities_appeared": [{"id": "周伯"}],
                        "state_changes": [{"entity_id": "林砚", "field": "realm", "new": "炼气"}],
                    }
                },
            )
        )
        out["unknown"] = await client.call_tool("get_fact", {"subject": "萧炎", "field": "realm"})
        out["bad"] = await client.call_tool("commit_chapter", {"result": {"chapter": 0}})
        out["missing"] = await client.call_tool("get_fact", {"field": "realm"})
        out["everything"] = structured(await client.call_tool("get_fact", {"subject": "林砚"}))
        out["overflow"] = await client.call_tool(
            "get_fact", {"subject": "林砚", "field": "realm", "as_of": 2**70}
        )
        out["after"] = structured(await client.call_tool("resume", {}))
        out["cast"] = structured(await client.call_tool("list_entities", {"as_of": 3}))
        out["prefill"] = structured(await client.call_tool("prefill_chapter", {"chapter": 4}))
        out["knows"] = structured(await client.call_tool("knows", {"subject": "林砚", "as_of": 8}))
        out["secrets"] = structured(await client.call_tool("list_secrets", {"as_of": 9}))
        out["refused"] = await client.call_tool("commit_chapter", {"result": draft})
        out["after_refusal"] = structured(await client.call_tool("resume", {}))
        out["old_name"] = structured(await client.call_tool("review_draft", {"draft": draft}))
        out["forced"] = structured(
            await client.call_tool("commit_chapter", {"result": draft, "force": True})
        )
        out["retract"] = structured(await client.call_tool("retract_chapter", {"chapter": 13}))
        out["retracted"] = structured(await client.call_tool("resume", {}))
        return out

    answers: dict[str, Any] = run_session(root, body)
    return answers


def test_the_write_loop_through_mcp(write_loop: dict[str, Any]) -> None:
    out = write_loop
    assert out["pack"].startswith("# 记忆包：第13章")  # the prompt alone, no JSON
    pack = out["pack json"]
    assert pack["chapter"] == 13 and pack["used_tokens"] <= 2000 and "rendered" not in pack
    assert (out["fact"]["value"], out["fact"]["valid_from"]) == ("筑基", 5)
    assert [t["id"] for t in out["threads"]] == ["raven"]
    assert out["search"] and all(h["chapter"] <= 9 for h in out["search"])
    categories = {i["category"]: i for i in out["review"]["issues"]}
    assert categories["dead_entity_active"]["entity_id"] == "zhoubo"
    assert categories["regression"]["severity"] == "critical"
    unknown = tool_error(out["unknown"])
    assert unknown["code"] == "unknown_entity" and "未知实体「萧炎」" in unknown["message"]
    assert unknown["details"] == {"reference": "萧炎", "suggestions": []}
    bad = tool_error(out["bad"])
    assert bad["code"] == "invalid_chapter_result" and "$.chapter" in bad["message"]
    assert any("$.chapter" in problem for problem in bad["details"]["problems"])
    assert tool_error(out["missing"]) == {
        "code": "invalid_argument",
        "message": "get_fact：参数 subject 必填",
        "details": {
            "tool": "get_fact",
            "arguments": ["subject"],
            "problems": ["参数 subject 必填"],
        },
    }
    everything = out["everything"]  # no field: every field of 林砚 that holds now
    assert everything["entity_name"] == "林砚" and everything["field"] is None
    realm = next(f for f in everything["facts"] if f["field"] == "realm")
    assert (realm["value"], realm["field_label"]) == ("金丹", "境界")
    overflow = tool_error(out["overflow"])
    assert overflow["message"].startswith("as_of 应为 0 到 1,000,000 之间的章节号")
    assert out["after"]["latest_chapter"] == 12  # the server kept serving after errors
    assert "baimei" in {e["id"] for e in out["cast"]} and "suwanqing" not in {
        e["id"] for e in out["cast"]
    }
    assert "linyan" in {e["id"] for e in out["prefill"]["entities_appeared"]}
    assert [(k["secret_id"], k["since"], k["from"]) for k in out["knows"]] == [
        ("father-alive", 7, "zhoubo")
    ]
    hidden = {s["id"]: s["reader_knows"] for s in out["secrets"]}
    assert hidden == {"father-alive": True, "lichen-identity": False}
    assert out["retract"]["status"] == "retracted"
    assert out["retracted"]["latest_chapter"] == 12  # the forced draft of chapter 13 is gone
    print(f"\nwarm MCP build_memory_pack round trip (median of 5): {out['pack_ms']:.1f} ms")


def test_a_blocking_commit_is_refused_unless_forced(write_loop: dict[str, Any]) -> None:
    out = write_loop
    refused = tool_error(out["refused"])
    refusal = refused["message"]
    assert refused["code"] == "review_blocked" and refused["details"]["chapter"] == 13
    assert "第13章未写入" in refusal and "阻断问题" in refusal and "force" in refusal
    assert out["after_refusal"]["latest_chapter"] == 12  # nothing was written
    assert out["old_name"]["blocking"] > 0 and "result" in out["old_name"]["notes"][0]
    forced = out["forced"]
    assert forced["status"] == "committed" and forced["chapter"] == 13
    assert {c["kind"] for c in forced["conflicts"]} >= {"dead_entity_active"}


@pytest.fixture(scope="module")
def read_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One server over the sample book (and its draft with mistakes, forced) answers every read
    the tests below check. The SDK's client talks to it in process (the server `webnovel mcp`
    runs, `create_server` over the opened book, without the stdio test_mcp_stdio takes
    through a real process): a Python start-up fewer."""
    root = tmp_path_factory.mktemp("mcp-reads") / "book"
    draft = DRAFT_13
    with webnovel.init_project(root, title="青灯照剑") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result)
        book.commit(json.loads(draft.read_text(encoding="utf-8")), force=True)
        three = book.chapter(3).to_dict()

    async def body(client: Any) -> dict[str, Any]:
        calls = {
            "history": ("get_history", {"subject": "砚儿", "field": "境界", "as_of": 6}),
            "relations": ("get_relations", {"subject": "林砚", "as_of": 5}),
            "rules": ("list_rules", {"as_of": 3}),
            "timeline": ("get_timeline", {"start": 2, "end": 4, "entity": "林砚"}),
            "conflicts_12": ("list_conflicts", {"as_of": 12}),
            "conflicts": ("list_conflicts", {}),
            "three": ("get_chapter", {"chapter": 3}),
            "resolved": ("list_threads", {"status": "resolved"}),
            "已回收": ("list_threads", {"status": "已回收"}),
        }
        out = {
            name: structured(await client.call_tool(tool, arguments))
            for name, (tool, arguments) in calls.items()
        }
        out["later"] = await client.call_tool("get_chapter", {"chapter": 14})
        out["listed"] = (
            {t.name: t for t in (await client.list_tools()).tools},
            [p.name for p in (await client.list_prompts()).prompts],
            await client.get_prompt("extract_chapter_result", {"chapter": "13"}),
            await client.read_resource("webnovel://stats"),
        )
        return out

    from mcp import Client

    from webnovel.mcp import create_server

    async def in_process() -> dict[str, Any]:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                answers: dict[str, Any] = await body(client)
                return answers

    return {**asyncio.run(in_process()), "expected three": three}


def test_get_chapter_answers_what_happened_in_that_chapter(read_answers: dict[str, Any]) -> None:
    out = read_answers
    assert out["three"] == out["expected three"]
    assert out["three"]["chapter"] == 3 and out["three"]["scenes"]
    assert out["later"].is_error and "14" in out["later"].content[0].text


def test_a_thread_status_may_be_asked_for_in_chinese(read_answers: dict[str, Any]) -> None:
    assert read_answers["已回收"] == read_answers["resolved"] != []


def test_the_ledgers_as_of_a_chapter(read_answers: dict[str, Any]) -> None:
    out = read_answers
    history = [(v["value"], v["valid_from"], v["valid_to"]) for v in out["history"]]
    assert history == [("炼气", 1, 5), ("筑基", 5, None)]  # as chapter 6 knew it
    assert {v["field_label"] for v in out["history"]} == {"境界"}
    assert ("linyan", "hanxiao", "朋友") in {
        (r["from"], r["to"], r["type"]) for r in out["relations"]
    }
    rules = {r["id"]: r["rule"] for r in out["rules"]}
    assert list(rules) == ["spirit-vein", "lamp-midnight", "mind-maze"]
    assert "子时" in rules["lamp-midnight"]  # its text until chapter 10 revised it
    assert out["timeline"] and {e["chapter"] for e in out["timeline"]} <= {2, 3, 4}
    assert out["conflicts_12"] == []
    assert out["conflicts"] and {c["chapter"] for c in out["conflicts"]} == {13}


def test_a_conflict_is_said_in_the_language_the_agent_s_server_speaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conflict committed in Chinese is said again when listed: in English for a server
    started with WEBNOVEL_LANG=en."""
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    result = dict(next(iter(sample_chapters())).result)
    removes = {"entity_id": "linyan", "field": "items", "op": "remove", "new": "玉佩"}
    result["state_changes"] = [*(result.get("state_changes") or []), removes]
    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        book.commit(result)
    monkeypatch.setenv("WEBNOVEL_LANG", "en")

    async def body(client: Any) -> Any:
        return structured(await client.call_tool("list_conflicts", {}))

    listed = run_session(tmp_path / "book", body)
    assert [c["message"] for c in listed] == [
        "林砚: chapter 1 removes '玉佩', but memory's items has no such entry (now: 旧木剑)"
    ]


def test_the_prompt_and_resources_speak_english_under_webnovel_lang_en(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server started with WEBNOVEL_LANG=en lists its prompt and resources under the same
    names, described in English, and gives the Data Agent its instructions in English around
    the book's own Chinese."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        book.commit(next(iter(sample_chapters())).result)

    async def body(client: Any) -> Any:
        return (
            (await client.list_prompts()).prompts,
            (await client.list_resources()).resources,
            await client.get_prompt(
                "extract_chapter_result", {"chapter": "2", "chapter_text": "林砚推门而入。"}
            ),
        )

    prompts, resources, prompt = run_session(tmp_path / "book", body)
    chinese = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
    assert [p.name for p in prompts] == ["extract_chapter_result"]
    assert prompts[0].description.startswith("Data Agent: after reading a chapter")
    described = {a.name: a.description for a in prompts[0].arguments or []}
    assert described == {"chapter": "the chapter", "chapter_text": "the chapter's text"}
    assert {r.name: r.description for r in resources} == {
        "stats": "Memory's counts, sizes and health.",
        "scratchpad": "The semantic memory cache (memory_scratchpad.json).",
    }
    assert prompt.description == prompts[0].description
    text = prompt.messages[0].content.text
    rules, _, rest = text.partition("\n\nJSON Schema:\n\n")
    assert rules.startswith("You are the Data Agent of this serialized novel. Read the text of")
    assert "chapter 2" in rules and "commit_chapter" in rules and '"entities_new"' not in rules
    # the rules' own words are English; the Chinese left is the book's words they quote
    assert set(chinese.findall(rules)) <= set("死亡四十九日后三年后次日清晨三日后那位长老")
    assert "Example (the chapter result of the sample novel's chapter 1):" in rest
    assert rest.endswith("the text of chapter 2:\n\n林砚推门而入。")
    assert "数据代理" not in text and "要点" not in text
