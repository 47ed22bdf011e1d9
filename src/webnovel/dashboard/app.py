"""The dashboard's web app: server-rendered pages over the facade, one book, as of any chapter.

Starlette serves it (uvicorn runs it): the pages are HTML made on the server from the templates
shipped in this package, with one small script for the chapter slider, lazy passages and live
refresh. Nothing is fetched from elsewhere, so it works offline.

Safety: it binds to loopback unless told otherwise and answers only to a loopback Host, in any
spelling (a web page elsewhere cannot reach it through DNS tricks); beyond this machine every
request needs the login token of the printed URL (access.py); files are served from the package's
static folder only; the writes (settling a conflict or a candidate name, renaming an entity,
committing a revised result) need the page's token, made anew each start and never sent in a
URL, and a same-origin request.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..book.project import Project
from ..book.rulebook import RECIPES
from ..book.words import ENTITY_TYPE, TASK
from ..errors import InvalidInput, Surface, UnknownChapter, UnknownQuery, WebnovelError
from ..ingest.name_finder import Candidate
from ..messages import say
from ..queries import QUERIES, find_query
from ..queries.arguments import checked_arguments
from . import chapter_view, graph_view, pages, rename_view, revise_view, threads_view
from .access import AccessGuard
from .form_numbers import written_number
from .links import Links
from .live import CommitWatch
from .templating import STATIC, render
from .view_models import CandidatesPage, context_of

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

PageView = Callable[[Request, int], Response | Awaitable[Response]]
HTTP_CODES = {403: "forbidden", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}
LIVE_POLL_SECONDS = 1.0
MAX_FORM_BYTES = (
    64_000  # settling a conflict posts a token, a note of 2,000 characters and two flags
)
REVISE_FORM_BYTES = 4_000_000  # a pasted chapter result (a commit takes up to 2 MB of JSON)
# route names (create_app), each named by its catalogue key `nav_<route>`
NAV = (
    "overview",
    "characters",
    "graph",
    "threads",
    "timeline",
    "conflicts",
    "candidates",
    "search",
    "pack",
    "revise",
)
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


class Dashboard:
    """One open book and the page token; each handler reads it on the event loop's thread, so
    the book's connection is never used by two requests at once."""

    def __init__(self, book: Project) -> None:
        self.book = book
        self.token = secrets.token_urlsafe(32)
        self.watch = CommitWatch(book, LIVE_POLL_SECONDS)
        self._candidates: tuple[tuple[int, int], list[Candidate]] | None = None

    def as_of(self, request: Request) -> int | None:
        latest = self.book.latest_chapter()
        if latest is None:
            return None
        raw = request.query_params.get("as_of")
        if raw is None or raw == "":
            return latest
        try:
            chapter = int(raw)
        except ValueError:
            raise InvalidInput.of("as_of_not_chapter", raw=raw) from None
        return min(max(chapter, 1), latest)

    def page(
        self, request: Request, template: str, as_of: int, view: DataclassInstance
    ) -> HTMLResponse:
        """A page from its view model (view_models.py) in the dashboard's frame."""
        return self.html(request, template, as_of, **context_of(view))

    def html(self, request: Request, template: str, as_of: int, **context: Any) -> HTMLResponse:
        html = render(template, **self.frame(request, as_of), **context)
        return HTMLResponse(html, headers=SECURITY_HEADERS)

    def frame(self, request: Request, as_of: int) -> dict[str, Any]:
        """What every page's frame shows: the book, the navigation, the chapter slider (which
        keeps the page's other parameters), the live-refresh sequence number, and the URL
        builder (`url_for`, `path_for`: links.py) its links are made with."""
        here = request.url.path
        links = Links(request.app.router, as_of)
        return {
            "title": self.book.book["title"] or say("untitled"),
            "nav": [
                (links.url_for(route), say(f"nav_{route}"), _active(here, links.path_for(route)))
                for route in NAV
            ],
            "as_of": as_of,
            "latest": self.book.latest_chapter(),
            "here": here,
            "keep": [(k, v) for k, v in request.query_params.items() if k != "as_of"],
            "url_for": links.url_for,
            "path_for": links.path_for,
            "seq": self.book.commit_seq(),
            "token": self.token,
            "fields": self.book.fields,  # the `field` filter names a field as this book does
        }

    # -- pages: each is called with the chapter it is shown as of ------------------------------

    def overview(self, request: Request, as_of: int) -> Response:
        return self.page(request, "overview.html", as_of, pages.overview(self.book, as_of))

    def characters(self, request: Request, as_of: int) -> Response:
        page = _bounded_int(request.query_params.get("page"), 1, 1, 1_000_000)
        view = pages.characters(self.book, as_of, page)
        return self.page(request, "characters.html", as_of, view)

    def character(
        self,
        request: Request,
        as_of: int,
        rename: rename_view.RenameControl | None = None,
        page_url: str | None = None,
    ) -> Response:
        """An entity's page, with its rename control (refilled after a refused rename, when the
        page is the answer to a POST and says its own address, `page_url`)."""
        entity = self.book.entity(request.path_params["entity_id"])
        known = {e.id: e for e in self.book.entities(as_of)}  # name and aliases as of then
        if entity.id not in known:
            return self.not_yet(request, as_of, say("dashboard_no_entity_yet", as_of=as_of))
        view = pages.character(self.book, known[entity.id], as_of)
        return self.html(
            request,
            "character.html",
            as_of,
            **context_of(view),
            rename=rename or rename_view.control(self.book, entity.id),
            done=request.query_params.get("done"),
            page_url=page_url,
        )

    def graph(self, request: Request, as_of: int) -> Response:
        params = request.query_params
        hops = 2 if params.get("hops") == "2" else 1
        recent = _bounded_int(params.get("recent"), 5, 1, 10_000)
        center = params.get("center") or None
        view = graph_view.graph(self.book, as_of, center, hops, recent)
        return self.html(request, "graph.html", as_of, view=view, **context_of(view))

    def threads(self, request: Request, as_of: int) -> Response:
        view = threads_view.threads_board(
            self.book, as_of, request.query_params.get("lane") or None
        )
        return self.page(request, "threads.html", as_of, view)

    def thread(self, request: Request, as_of: int) -> Response:
        view = threads_view.thread(self.book, request.path_params["thread_id"], as_of)
        if view is None:
            return self.not_yet(request, as_of, say("dashboard_no_thread_yet", as_of=as_of))
        return self.page(request, "thread.html", as_of, view)

    def chapter(self, request: Request, as_of: int) -> Response:
        raw = request.path_params["chapter"]
        if (number := written_number(raw)) is None:
            raise InvalidInput.of("chapter_not_digits", raw=raw[:40])
        if number > as_of:
            return self.not_yet(
                request, as_of, say("dashboard_chapter_after", as_of=as_of, chapter=number)
            )
        try:
            view = chapter_view.chapter(self.book, number)
        except UnknownChapter:
            return self.not_yet(request, as_of, say("unknown_chapter", chapter=number))
        return self.page(request, "chapter.html", as_of, view)

    def timeline(self, request: Request, as_of: int) -> Response:
        who = request.query_params.get("entity") or None
        entity = self.book.entity(who) if who else None
        before = _bounded_int(request.query_params.get("before"), 0, 0, as_of + 1) or None
        story = request.query_params.get("order") == "story"
        view = pages.timeline(self.book, as_of, entity, before, story)
        return self.page(request, "timeline.html", as_of, view)

    def conflicts(self, request: Request, as_of: int) -> Response:
        view = pages.conflicts(self.book, as_of)
        settled = request.query_params.get("settled")
        return self.page(request, "conflicts.html", as_of, replace(view, just_settled=settled))

    def candidates(self, request: Request, as_of: int) -> Response:
        """The names the texts (up to the chapter) suggest, to accept, merge or reject. Finding
        them segments every text, so the list is kept until the book's next commit."""
        key = (self.book.commit_seq(), as_of)
        if self._candidates is None or self._candidates[0] != key:
            found = self.book.candidates(as_of=as_of)
            self._candidates = (key, found)
        view = CandidatesPage(
            candidates=self._candidates[1],
            entity_types=tuple(ENTITY_TYPE),  # the stored values; the page labels them
            done=request.query_params.get("done"),
        )
        return self.page(request, "candidates.html", as_of, view)

    async def search(self, request: Request, as_of: int) -> Response:
        query = request.query_params.get("q", "")[:500]
        view = await self.book.long_reads().run(lambda book: pages.search(book, query, as_of))
        return self.page(request, "search.html", as_of, view)

    async def pack(self, request: Request, as_of: int) -> Response:
        task = request.query_params.get("task") or "chapter_write"
        if task not in RECIPES:
            choices = say("argument_list_separator").join(TASK.get(t, t) for t in RECIPES)
            raise InvalidInput.of("unknown_task", name=task, choices=choices)
        view = await self.book.long_reads().run(lambda book: pages.pack(book, as_of, task))
        return self.page(request, "pack.html", as_of, view)

    def revise(self, request: Request, as_of: int) -> Response:
        """改稿: paste a revised result, or pick a committed chapter's to edit."""
        chapter = request.query_params.get("chapter", "")
        view = revise_view.revise_page(
            self.book,
            chapter=written_number(chapter),
            done=request.query_params.get("done"),
        )
        return self.page(request, "revise.html", as_of, view)

    async def revise_impact(self, request: Request) -> Response:
        """What committing the pasted result would do: the facade's impact, which writes
        nothing (it takes the book's write lock while it runs, so it is a POST behind the
        page's token, as the writes are)."""
        form = await self._checked_form(request, REVISE_FORM_BYTES)
        if form is None:
            return Response(status_code=400)
        raw, chapter = revise_view.posted(form)
        try:
            found = self.book.impact(revise_view.parsed(raw), chapter=chapter)
        except WebnovelError as refused:  # nothing was written: the text stays as pasted
            return self.revise_refused(request, raw, chapter, refused)
        view = revise_view.revise_page(self.book, raw, found.chapter, found)
        return self.page(request, "revise.html", self.as_of(request) or 0, view)

    def revise_refused(
        self, request: Request, raw: str, chapter: int | None, refused: WebnovelError
    ) -> Response:
        """The 改稿 form again, the text as pasted and the reason beside it (a published
        chapter's refusal with its impact and the box that forces it)."""
        view = revise_view.refused_page(self.book, raw, chapter, refused)
        page = self.page(request, "revise.html", self.as_of(request) or 0, view)
        page.status_code = refused.http_status
        return page

    async def revise_commit(self, request: Request) -> Response:
        """Commit the revised result: the facade's commit, refused for a published chapter
        unless the page's box saying so is ticked (`--force`)."""
        form = await self._checked_form(request, REVISE_FORM_BYTES)
        if form is None:
            return Response(status_code=400)
        raw, chapter = revise_view.posted(form)
        force = (form.get("force") or [""])[0] == "1"
        try:
            report = self.book.commit(revise_view.parsed(raw), chapter=chapter, force=force)
        except WebnovelError as refused:  # a rejected commit writes nothing
            return self.revise_refused(request, raw, chapter, refused)
        self.book.flush()
        done = revise_view.done_text(report.chapter, report.status)
        as_of = (form.get("as_of") or [""])[0]
        links = Links(request.app.router, written_number(as_of))
        url = links.url_for("revise", chapter=report.chapter, done=done)
        return RedirectResponse(url, status_code=303)

    def shown(self, view: PageView) -> Callable[[Request], Awaitable[Response]]:
        """A page as an endpoint: read the chapter from the request, or say the book is empty.
        Endpoints are coroutines so that they run on the event loop's one thread, the book's;
        the pages that search are coroutines that await their answer from a worker thread on a
        second handle (book/long_reads.py), so a long search holds up no other page."""

        async def endpoint(request: Request) -> Response:
            as_of = self.as_of(request)
            if as_of is None:
                return self.empty(request)
            shown = view(request, as_of)
            return await shown if isinstance(shown, Awaitable) else shown

        return endpoint

    def empty(self, request: Request) -> HTMLResponse:
        return self.html(request, "empty.html", 0)

    def not_yet(self, request: Request, as_of: int, message: str) -> HTMLResponse:
        response = self.html(request, "error.html", as_of, message=message)
        response.status_code = 404
        return response

    # -- the writes ------------------------------------------------------------------------------

    async def resolve(self, request: Request) -> Response:
        """Settle a conflict from the page: the same facade call as `webnovel conflicts
        resolve`."""
        form = await self._checked_form(request)
        if form is None:  # the visitor left mid-request: nobody to answer, nothing done
            return Response(status_code=400)
        conflict_id = request.path_params["conflict_id"]
        note = (form.get("note") or [""])[0].strip()[:2000] or None
        intentional = (form.get("intentional") or [""])[0] == "1"
        self.book.resolve_conflict(conflict_id, intentional=intentional, note=note)
        self.book.flush()
        as_of = (form.get("as_of") or [""])[0]
        links = Links(request.app.router, written_number(as_of))
        return RedirectResponse(links.url_for("conflicts", settled=conflict_id), status_code=303)

    async def settle_candidate(self, request: Request) -> Response:
        """Accept, merge or reject a candidate name from the page: the same facade call as
        `webnovel candidates`, behind the same token and same-origin check as conflicts."""
        form = await self._checked_form(request)
        if form is None:
            return Response(status_code=400)
        name = (form.get("name") or [""])[0].strip()[:50]
        action = (form.get("action") or [""])[0]
        entity_type = (form.get("type") or ["角色"])[0]
        into = (form.get("into") or [""])[0].strip()[:100] or None
        done = self.book.settle_candidate(action, name, entity_type, into)
        self.book.flush()
        as_of = (form.get("as_of") or [""])[0]
        message = say(f"candidate_done_{done.action}")
        links = Links(request.app.router, written_number(as_of))
        done_url = links.url_for(
            "candidates", done=say("candidate_done_note", done=message, name=name)
        )
        return RedirectResponse(done_url, status_code=303)

    async def rename(self, request: Request) -> Response:
        """Rename the page's entity, or take its latest rename back: the same facade call as
        `webnovel rename`, behind the page's token and same-origin check as the other writes.
        A refusal is shown on the entity's page beside the form as it was filled in."""
        form = await self._checked_form(request)
        if form is None:
            return Response(status_code=400)
        entity = self.book.entity(request.path_params["entity_id"])
        posted = rename_view.Posted.of(form)
        shown = written_number((form.get("as_of") or [""])[0])
        try:
            done = rename_view.submit(self.book, entity.id, posted)
        except WebnovelError as refused:  # nothing was written
            reason = say("page_rename_refused", reason=refused.said(Surface.PAGE))
            control = rename_view.control(self.book, entity.id, posted, reason)
            latest = self.book.latest_chapter() or 0
            at = min(max(shown or latest, 1), latest)
            # the page's own address, so that reloading it (on a commit) asks no POST's URL
            here = Links(request.app.router, at).url_for("character", entity_id=entity.id)
            page = self.character(request, at, control, page_url=here)
            page.status_code = refused.http_status
            return page
        self.book.flush()
        if shown is not None and done.action == "renamed":  # show the new name where it holds
            shown = max(shown, done.from_chapter)
        links = Links(request.app.router, shown)
        url = links.url_for("character", entity_id=entity.id, done=rename_view.done_text(done))
        return RedirectResponse(url, status_code=303)

    async def _checked_form(
        self, request: Request, limit: int = MAX_FORM_BYTES
    ) -> dict[str, list[str]] | None:
        """A write's form, read within `limit` bytes, from this origin, with the page's token;
        None when the visitor left mid-request."""
        _same_origin(request)
        body = b""
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise HTTPException(413, say("form_too_big"))
        except ClientDisconnect:
            return None
        form = parse_qs(body.decode("utf-8", "replace"), max_num_fields=10)
        token = (form.get("token") or [""])[0]
        if not hmac.compare_digest(token.encode(), self.token.encode()):
            raise HTTPException(403, say("page_token_invalid"))
        return form

    # -- small answers -----------------------------------------------------------------------

    async def passage(self, request: Request) -> Response:
        as_of = self.as_of(request) or 0
        chapter = _bounded_int(request.query_params.get("chapter"), 0, 0, as_of)
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
        start = _bounded_int(request.query_params.get("seq"), -1, -1, 2**62)
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


def error_of(exc: Exception) -> tuple[int, dict[str, Any]]:
    """An error's HTTP status and its JSON: `{"error": sentence, "code", "details"}`. Ours
    carry both (errors.py); Starlette's own (a refused form, a token) are named by status."""
    if isinstance(exc, WebnovelError):
        said = exc.said(Surface.PAGE)
        return exc.http_status, {"error": said, "code": exc.code, "details": exc.details}
    status = int(getattr(exc, "status_code", 500))
    code = HTTP_CODES.get(status, "http_error")
    return status, {"error": str(getattr(exc, "detail", "") or exc), "code": code, "details": {}}


def _active(here: str, path: str) -> bool:
    return here == path or (path != "/" and here.startswith(path + "/"))


def _bounded_int(raw: str | None, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(raw or ""), low), high)
    except ValueError:
        return default


def _same_origin(request: Request) -> None:
    """A form posted from another site carries its own Origin: refuse it."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and origin.split("://", 1)[-1] != host:
        raise HTTPException(403, say("cross_site"))


def create_app(book: Project, login_token: str | None = None) -> Starlette:
    """The dashboard for an open book. Without `login_token` it answers only to a loopback
    Host; with one (listening beyond this machine), only to requests that hold the token."""
    board = Dashboard(book)

    async def error_answer(request: Request, exc: Exception) -> Response:
        """Every error of every route, one way: its status from the error's data; `/api/…`
        answers JSON (docs/contract.md), a page the Chinese error page."""
        status, error = error_of(exc)
        if request.url.path.startswith("/api/"):
            return JSONResponse(error, status_code=status, headers=SECURITY_HEADERS)
        response = board.html(
            request, "error.html", board.book.latest_chapter() or 0, message=error["error"]
        )
        response.status_code = status
        return response

    # Every route has a name: templates and redirects link to it by name (links.py).
    routes = [
        Route("/", board.shown(board.overview), name="overview"),
        Route("/characters", board.shown(board.characters), name="characters"),
        Route(
            "/characters/{entity_id:path}/rename",
            board.rename,
            methods=["POST"],
            name="rename_entity",
        ),
        Route("/characters/{entity_id:path}", board.shown(board.character), name="character"),
        Route("/graph", board.shown(board.graph), name="graph"),
        Route("/threads", board.shown(board.threads), name="threads"),
        Route("/threads/{thread_id:path}", board.shown(board.thread), name="thread"),
        Route("/chapters/{chapter}", board.shown(board.chapter), name="chapter"),
        Route("/timeline", board.shown(board.timeline), name="timeline"),
        Route("/conflicts", board.shown(board.conflicts), name="conflicts"),
        Route(
            "/conflicts/{conflict_id}/resolve",
            board.resolve,
            methods=["POST"],
            name="resolve_conflict",
        ),
        Route("/candidates", board.shown(board.candidates), name="candidates"),
        Route(
            "/candidates/settle",
            board.settle_candidate,
            methods=["POST"],
            name="settle_candidate",
        ),
        Route("/search", board.shown(board.search), name="search"),
        Route("/pack", board.shown(board.pack), name="pack"),
        Route("/revise", board.shown(board.revise), name="revise"),
        Route("/revise/impact", board.revise_impact, methods=["POST"], name="revise_impact"),
        Route("/revise/commit", board.revise_commit, methods=["POST"], name="revise_commit"),
        Route("/api/passage", board.passage, name="passage"),
        Route("/api/seq", board.seq, name="seq"),
        Route("/api/query/{name}", board.query, name="query"),
        Route("/events", board.events, name="events"),
        Route("/favicon.ico", board.favicon, name="favicon"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        board.book.flush()

    app = Starlette(
        routes=routes,
        middleware=[Middleware(AccessGuard, login_token=login_token)],
        exception_handlers={
            WebnovelError: error_answer,
            HTTPException: error_answer,
        },
        lifespan=lifespan,
    )
    app.state.dashboard = board
    return app
