"""Raw JSON-RPC over the stdio of `webnovel mcp`, as a careless or hostile client writes it:
every request gets an answer, and the next one is served."""

from __future__ import annotations

import importlib.util
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel

# The SDK is imported where it is used (2.5 s of CPU), by the worker that runs these tests.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)


class RawClient:
    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "webnovel", "--project", str(root), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.pending = bytearray()
        self.last_line = b""  # the last answer as the process wrote it
        self.greeting: dict[str, Any] = {}  # its answer to `initialize`

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 20) -> dict[str, Any]:
        """The next answer line, read off the pipe with our own buffer: a buffered readline
        after select() would keep a second answer of the same read where select() cannot see
        it."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = max(deadline - time.monotonic(), 0)
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            assert ready, "no answer"
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            assert chunk, "the server ended"
            self.pending.extend(chunk)
        line, _, rest = bytes(self.pending).partition(b"\n")
        self.pending[:] = rest
        self.last_line = line
        return dict(json.loads(line))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawClient]:
    root = tmp_path_factory.mktemp("mcpraw") / "book"
    with webnovel.init_project(root, title="t") as book:
        book.commit({"chapter": 1, "summary": "林砚离开青云宗。"})
    raw = RawClient(root)
    raw.send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        )
    )
    raw.greeting = raw.answer()
    assert raw.greeting["id"] == 0
    raw.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    yield raw
    raw.proc.kill()
    raw.proc.wait(timeout=10)


def call(tool: str, arguments: str, request_id: int) -> str:
    """A tools/call line with `arguments` spliced in as raw JSON text (escapes kept)."""
    return (
        f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", '
        f'"params": {{"name": "{tool}", "arguments": {arguments}}}}}'
    )


@pytest.mark.parametrize(
    ("tool", "arguments", "where"),
    [
        ("search_memory", '{"text": "\\ud800"}', "params.arguments.text"),
        ("search_memory", '{"text": "林\\udfff砚"}', "params.arguments.text"),
        ("commit_chapter", '{"result": {"chapter": 2, "summary": "\\ud83d"}}', "summary"),
        ("get_fact", '{"entity": "x", "field": "y", "\\ud800": 1}', "params.arguments"),
    ],
)
def test_a_lone_surrogate_gets_an_answer(
    client: RawClient, tool: str, arguments: str, where: str
) -> None:
    client.send(call(tool, arguments, 7))
    answer = client.answer()
    assert answer["id"] == 7 and answer["error"]["code"] == -32602
    assert where in answer["error"]["message"] and "Unicode" in answer["error"]["message"]
    client.send(call("search_memory", '{"text": "林砚"}', 8))
    served = client.answer()
    assert served["id"] == 8 and served["result"]["isError"] is False


def test_a_line_that_is_not_json_gets_a_parse_error(client: RawClient) -> None:
    client.send("{this is not json")
    answer = client.answer()
    assert answer["id"] is None and answer["error"]["code"] == -32700
    client.send(call("search_memory", '{"text": "青云宗"}', 9))
    assert client.answer()["id"] == 9


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"jsonrpc": "2.0", "method": "x", "params": {"a": "\\ud800"}}', None),  # notification
        ('{"jsonrpc": "2.0", "id": true, "method": "x"}', None),
        ('{"jsonrpc": "2.0", "id": "\\ud800", "method": "x"}', None),
        ('{"jsonrpc": "2.0", "id": 3, "method": "x", "params": NaN}', (3, -32600)),
        ("[" * 100_000, (None, -32600)),  # Python's parser would recurse out of its stack
    ],
)
def test_which_unreadable_lines_are_answered(line: str, expected: tuple[int, int] | None) -> None:
    from webnovel.mcp.stdio import answer_for_unreadable

    answer = answer_for_unreadable(line)
    assert ((answer.request_id, answer.code) if answer else None) == expected


def peak_rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0])


@pytest.mark.parametrize(
    "line",
    [
        '{"jsonrpc": "2.0", "id": 21, "method": "ping", "params": '
        + "[" * 100_000
        + "]" * 100_000
        + "}",
        call("search_memory", '{"text": "林砚", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", 21),
        call("commit_chapter", '{"result": {"chapter": 2, "summary": ' + "{" * 500 + "}", 21),
    ],
    ids=["message", "arguments", "cut-short"],
)
def test_a_message_nested_too_deep_is_refused_and_the_server_serves_on(
    client: RawClient, line: str
) -> None:
    client.send(line)
    answer = client.answer()
    assert answer["id"] == 21 and answer["error"]["code"] == -32600
    assert "嵌套超过 128 层" in answer["error"]["message"]
    assert answer["error"]["data"] == {
        "code": "message_too_deep",
        "details": {"limit_depth": 128},
    }
    client.send(call("search_memory", '{"text": "林砚"}', 22))
    served = client.answer()
    assert served["id"] == 22 and served["result"]["isError"] is False


def test_a_message_too_large_is_refused_unread(client: RawClient) -> None:
    assert client.proc.stdin is not None
    huge = call("search_memory", '{"text": "' + "林砚" * 5_000_000 + '"}', 23)  # 30 MB
    client.send(huge)
    answer = client.answer(timeout=60)
    assert answer["id"] == 23 and answer["error"]["code"] == -32600
    assert "消息超过 16 MB" in answer["error"]["message"]
    assert answer["error"]["data"] == {
        "code": "message_too_large",
        "details": {"limit_bytes": 16 * 1024 * 1024},
    }
    client.send(call("search_memory", '{"text": "林砚"}', 24))
    assert client.answer()["id"] == 24
    assert peak_rss_kb(client.proc.pid) < 250_000  # the line was never held whole


def test_a_longest_chapter_escaped_as_ascii_is_read(client: RawClient) -> None:
    """Trial 4 §7: a client escaping non-ASCII (json.dumps's default) sends a CJK character as
    \\uXXXX, six bytes; 1,500,000 characters (9 MB) were refused as a message over 8 MB,
    below the documented 2,000,000-character `text`. The longest text is read, then judged."""
    text = "林" * 2_000_000
    revised = {"chapter": 1, "summary": "林砚离开青云宗。"}
    arguments = json.dumps({"chapter": 1, "result": revised, "text": text})  # 12 MB, all ASCII
    client.send(call("impact_of_revision", arguments, 27))
    answer = client.answer(timeout=120)
    assert answer["id"] == 27 and answer["result"]["isError"] is False, str(answer)[:300]
    client.send(call("impact_of_revision", json.dumps({"chapter": 1, "text": text + "林"}), 28))
    refused = client.answer(timeout=120)["result"]
    assert "超过上限 2,000,000" in refused["content"][0]["text"]


def test_a_long_argument_is_refused_with_its_name_and_limit(client: RawClient) -> None:
    client.send(call("search_memory", json.dumps({"text": "林" * 2_001}), 25))
    answer = client.answer()["result"]
    assert answer["isError"] is True
    assert json.loads(answer["content"][0]["text"])["message"] == (
        "search_memory：参数 text 长 2,001 个字符，超过上限 2,000"
    )
    outline = json.dumps({"chapter": 2, "outline": "林" * 50_001})
    client.send(call("build_memory_pack", outline, 26))
    assert (
        "参数 outline 长 50,001 个字符，超过上限 50,000"
        in (client.answer()["result"]["content"][0]["text"])
    )


def test_depth_is_read_without_parsing() -> None:
    from webnovel.mcp.framing import too_deep, top_level_id

    assert not too_deep('{"a": "' + "[" * 500 + '"}')  # brackets inside a string
    assert too_deep("[" * 129) and not too_deep("[" * 128)
    assert top_level_id('{"params": {"id": 9}, "id": "a-1", "x": ' + "[" * 9) == "a-1"
    assert top_level_id('{"method": "x", "params": {"id": 9}') is None
    assert top_level_id('{"id": 12345, "params": "') == 12345


def test_without_the_sdk_the_server_says_which_extra(tmp_path: Path) -> None:
    """Installed with [dashboard] (which brings anyio) but not [mcp]: one sentence, no
    traceback. The SDK is made unimportable in a real process, as a missing install is."""
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t"):
        pass
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from webnovel.cli.main import main\n"
        f"raise SystemExit(main(['--project', {str(root)!r}, 'mcp']))\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "pip install 'webnovel-memory[mcp]'" in ran.stderr


def test_the_process_greets_in_its_language_and_lists_its_tools_small(client: RawClient) -> None:
    """`webnovel mcp` says the catalogue's instructions in its `initialize` answer (in the
    language of its environment, the test's), and its tool list, as the process writes the
    line, stays under 60% of the 31,657 bytes it was with the chapter-result schema three
    times (tests/test_mcp_tool_list.py measures it through the SDK's client, both languages)."""
    from webnovel.messages import say

    assert client.greeting["result"]["instructions"] == say("mcp_instructions")
    client.send('{"jsonrpc": "2.0", "id": 11, "method": "tools/list"}')
    listed = client.answer()
    assert listed["id"] == 11 and len(listed["result"]["tools"]) > 20
    assert len(client.last_line) <= 0.6 * 31_551, len(client.last_line)
