"""`webnovel mcp` on a book it refuses to open (a config refused, a link where the book's files
should be, a store it will not reach): the server still answers `initialize` and lists its
tools, and every call answers with the refusal as a tool error, `{"code", "message",
"details"}` (code e.g. `invalid_config`). An agent can then tell its author why, where a server
that exited before the handshake left it only "Connection closed"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn, cast

from ..errors import Surface, WebnovelError
from ..messages import say
from .server import create_server

if TYPE_CHECKING:
    from ..book.project import Project
    from .tools import ToolServer


class RefusedBook:
    """Stands where the open book would: whatever a tool asks of it raises the refusal, which
    the tool server answers as the tool's error."""

    def __init__(self, refusal: WebnovelError) -> None:
        self._refusal = refusal

    def __getattr__(self, name: str) -> NoReturn:
        raise self._refusal


def refused_server(refusal: WebnovelError) -> ToolServer:
    """The server's tools, prompt and resources as ever, each call answered with `refusal`;
    its instructions say the refusal first."""
    book: Any = RefusedBook(refusal)
    server = create_server(cast("Project", book))
    why = say("mcp_book_refused", why=refusal.said(Surface.MCP))
    server.instructions = f"{why}\n\n{server.instructions}"
    return server
