"""Which chapter results an import may replace, and a new text committed under a result that
stays.

`import text` run again, and `sync` of an imported chapter, make each chapter's result afresh
from its text. That is right only for a result the import made itself: one an agent, the author
or `extract` committed (a death, a realm, a thread) is their work, which the text alone cannot
give back. Such a chapter keeps its result: with the same text nothing happens to it; with a
new text the text is replaced and the chapter is marked stale (as `sync` does for a chapter
file edited by hand) until a new result is committed. A result is the import's own when it
holds nothing an import does not write: `webnovel result N` edited with a state change is no
longer one, though it still carries the import's mark."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..memory.read.reading import Reading
    from ..memory.records import CommitReport
    from ..memory.store.storage import Storage
    from ..memory.write.write_pipeline import WritePipeline


class TextSwapping(Protocol):
    """A book a new text is committed into, under the guard of its published line."""

    @property
    def storage(self) -> Storage: ...

    @property
    def store(self) -> Reading: ...

    @property
    def pipeline(self) -> WritePipeline: ...


@dataclass(frozen=True)
class Retake:
    """A chapter's new text from its file, to be committed with `result`: its stored result
    (`stale`: not made from this text) or the import's, made again from it."""

    chapter: int
    result: Any
    text: str
    source: str  # the file, as `text_source` keeps it
    stale: bool


def take_in(book: TextSwapping, retakes: list[Retake], force: bool) -> list[int]:
    """Commit each chapter's new text, each its own commit; every one is guarded before any is
    written, so a refusal (a published chapter's memory changed, without `force`) writes
    nothing. Returns the published chapters revised (logged as such: `guarded`)."""
    crossings = [guarded(book, r.result, r.chapter, r.text, force) for r in retakes]
    for retake, crossing in zip(retakes, crossings, strict=True):
        commit_guarded(
            book, retake.result, retake.chapter, retake.text, retake.source, retake.stale, crossing
        )
    revised = zip(retakes, crossings, strict=True)
    return sorted(r.chapter for r, crossing in revised if crossing is not None)


def guarded(book: TextSwapping, result: Any, chapter: int, text: str, force: bool) -> int | None:
    """Before a chapter's new text (and result) is committed: refused, naming what it would
    change, when it changes a published chapter's memory without `force`, as `import text`
    refuses; the published line when it revises a published chapter (forced, or its text
    alone: the log then says so), else None."""
    from .revising import guard_published

    return guard_published(book.store, book.pipeline, result, chapter, text, False, force)


def commit_guarded(
    book: TextSwapping,
    result: Any,
    chapter: int,
    text: str,
    source: str,
    stale: bool,
    crossing: int | None,
) -> CommitReport:
    """Commit a chapter's new text from its file `source` (with `result`; `stale`: a result
    not made from this text), logged as a revision of a published chapter when `crossing`
    (what `guarded` answered) says it is one."""
    from .revising import logged_as_published

    with logged_as_published(book.storage, crossing):
        return book.pipeline.commit(result, text, chapter, text_source=source, stale=stale)
