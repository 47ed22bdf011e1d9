"""Errors carry data: an agent gets a code it can act on and the facts behind the sentence,
over a real MCP client against our server and over the dashboard's HTTP; the store says itself
that it is unavailable (a real PostgreSQL server whose connection is terminated)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import InvalidInput, StoreUnavailable, Surface, UnknownEntity

from stores import NO_POSTGRES, POSTGRES_URL, init_book

needs_mcp = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)
needs_postgres = pytest.mark.skipif(POSTGRES_URL is None, reason=NO_POSTGRES)

CHAPTER_1 = {
    "chapter": 1,
    "entities_new": [
        {"id": "linyan", "name": "林砚", "type": "角色", "attributes": {"境界": "炼气"}}
    ],
}


def test_an_error_is_its_key_and_arguments_rendered_when_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    error = InvalidInput.of("limit_positive", got=0)
    assert (error.key, error.arguments, error.code, error.exit_code) == (
        "limit_positive",
        {"got": 0},
        "invalid_argument",
        2,
    )
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    chinese = str(error)
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert str(error) != chinese and "0" in str(error) and "0" in chinese
    unknown = UnknownEntity("林言", ["林砚"])
    assert unknown.as_json(Surface.MCP)["details"] == {"reference": "林言", "suggestions": ["林砚"]}
    assert "林砚" in unknown.as_json(Surface.MCP)["message"] and unknown.http_status == 404
    assert StoreUnavailable.http_status == 503 and StoreUnavailable.code == "store_unavailable"


def _call(root: Path, calls: list[tuple[str, dict[str, Any]]], before: Any = None) -> list[Any]:
    """The tools called in turn by the SDK's real client against our server over the book."""
    from mcp import Client

    from webnovel.mcp import create_server

    async def main() -> list[Any]:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                answers = []
                for name, arguments in calls:
                    if before is not None:
                        before(book)
                    answers.append(await client.call_tool(name, arguments))
                return answers

    return asyncio.run(main())


def _error(result: Any) -> dict[str, Any]:
    """A tool error as an agent reads it: marked, and one text block of JSON, not two."""
    assert result.is_error and result.structured_content is None and len(result.content) == 1
    error = json.loads(result.content[0].text)
    assert set(error) == {"code", "message", "details"}
    return dict(error)


@needs_mcp
def test_mcp_says_an_unknown_entity_and_a_bad_argument_with_their_codes(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        book.commit(CHAPTER_1)
    unknown, bad, unknown_tool = _call(
        tmp_path / "book",
        [
            ("get_fact", {"subject": "林言", "field": "境界"}),
            ("get_fact", {"subject": "林砚", "field": "境界", "as_of": "x"}),
            ("no_such_tool", {}),
        ],
    )
    said = _error(unknown)
    assert said["code"] == "unknown_entity"
    assert said["details"] == {"reference": "林言", "suggestions": ["林砚"]}
    assert said["message"].startswith("未知实体「林言」") and "「林砚」" in said["message"]
    said = _error(bad)
    assert said["code"] == "invalid_argument" and said["details"]["tool"] == "get_fact"
    assert "as_of" in said["message"] and said["details"]["arguments"] == ["as_of"]
    assert _error(unknown_tool)["code"] == "invalid_argument"
    assert _error(unknown_tool)["details"] == {"name": "no_such_tool"}


def _terminate(book: webnovel.Project) -> None:
    """The server ends the book's connection (a restart, an administrator): no other's."""
    import psycopg

    pid = book.storage.index.pg.raw.info.backend_pid
    with psycopg.connect(POSTGRES_URL or "", autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


@needs_mcp
@needs_postgres
def test_mcp_says_a_store_that_dropped_the_connection_is_unavailable(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit(CHAPTER_1)
    dropped: list[bool] = []

    def once(book: webnovel.Project) -> None:
        if not dropped:
            dropped.append(True)
            _terminate(book)

    refused, served = _call(
        tmp_path / "book",
        [("get_fact", {"subject": "林砚", "field": "境界"})] * 2,
        before=once,
    )
    said = _error(refused)
    assert said["code"] == "store_unavailable" and "连接断开" in said["message"]
    assert said["details"]["said"]  # the server's own words, for the DBA
    assert not served.is_error  # the next call reconnects


@contextmanager
def _dashboard(book: webnovel.Project) -> Iterator[str]:
    import uvicorn

    from webnovel.dashboard.app import create_app
    from webnovel.dashboard.server import bind

    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(book), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


@needs_postgres
def test_the_dashboard_answers_an_unavailable_store_with_503_and_its_code(
    tmp_path: Path,
) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit(CHAPTER_1)
        with _dashboard(book) as url:
            _terminate(book)
            status, body = _get(url + "/api/query/entities")
            assert status == 503, body
            error = json.loads(body)
            assert error["code"] == "store_unavailable" and "连接断开" in error["error"]
            status, body = _get(url + "/api/query/entities")
            assert status == 200, body  # the next request reconnects
            status, body = _get(url + "/characters/nobody")
            assert status == 404 and "<html" in body.lower()  # a page keeps its Chinese page
            _terminate(book)
            status, body = _get(url + "/characters/linyan")
            assert status == 503 and "<html" in body.lower() and "连接断开" in body


@needs_postgres
def test_the_store_s_shared_vectors_say_a_dropped_connection_as_the_store(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        book.commit(CHAPTER_1)
        vectors = book.storage.shared_vectors()
        assert vectors is not None and vectors.models() == []
        _terminate(book)
        with pytest.raises(StoreUnavailable) as dropped:
            vectors.models()
        assert dropped.value.code == "store_unavailable"
        assert vectors.models() == []  # read again on a new connection
