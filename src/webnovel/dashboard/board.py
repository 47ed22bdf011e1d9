"""The dashboard's frame: the open book, the page token, and what every page is drawn in.

`Board` holds one open book and the page's token; each handler reads it on the event loop's
thread, so the book's connection is never used by two requests at once. The handlers stand on
it by what they answer: pages (page_routes.py), the writes (write_routes.py), the JSON and
event answers (api_routes.py); app.py gathers them into one `Dashboard` and names its routes.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..book.project import Project
from ..errors import InvalidInput
from ..messages import say
from .links import Links
from .live import CommitWatch
from .templating import render
from .view_models import context_of

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

PageView = Callable[[Request, int], Response | Awaitable[Response]]
LIVE_POLL_SECONDS = 1.0
# route names (app.create_app), each named by its catalogue key `nav_<route>`
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


class Board:
    """One open book and the page token: the chapter a request is shown as of, and the frame
    and error pages every handler answers in."""

    def __init__(self, book: Project) -> None:
        self.book = book
        self.token = secrets.token_urlsafe(32)
        self.watch = CommitWatch(book, LIVE_POLL_SECONDS)

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


def _active(here: str, path: str) -> bool:
    return here == path or (path != "/" and here.startswith(path + "/"))
