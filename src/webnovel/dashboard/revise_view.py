"""The 改稿 page: a revised chapter result, pasted or picked from a committed chapter, and what
committing it would do, chapter by chapter, with the published line drawn where readers stand."""

from __future__ import annotations

import json
from typing import Any

from ..book.project import Project
from ..book.revising import change_text, summary
from ..book.values import Impact
from ..errors import InvalidInput, Surface, WebnovelError
from ..messages import say
from ..untrusted.json_limits import JsonTooBig, loads, why_not_json
from .form_numbers import BEYOND, written_number
from .view_models import ImpactGroup, ImpactLine, RevisePage


def revise_page(
    book: Project,
    result_text: str = "",
    chapter: int | None = None,
    found: Impact | None = None,
    done: str | None = None,
    error: str | None = None,
) -> RevisePage:
    """The page: the result to revise (a committed chapter's own, when only its number is
    given), and the impact when it was asked for."""
    if not result_text and chapter is not None and chapter < BEYOND:  # beyond: as if not given
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
        error=error,
    )


def refused_page(
    book: Project, raw: str, chapter: int | None, refused: WebnovelError
) -> RevisePage:
    """The form again after a paste or a commit refused: the text exactly as pasted (an edit
    is not lost to a missing brace), the reason beside it, and for a published chapter the
    impact its refusal carries, with the box that forces the commit."""
    found = getattr(refused, "impact", None)
    found = found if isinstance(found, Impact) else None
    error = say("page_revise_refused", reason=refused.said(Surface.PAGE))
    return revise_page(book, raw, chapter if found is None else found.chapter, found, error=error)


def posted(form: dict[str, list[str]]) -> tuple[str, int | None]:
    """A 改稿 form's result as pasted, and its chapter when given."""
    raw = (form.get("result") or [""])[0]
    return raw, written_number((form.get("chapter") or [""])[0].strip())


def parsed(raw: str) -> Any:
    """The pasted result's JSON; a refusal that says where and why it is not JSON."""
    if not raw.strip():
        raise InvalidInput.of("revise_needs_result")
    try:  # bounded: a paste nested thousands deep is refused, not a crash
        return loads(raw, say("page_result_json"))
    except JsonTooBig:
        raise
    except json.JSONDecodeError as exc:
        raise InvalidInput.of("not_json_input", why=why_not_json(exc)) from exc


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
