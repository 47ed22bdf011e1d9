"""The facade's work for a memory pack: the request made whole (the next chapter by default, the
book's outline file, a draft's entities as the focus, a template's weights), the pack built over
the book's held rankings, and its size recorded for the dashboard."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..errors import WebnovelError
from .book_texts import find_outline
from .coverage import coverage
from .reader import BookReader, chapter_number

if TYPE_CHECKING:
    from ..memory.packs.memory_pack import MemoryPack, Retriever
    from ..memory.packs.orchestrator import RankingCache
    from ..memory.read.aliases import AliasIndex
    from ..memory.write.chapter_inputs import ChapterResult


def build_pack(
    book: BookReader,
    names: AliasIndex,
    retriever: Retriever | None,
    held: RankingCache,
    *,
    task: str,
    chapter: int | None,
    outline: str | None,
    query: str | None,
    budget_tokens: int | None,
    weights: dict[str, float] | None,
    draft: ChapterResult | None,
    record: bool,
    template: str | None,
) -> MemoryPack:
    """`Project.build_memory_pack`'s pack, with the book's names, the search that finds its
    passages and `held`, the handle's rankings between packs; `draft` already read."""
    from ..memory.packs import pack_log
    from ..memory.packs.memory_pack import PackRequest
    from ..memory.packs.orchestrator import build_memory_pack
    from ..memory.packs.recipes import RECIPES
    from ..memory.packs.tasks import task_named, template_weights

    focus: tuple[str, ...] = ()
    if draft is not None:
        chapter = draft.chapter
        focus = tuple(_draft_entities(book, draft))
    if chapter is None:
        chapter = (book.latest_chapter() or 0) + 1
    chapter_number(chapter, "chapter")
    if outline is None and query is None and draft is None:
        outline = find_outline(book.root, chapter)
    named = task_named(task)
    if template is not None:
        weights = {**template_weights(template), **(weights or {})}
    recipe = RECIPES[named].weighted(weights) if weights else None
    request = PackRequest(
        task=named,
        chapter=chapter,
        outline=outline,
        query=query,
        budget_tokens=budget_tokens,
        focus=focus,
    )
    started = time.perf_counter()
    pack = build_memory_pack(
        book.storage.conn, book.config, names, request, recipe, retriever, held=held
    )
    # the chapters before this one whose memory is stale (edited by hand, `sync`): said
    pack.stale_chapters = [c for c in book.store.commits.stale_chapters() if c < chapter]
    covered = coverage(book.store.commits, before=chapter)
    pack.text_only_chapters = covered["text_only_chapters"]
    pack.coverage_line = covered["line"]
    if record:
        elapsed_ms = (time.perf_counter() - started) * 1000
        pack_log.record(book.storage.pack_log_path, pack, elapsed_ms)
    return pack


def _draft_entities(book: BookReader, draft: ChapterResult) -> list[str]:
    """The entities a draft touches, as the book knows them (unknown or ambiguous references
    are left to the review, which reports them)."""
    references = [
        *(a.ref for a in draft.entities_appeared),
        *(c.ref for c in draft.state_changes),
        *(r for rel in draft.relationships for r in (rel.source_ref, rel.target_ref)),
        *(p for e in draft.timeline_events for p in e.participants),
        *(c for s in draft.scenes for c in s.characters),
        *(r for t in draft.threads for r in t.related),
    ]
    found = []
    for reference in dict.fromkeys(references):
        try:
            found.append(book.entity(reference).id)
        except WebnovelError:
            continue
    return list(dict.fromkeys(found))
