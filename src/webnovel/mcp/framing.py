"""Bounds on what a client may send, checked before anything parses it.

A JSON-RPC line is read at most `MAX_MESSAGE_BYTES` at a time: a longer line is drained to its
newline without being kept (a 400 MB line once cost 1.5 GB) and refused. A line nested deeper
than `MAX_DEPTH` levels is refused before a parser sees it: parsers recurse, and one nested
100,000 deep ended the server. Either refusal is a JSON-RPC error (-32600, the request's id
when it can be read off the line's top level, else null), and the server reads the next line.

The refusals travel beside the lines: the SDK's transport reads our lines and hands on what
it cannot parse, so a refused line is replaced by a marker no client can send (it holds a
newline, and lines never do), and `AnsweringReader` (stdio.py) answers the marker with the
refusal queued for it.
"""

from __future__ import annotations

import os
import re
import sys
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO

from ..messages import say

# A chapter's `text` may hold 2,000,000 characters (CHAPTER_TEXT_CHARS), and a client that
# escapes non-ASCII (Python's json.dumps by default) sends each CJK character as \uXXXX, six
# bytes: 12 MB, refused by the 8 MB this was (trial 4 §7). 16 MiB holds that text with a
# result beside it; a longer line is still drained unread.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 128  # a chapter result may nest 64 levels (refused with its path); the parser takes 200
REFUSED = "\n(refused by webnovel's framing)\n"
_DRAIN_BYTES = 1024 * 1024
# A string (escapes kept whole), or one of the characters that structure JSON.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}:,]')
_ID_VALUE = re.compile(r'\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")')


@dataclass(frozen=True)
class Refusal:
    request_id: int | str | None
    code: int
    message: str
    # the JSON-RPC error's `data`: `{"code", "details"}`, the stable name an agent acts on, as
    # a tool error's `code` is (message_too_large, message_too_deep)
    data: dict[str, object] | None = None


def too_large_data(limit: int) -> dict[str, object]:
    return {"code": "message_too_large", "details": {"limit_bytes": limit}}


def too_deep_data(depth: int) -> dict[str, object]:
    return {"code": "message_too_deep", "details": {"limit_depth": depth}}


def too_deep(line: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text `line` opens more than `limit` arrays or objects inside one
    another (brackets inside strings do not count). Linear, without recursion."""
    if line.count("[") + line.count("{") <= limit:
        return False  # not enough brackets to go that deep: the usual line, at C speed
    depth = 0
    for token in _TOKEN.finditer(line):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def top_level_id(line: str) -> int | str | None:
    """The `id` of the JSON-RPC object on `line`, read off its top level without parsing
    what is nested (or a line cut short); None when there is none to read."""
    depth = 0
    key = None
    for token in _TOKEN.finditer(line):
        text = token.group()
        if text in "[{":
            depth += 1
        elif text in "]}":
            depth -= 1
        elif depth == 1 and text == ":" and key == '"id"':
            value = _ID_VALUE.match(line, token.end())
            if value is None:
                return None
            found = value.group(1)
            return int(found) if found[0] != '"' else _plain_string(found)
        if depth == 1 and text.startswith('"'):
            key = text
        elif text != ":":
            key = None
    return None


def _plain_string(quoted: str) -> str | None:
    body = quoted[1:-1]
    return body if "\\" not in body else None  # an escaped id is left alone: answered as null


class BoundedLines:
    """The lines of a client's binary stream as text, each at most `limit` bytes long and at
    most `depth` levels deep; any other line is replaced by `REFUSED`, its refusal queued in
    `refusals` for the reader that answers it."""

    def __init__(
        self, stream: BinaryIO, *, limit: int = MAX_MESSAGE_BYTES, depth: int = MAX_DEPTH
    ) -> None:
        self._stream = stream
        self._limit = limit
        self._depth = depth
        self.refusals: deque[Refusal] = deque()

    def __aiter__(self) -> BoundedLines:
        return self

    async def __anext__(self) -> str:
        import anyio

        line = await anyio.to_thread.run_sync(self.next_line)
        if line is None:
            raise StopAsyncIteration
        return line

    def next_line(self) -> str | None:
        """The next line (blocking), `REFUSED` for one out of bounds, None at the end."""
        raw = self._stream.readline(self._limit + 1)
        if not raw:
            return None
        if len(raw) > self._limit and not raw.endswith(b"\n"):
            head = raw[:4096].decode("utf-8", errors="replace")
            self._drain()
            said = say("mcp_message_too_large", limit=self._limit // 1024**2)
            return self._refuse(top_level_id(head), said, too_large_data(self._limit))
        line = raw.decode("utf-8", errors="replace")  # as the SDK's own transport reads
        if too_deep(line, self._depth):
            said = say("mcp_message_too_deep", depth=self._depth)
            return self._refuse(top_level_id(line), said, too_deep_data(self._depth))
        return line

    def _drain(self) -> None:
        while True:
            chunk = self._stream.readline(_DRAIN_BYTES)
            if not chunk or chunk.endswith(b"\n"):
                return

    def _refuse(self, request_id: int | str | None, message: str, data: dict[str, object]) -> str:
        self.refusals.append(Refusal(request_id, -32600, message, data))
        return REFUSED


@contextmanager
def claimed_stdin() -> Iterator[BinaryIO]:
    """The process's stdin for the protocol alone: read through a private duplicate while fd 0
    reads the null device, so that a child (an embedding run) or a stray read cannot take
    the client's bytes; fd 0 is restored after."""
    try:
        private = os.dup(0)
    except OSError:  # no stdin to claim (closed): read whatever sys.stdin is, as the SDK would
        yield sys.stdin.buffer
        return
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        with open(private, "rb", closefd=False) as stream:
            yield stream
    finally:
        os.dup2(private, 0)
        os.close(private)
