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

Its handlers are gathered here from the modules that hold them by what they answer: the frame
(board.py), the pages (page_routes.py), the writes (write_routes.py), the JSON and event
answers (api_routes.py) and every error (error_answers.py); this module names their routes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..book.project import Project
from ..errors import WebnovelError
from .access import AccessGuard
from .api_routes import Answers
from .error_answers import error_answer
from .templating import STATIC
from .write_routes import Writes


class Dashboard(Writes, Answers):
    """One open book and the page token, with every handler: the pages and the writes
    (write_routes.py, on page_routes.py), the small answers (api_routes.py), all in the frame
    of board.py."""


def create_app(book: Project, login_token: str | None = None) -> Starlette:
    """The dashboard for an open book. Without `login_token` it answers only to a loopback
    Host; with one (listening beyond this machine), only to requests that hold the token."""
    board = Dashboard(book)

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

    answer_error = error_answer(board)
    app = Starlette(
        routes=routes,
        middleware=[Middleware(AccessGuard, login_token=login_token)],
        exception_handlers={
            WebnovelError: answer_error,
            HTTPException: answer_error,
        },
        lifespan=lifespan,
    )
    app.state.dashboard = board
    return app
