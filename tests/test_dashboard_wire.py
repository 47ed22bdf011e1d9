"""The dashboard against hostile HTTP (issue 42), over real sockets to the real server: a Host
header that is not exactly one loopback host is refused, a look at a pack writes nothing, and
hundreds of open event streams neither starve the live refresh nor pile up."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from dashboard_server import (  # noqa: E402
    Running,
    build_sample_book,
    chapter_14_committed_beside,
    running_dashboard,
)


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_dashboard(build_sample_book(tmp_path_factory.mktemp("wire") / "book")) as run:
        yield run


def port_of(board: Running) -> int:
    return int(board.url.rsplit(":", 1)[1])


def raw_status(board: Running, head: bytes) -> int:
    """The status of one request written byte for byte (urllib would not send these)."""
    with socket.create_connection(("127.0.0.1", port_of(board)), timeout=20) as raw:
        raw.sendall(head)
        answer = raw.recv(200)
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize(
    "hosts",
    [
        [b"127.0.0.1:{port}, evil.com"],
        [b"127.0.0.1\tevil"],
        [b"127.0.0.1 evil"],
        [b"localhost:{port},127.0.0.1"],
        [b"::1"],  # an IPv6 address without its brackets
    ],
)
def test_a_host_header_that_is_not_one_loopback_host_is_refused(
    board: Running, hosts: list[bytes]
) -> None:
    port = str(port_of(board)).encode()
    lines = b"".join(b"Host: " + h.replace(b"{port}", port) + b"\r\n" for h in hosts)
    head = b"GET /api/seq HTTP/1.1\r\n" + lines + b"Connection: close\r\n\r\n"
    assert raw_status(board, head) == 400


@pytest.mark.parametrize("host", [b"127.0.0.1:{port}", b"[::1]:{port}", b"LOCALHOST", b"127.1"])
def test_a_loopback_host_in_any_spelling_is_served(board: Running, host: bytes) -> None:
    named = host.replace(b"{port}", str(port_of(board)).encode())
    head = b"GET /api/seq HTTP/1.1\r\nHost: " + named + b"\r\nConnection: close\r\n\r\n"
    assert raw_status(board, head) == 200


def test_a_look_at_a_pack_writes_nothing(board: Running) -> None:
    log = board.root / ".webnovel" / "packs.jsonl"
    before = log.read_bytes() if log.exists() else b""
    for _ in range(5):
        answer = board.get("/api/query/pack?chapter=13&format=prompt")
        assert answer.status == 200 and json.loads(answer.body)["chapter"] == 13
    assert (log.read_bytes() if log.exists() else b"") == before


def test_a_pack_given_to_an_agent_is_still_logged(tmp_path: Path) -> None:
    from cli_runner import run_cli

    root = build_sample_book(tmp_path / "book")
    log = root / ".webnovel" / "packs.jsonl"
    before = len(log.read_text().splitlines()) if log.exists() else 0
    assert run_cli("--project", str(root), "pack", "--chapter", "13").returncode == 0
    assert len(log.read_text().splitlines()) == before + 1


def open_stream(board: Running) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", port_of(board)), timeout=20)
    raw.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port_of(board)}\r\n\r\n".encode())
    return raw


def read_until(raw: socket.socket, wanted: bytes, seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    raw.settimeout(0.5)
    while wanted not in seen and time.monotonic() < deadline:
        try:
            chunk = raw.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        seen += chunk
    return seen


def test_hundreds_of_event_streams_neither_starve_the_page_nor_pile_up(board: Running) -> None:
    from webnovel.dashboard.live import STREAMS_PER_CLIENT

    crowd = [open_stream(board) for _ in range(300)]
    try:
        for raw in crowd[-STREAMS_PER_CLIENT:]:
            assert b"retry:" in read_until(raw, b"retry:", 20)
        page = open_stream(board)  # the page opened last is served
        assert b"retry:" in read_until(page, b"retry:", 20)
        time.sleep(1.5)  # every stream waits for the next commit
        with chapter_14_committed_beside(board.root):
            started = time.monotonic()
            got = read_until(page, b"event: commit", 10)
            assert b"event: commit" in got
            assert time.monotonic() - started < 8  # a poll of one second, not a queue of 300
        closed = 0
        for raw in crowd:  # all but the newest few were closed by the server
            raw.settimeout(0.2)
            try:
                while chunk := raw.recv(65536):
                    if b"0\r\n\r\n" in chunk:  # the chunked body's end
                        closed += 1
                        break
                else:
                    closed += 1
            except TimeoutError:
                pass
        assert closed >= len(crowd) + 1 - STREAMS_PER_CLIENT
        page.close()
    finally:
        for raw in crowd:
            raw.close()
