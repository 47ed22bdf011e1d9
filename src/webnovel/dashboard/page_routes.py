"""The dashboard's pages: each handler is called with the chapter it is shown as of, reads the
book through the facade (a page function of pages.py or a `*_view.py` module fills its view
model) and answers it in the frame (board.py)."""

from __future__ import annotations

from dataclasses import replace

from starlette.requests import Request
from starlette.responses import Response

from ..book.project import Project
from ..book.rulebook import RECIPES
from ..book.words import ENTITY_TYPE, TASK
from ..errors import InvalidInput, UnknownChapter
from ..ingest.name_finder import Candidate
from ..messages import say
from . import chapter_view, graph_view, pages, rename_view, revise_view, threads_view
from .board import Board
from .form_numbers import bounded_int, written_chapter, written_number
from .view_models import CandidatesPage, context_of


class Pages(Board):
    """The pages, one handler each (app.py names their routes)."""

    def __init__(self, book: Project) -> None:
        super().__init__(book)
        self._candidates: tuple[tuple[int, int], list[Candidate]] | None = None

    def overview(self, request: Request, as_of: int) -> Response:
        return self.page(request, "overview.html", as_of, pages.overview(self.book, as_of))

    def characters(self, request: Request, as_of: int) -> Response:
        page = bounded_int(request.query_params.get("page"), 1, 1, 1_000_000)
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
        recent = bounded_int(params.get("recent"), 5, 1, 10_000)
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
        if (number := written_chapter(raw, "chapter")) is None:
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
        before = bounded_int(request.query_params.get("before"), 0, 0, as_of + 1) or None
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
