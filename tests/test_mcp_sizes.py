"""What every MCP tool's answer costs on the wire (issue 38): a rendered pack travels alone,
never beside the JSON it was made from; a JSON answer is its structured content (the contract)
with the same JSON as text for hosts that read only text, and a host shows the model one of
the two; a 4,000-token pack asked for as a prompt travels in at most 10,000 characters. The SDK's real client drives the server in process
(benchmarks/mcp_answer_sizes.py, which also prints the sizes for docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from mcp_answer_sizes import answer_sizes, demo_book

from saga import generate_saga

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)

# The most characters each answer may take on the sample book. Before issue 38 the prompt pack
# took 101,192 (its JSON, its rendering inside it, and all that again as structured content),
# get_history 34,104 and search_memory 17,085.
CEILINGS = {"build_memory_pack (json)": 60_000, "get_history": 20_000}
CEILING = 10_000
OVERHEAD = 400  # the JSON-RPC result around one text block: its keys, and escaped quotes


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_book(tmp_path_factory.mktemp("sizes") / "demo-book")


@pytest.fixture(scope="module")
def sizes(sample: Path) -> dict[str, dict[str, Any]]:
    return answer_sizes(sample)


def test_every_tool_is_measured(sample: Path, sizes: dict[str, dict[str, Any]]) -> None:
    from webnovel.mcp import create_server

    with webnovel.open_project(sample) as book:
        tools = set(create_server(book).tools)
    measured = {label.split(" ")[0] for label in sizes}
    assert tools - measured <= {"extract_chapter"}  # that one calls a model (test_extract)
    assert not [label for label, size in sizes.items() if size["error"]]


def test_each_answer_travels_once_and_small(sizes: dict[str, dict[str, Any]]) -> None:
    for label, size in sizes.items():
        result = size["result"]
        assert len(result.content) == 1, label
        text = result.content[0].text
        escaped = len(json.dumps(text, ensure_ascii=False))  # the text as the wire quotes it
        if result.structured_content is None:  # written to be read: the text alone
            assert size["chars"] <= escaped + OVERHEAD, (label, size["chars"], escaped)
        else:  # JSON: the structured content and its text twin, the same compact JSON
            data = json.loads(text)
            assert result.structured_content == (
                data if isinstance(data, dict) else {"result": data}
            )
            twin = len(
                json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
            )
            assert size["chars"] <= escaped + twin + OVERHEAD, (label, size["chars"])
        assert len(text) <= CEILINGS.get(label, CEILING), (label, len(text))


def test_a_prompt_pack_is_the_rendering_alone(sizes: dict[str, dict[str, Any]]) -> None:
    prompt = sizes["build_memory_pack (prompt)"]["result"].content[0].text
    assert prompt.startswith("# 记忆包：第13章")
    text = sizes["build_memory_pack (text)"]["result"].content[0].text
    assert not text.lstrip().startswith("{")
    packed = json.loads(sizes["build_memory_pack (json)"]["result"].content[0].text)
    assert packed["chapter"] == 13 and "rendered" not in packed


def test_a_full_4000_token_pack_travels_in_10000_characters(tmp_path: Path) -> None:
    from mcp import Client

    from webnovel.mcp import create_server

    root = tmp_path / "saga"
    with webnovel.init_project(root, title="saga") as book:
        for result in generate_saga(150, seed=11).results:
            book.commit(result)
    request = {"chapter": 150, "budget_tokens": 4000}

    async def ask() -> tuple[int, int]:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                packed = await client.call_tool("build_memory_pack", {**request})
                prompt = await client.call_tool(
                    "build_memory_pack", {**request, "format": "prompt"}
                )
        used = json.loads(packed.content[0].text)["used_tokens"]
        return used, len(prompt.model_dump_json(by_alias=True, exclude_unset=True))

    used, chars = asyncio.run(ask())
    assert used >= 3_500  # a pack that fills its budget
    assert chars <= 10_000
