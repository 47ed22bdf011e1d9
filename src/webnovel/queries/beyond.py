"""A question asked past the book's end: `--as-of 99` on a 12-chapter book, or the pack for
chapter 200. Memory answers as of its last chapter, which is right; saying nothing let a reader
believe chapter 99 was known. The CLI says so on stderr, and an answer that is a JSON object
carries `beyond_end` (docs/contract.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..messages import say

if TYPE_CHECKING:
    from ..book.project import Project
    from .declare import Query


@dataclass(frozen=True)
class BeyondEnd:
    asked: int
    latest_chapter: int
    pack: bool  # the pack for a chapter (N-1 is its as-of), else an as-of

    def to_dict(self) -> dict[str, int]:
        return {"asked": self.asked, "latest_chapter": self.latest_chapter}

    def note(self) -> str:
        key = "pack_beyond_end" if self.pack else "as_of_beyond_end"
        return say(key, asked=self.asked, latest=self.latest_chapter)


def beyond_end(book: Project, query: Query[Any], arguments: Mapping[str, Any]) -> BeyondEnd | None:
    """What was asked past the book's last chapter, or None (an empty book answers for itself)."""
    latest = book.latest_chapter() or 0
    if latest == 0:
        return None
    if query.name == "pack":
        chapter = arguments.get("chapter")
        if isinstance(chapter, int) and chapter > latest + 1:
            return BeyondEnd(chapter, latest, pack=True)
        return None
    as_of = arguments.get("as_of")
    if isinstance(as_of, int) and not isinstance(as_of, bool) and as_of > latest:
        return BeyondEnd(as_of, latest, pack=False)
    return None


def with_note(data: Any, beyond: BeyondEnd | None) -> Any:
    """An answer's JSON, an object of it carrying `beyond_end` when it was asked past the end."""
    if beyond is None or not isinstance(data, dict):
        return data
    return {**data, "beyond_end": beyond.to_dict()}
