"""Serving over stdio so that every request gets an answer.

The SDK parses each line strictly: a string holding a lone surrogate (`"\\ud800"`) is invalid
JSON to it, so the request is dropped without a reply and the client waits forever. Python's
own parser reads such a line, so the request's id is known: it is answered with an
"invalid params" error naming where the bad string is, and the server goes on serving.
A line that is not JSON at all gets the JSON-RPC parse error (id null). Lines too long or too
deep to parse are refused before any parser sees them (framing.py).
"""

from __future__ import annotations

import json
from collections import deque
from typing import TYPE_CHECKING, Any

from ..messages import say
from .framing import (
    MAX_DEPTH,
    REFUSED,
    BoundedLines,
    Refusal,
    claimed_stdin,
    too_deep,
    too_deep_data,
)

if TYPE_CHECKING:
    from .tools import ToolServer


def bad_unicode_at(value: Any, path: str = "") -> str | None:
    """The path of the first string (key or value) that is not valid Unicode, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path or "(root)"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            found = bad_unicode_at(key, where) or bad_unicode_at(item, where)
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = bad_unicode_at(item, f"{path}[{index}]")
            if found:
                return found
    return None


def answer_for_unreadable(line: str) -> Refusal | None:
    """The answer to a line the SDK could not read; None when the line needs no answer (a
    notification)."""
    if too_deep(line):  # Python's parser recurses: refused before it
        said = say("mcp_message_too_deep", depth=MAX_DEPTH)
        return Refusal(None, -32600, said, too_deep_data(MAX_DEPTH))
    try:
        message = json.loads(line)
    except ValueError:
        return Refusal(None, -32700, say("mcp_unparsable"))
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return None
    request_id = message["id"]
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    if isinstance(request_id, str) and bad_unicode_at(request_id):
        return None  # an id that cannot be sent back
    where = bad_unicode_at(message.get("params"), "params")
    if where is None:
        return Refusal(request_id, -32600, say("mcp_invalid_request"))
    shown = where.encode("utf-8", "backslashreplace").decode("utf-8")
    return Refusal(request_id, -32602, say("mcp_lone_surrogate", where=shown))


class AnsweringReader:
    """The SDK's read stream, with requests it could not parse answered on the write stream
    instead of dropped, and the lines the framing refused answered with their refusal."""

    def __init__(
        self, inner: Any, write_stream: Any, refusals: deque[Refusal] | None = None
    ) -> None:
        self._inner = inner
        self._write = write_stream
        self._refusals: deque[Refusal] = refusals if refusals is not None else deque()
        self.last_context = None

    async def receive(self) -> Any:
        from mcp.shared.message import SessionMessage
        from mcp_types import ErrorData, JSONRPCError
        from pydantic import ValidationError

        while True:
            item = await self._inner.receive()
            self.last_context = getattr(self._inner, "last_context", None)
            if not isinstance(item, ValidationError):
                return item
            errors = item.errors()
            unreadable = bool(errors) and errors[0].get("type") == "json_invalid"
            line = errors[0].get("input") if unreadable else None
            if line == REFUSED and self._refusals:
                answer: Refusal | None = self._refusals.popleft()
            else:
                answer = answer_for_unreadable(line) if isinstance(line, str) else None
            if answer is None:
                return item
            error = JSONRPCError(
                jsonrpc="2.0",
                id=answer.request_id,
                error=ErrorData(code=answer.code, message=answer.message, data=answer.data),
            )
            await self._write.send(SessionMessage(error))

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> AnsweringReader:
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnsweringReader:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def run_stdio(server: ToolServer) -> None:
    """`server.run("stdio")`, answering every request (the SDK's own stdio transport, reading
    our bounded lines)."""
    from mcp.server.stdio import stdio_server

    lowlevel = server.lowlevel()
    with claimed_stdin() as stdin:
        lines = BoundedLines(stdin)
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            await lowlevel.run(
                AnsweringReader(read_stream, write_stream, lines.refusals),
                write_stream,
                lowlevel.create_initialization_options(),
            )
