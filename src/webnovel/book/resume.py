"""Where a book stands, as `webnovel resume` briefs an author or agent picking the work up again:
the last chapter, the protagonist now, open threads and conflicts, what the next outline names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..memory.records import Conflict, Thread
from ..memory.schema import JsonRecord
from .book_texts import find_outline
from .coverage import coverage

if TYPE_CHECKING:
    from ..memory.read.aliases import AliasIndex
    from .reader import BookReader


@dataclass(frozen=True, kw_only=True)
class Named:
    id: str
    name: str


@dataclass(frozen=True, kw_only=True)
class LastChapter:
    title: str | None
    summary: str | None


@dataclass(frozen=True, kw_only=True)
class ProtagonistNow:
    id: str
    name: str
    now: dict[str, Any]  # field -> value, as of the last chapter


@dataclass(frozen=True, kw_only=True)
class Resume(JsonRecord):
    book: dict[str, Any]  # the book's title, genre and root, as `stats` gives them
    latest_chapter: int | None
    missing_chapters: tuple[int, ...]
    published_through: int | None  # the last chapter readers have (`publish --through`)
    last_chapter: LastChapter | None  # the latest chapter's title and summary
    protagonist: ProtagonistNow | None
    open_threads: tuple[Thread, ...]
    overdue_threads: tuple[Thread, ...]
    open_conflicts: tuple[Conflict, ...]
    next_chapter: int
    outline_found: bool  # outlines/ holds the next chapter's outline
    named_entities: tuple[Named, ...]  # whom that outline names
    text_only_chapters: tuple[Any, ...] = ()  # standing on their imported text alone
    coverage_line: str | None = None  # the Chinese line that says so

    def to_dict(self) -> dict[str, Any]:
        p, last = self.protagonist, self.last_chapter
        return {
            "book": self.book,
            "latest_chapter": self.latest_chapter,
            "missing_chapters": list(self.missing_chapters),
            "published_through": self.published_through,
            "last_chapter": {"title": last.title, "summary": last.summary} if last else None,
            "protagonist": {"id": p.id, "name": p.name, "now": p.now} if p else None,
            "open_threads": [t.to_dict() for t in self.open_threads],
            "overdue_threads": [t.to_dict() for t in self.overdue_threads],
            "open_conflicts": [c.to_dict() for c in self.open_conflicts],
            "next_chapter": {
                "chapter": self.next_chapter,
                "outline_found": self.outline_found,
                "named_entities": [{"id": e.id, "name": e.name} for e in self.named_entities],
            },
            "text_only_chapters": list(self.text_only_chapters),
        }


def where_it_stands(book: BookReader, aliases: Callable[[], AliasIndex]) -> Resume:
    """The brief `Project.resume` gives; `aliases`: the book's names, asked for only when the
    next chapter's outline is there to find them in."""
    latest = book.latest_chapter()
    next_chapter = (latest or 0) + 1
    protagonist = book.store.entities.protagonist()
    outline = find_outline(book.root, next_chapter)
    named: tuple[Named, ...] = ()
    if outline:
        seen = dict.fromkeys(m.entity_id for m in aliases().find(outline))
        named = tuple(Named(id=e.id, name=e.name) for e in map(book.entity, seen))
    last = book.store.commits.chapter_rows(start=latest or 0, end=latest or 0)
    covered = coverage(book.store.commits)
    return Resume(
        book=book.book,
        latest_chapter=latest,
        missing_chapters=tuple(book.missing_chapters()),
        published_through=book.store.commits.published_through(),
        last_chapter=LastChapter(title=last[0].title, summary=last[0].summary) if last else None,
        protagonist=ProtagonistNow(
            id=protagonist.id,
            name=protagonist.name,
            now={i.field: i.value for i in book.facts(protagonist.id)},
        )
        if protagonist
        else None,
        open_threads=tuple(book.threads("open")),
        overdue_threads=tuple(book.threads("overdue")),
        open_conflicts=tuple(book.conflicts()),
        next_chapter=next_chapter,
        outline_found=outline is not None,
        named_entities=named,
        text_only_chapters=tuple(covered["text_only_chapters"]),
        coverage_line=covered["line"],
    )
