"""The dashboard's writes: settling a conflict or a candidate name, renaming an entity, and the
改稿 form (a revised result's impact, then its commit). Each is the facade call the CLI makes,
behind the page's token (made anew each start, never sent in a URL) and a same-origin check,
its form read within a byte limit. A refusal writes nothing and is shown beside the form as it
was filled in (the entity's page, the 改稿 page), which is why the writes stand on the pages."""

from __future__ import annotations

import hmac
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import RedirectResponse, Response

from ..errors import Surface, WebnovelError
from ..messages import say
from . import rename_view, revise_view
from .form_numbers import written_number
from .links import Links
from .page_routes import Pages

MAX_FORM_BYTES = (
    64_000  # settling a conflict posts a token, a note of 2,000 characters and two flags
)
REVISE_FORM_BYTES = 4_000_000  # a pasted chapter result (a commit takes up to 2 MB of JSON)


class Writes(Pages):
    """The POST handlers (app.py names their routes)."""

    async def revise_impact(self, request: Request) -> Response:
        """What committing the pasted result would do: the facade's impact, which writes
        nothing (it takes the book's write lock while it runs, so it is a POST behind the
        page's token, as the writes are)."""
        form = await self.checked_form(request, REVISE_FORM_BYTES)
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
        form = await self.checked_form(request, REVISE_FORM_BYTES)
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

    async def resolve(self, request: Request) -> Response:
        """Settle a conflict from the page: the same facade call as `webnovel conflicts
        resolve`."""
        form = await self.checked_form(request)
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
        form = await self.checked_form(request)
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
        form = await self.checked_form(request)
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

    async def checked_form(
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


def _same_origin(request: Request) -> None:
    """A form posted from another site carries its own Origin: refuse it."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and origin.split("://", 1)[-1] != host:
        raise HTTPException(403, say("cross_site"))
