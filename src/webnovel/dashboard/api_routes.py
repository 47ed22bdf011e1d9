"""The dashboard's small answers beside its pages: a lazy evidence passage, the query table's
JSON (`/api/query/NAME`, docs/contract.md), the commit sequence, the server-sent events that
reload a page on a commit, and the favicon."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse

from ..errors import UnknownQuery
from ..queries import QUERIES, find_query
from ..queries.arguments import checked_arguments
from .board import SECURITY_HEADERS, Board
from .form_numbers import bounded_int
from .templating import STATIC


class Answers(Board):
    """The answers that are not pages (app.py names their routes)."""

    async def passage(self, request: Request) -> Response:
        as_of = self.as_of(request) or 0
        chapter = bounded_int(request.query_params.get("chapter"), 0, 0, as_of)
        quote = request.query_params.get("quote") or None
        text = self.book.passage(chapter, quote) if chapter else None
        return JSONResponse({"chapter": chapter, "passage": text}, headers=SECURITY_HEADERS)

    async def query(self, request: Request) -> Response:
        """`/api/query/NAME?ARG=…`: a query of the table (queries/table.py) as its JSON, named as
        the CLI or the MCP tool names it, with the arguments its MCP tool takes; a `Link` header
        names the page that shows it, where the table declares one."""
        name = request.path_params["name"]
        try:
            query = find_query(QUERIES, name)
        except KeyError:
            raise UnknownQuery.of("no_such_query", name=name) from None
        # an error (ours, the store's) is answered as JSON by the app's one handler
        arguments = checked_arguments(name, query.mcp_args, request.query_params, text=True)
        arguments["record"] = False  # a look, not a pack given to an agent: never logged
        if query.long:  # a search: in a worker thread, while other requests are answered
            data = await self.book.long_reads().run(
                lambda book: query.to_json(query.run(book, arguments))
            )
        else:
            data = query.to_json(query.run(self.book, arguments))
        headers = dict(SECURITY_HEADERS)
        if (page := query.page_url(arguments)) is not None:  # the page showing it, declared
            headers["Link"] = f'<{page}>; rel="alternate"; type="text/html"'
        return JSONResponse(data, headers=headers)

    async def seq(self, request: Request) -> Response:
        return JSONResponse(
            {"seq": self.book.commit_seq(), "latest_chapter": self.book.latest_chapter()}
        )

    async def events(self, request: Request) -> Response:
        """Server-sent events: `commit` with the new sequence number whenever the book's commit
        sequence moves, whoever committed (the CLI, an MCP server, this page)."""
        start = bounded_int(request.query_params.get("seq"), -1, -1, 2**62)
        client = request.client.host if request.client else ""

        async def stream() -> AsyncIterator[str]:
            # one watcher wakes every stream (live.py); a client's oldest beyond its cap closes
            opened = self.watch.open(client)
            try:
                last = self.watch.seq() if start < 0 else start
                yield "retry: 2000\n\n"
                while not opened.closed.is_set() and not await request.is_disconnected():
                    now = await self.watch.change_after(last, opened)
                    if now != last:
                        last = now
                        yield f"event: commit\ndata: {json.dumps({'seq': now})}\n\n"
                    else:
                        yield ": still here\n\n"
            finally:
                self.watch.close(client, opened)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    async def favicon(self, request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
