"""The 改稿 page: a revised chapter result, pasted or picked from a committed chapter, and what
committing it would do, chapter by chapter, with the published line drawn where readers stand."""

from __future__ import annotations

import json

from ..book.project import Project
from ..book.revising import change_text, summary
from ..book.values import Impact
from ..messages import say
from .view_models import ImpactGroup, ImpactLine, RevisePage


def revise_page(
    book: Project,
    result_text: str = "",
    chapter: int | None = None,
    found: Impact | None = None,
    done: str | None = None,
) -> RevisePage:
    """The page: the result to revise (a committed chapter's own, when only its number is
    given), and the impact when it was asked for."""
    if not result_text and chapter is not None:
        stored = book.stored_commit(chapter)
        if stored is not None:
            result_text = json.dumps(stored["result"], ensure_ascii=False, indent=2)
    line = book.store.commits.published_through()
    groups = impact_groups(found, line) if found is not None else []
    return RevisePage(
        result_text=result_text,
        chapter=chapter,
        published_through=line,
        impact=found,
        summary=summary(found) if found is not None else "",
        changed=[change_text(c) for c in found.changed] if found is not None else [],
        groups=groups,
        line_drawn_first=line is not None and bool(groups) and groups[0].chapter > line,
        done=done,
    )


def impact_groups(found: Impact, line: int | None) -> list[ImpactGroup]:
    """The impact by chapter, in order; the published line falls after the last published."""
    by_chapter: dict[int, list[ImpactLine]] = {}
    for record in found.records:
        at = record.chapter or found.chapter
        by_chapter.setdefault(at, []).append(ImpactLine(kind="change", text=change_text(record)))
    for c in found.conflicts_added:
        by_chapter.setdefault(c.chapter, []).append(ImpactLine(kind="added", text=c.message))
    for c in found.conflicts_removed:
        by_chapter.setdefault(c.chapter, []).append(ImpactLine(kind="removed", text=c.message))
    chapters = sorted(by_chapter)
    groups = []
    for i, chapter in enumerate(chapters):
        published = line is not None and chapter <= line
        following = chapters[i + 1] if i + 1 < len(chapters) else None
        line_after = published and (following is None or following > (line or 0))
        groups.append(
            ImpactGroup(
                chapter=chapter,
                published=published,
                lines=by_chapter[chapter],
                line_after=line_after,
            )
        )
    return groups


def done_text(chapter: int, status: str) -> str:
    return say(f"revise_done_{status}", chapter=chapter)
