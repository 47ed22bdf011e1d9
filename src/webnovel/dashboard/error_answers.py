"""Every error of every dashboard route, answered one way: its status from the error's data;
`/api/…` answers JSON (`{"error", "code", "details"}`: docs/contract.md), a page the error page
in the frame (board.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import Surface, WebnovelError
from .board import SECURITY_HEADERS, Board

HTTP_CODES = {403: "forbidden", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def error_of(exc: Exception) -> tuple[int, dict[str, Any]]:
    """An error's HTTP status and its JSON: `{"error": sentence, "code", "details"}`. Ours
    carry both (errors.py); Starlette's own (a refused form, a token) are named by status."""
    if isinstance(exc, WebnovelError):
        said = exc.said(Surface.PAGE)
        return exc.http_status, {"error": said, "code": exc.code, "details": exc.details}
    status = int(getattr(exc, "status_code", 500))
    code = HTTP_CODES.get(status, "http_error")
    return status, {"error": str(getattr(exc, "detail", "") or exc), "code": code, "details": {}}


def error_answer(board: Board) -> Callable[[Request, Exception], Awaitable[Response]]:
    """The app's one exception handler, answering in `board`'s frame."""

    async def answer(request: Request, exc: Exception) -> Response:
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

    return answer
