"""The timeline page in story time: the clock as of the page's chapter, the events in the order
they happen (`?order=story`), and one character's track, where they were on which day (a
Gantt-like list that stays one column on a phone)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from ..book.words import SCENE_MODE, clock_lines, label, when_words
from .view_models import TrackRow

if TYPE_CHECKING:
    from ..book.project import Project
    from ..book.values import Stamp, TimelineEvent

TRACK_CHAPTERS = 60  # the latest chapters of a character's track on one page


def clock_shown(book: Project, as_of: int) -> list[str]:
    """The clock's lines (day, how long since, deadlines), or none for a book that says no
    time."""
    clock = book.clock(as_of)
    if clock.chapter is None and not clock.deadlines:
        return []
    return clock_lines(clock)


def track(book: Project, entity_id: str, as_of: int) -> list[TrackRow]:
    """A character's scenes on the story clock, the scenes in one place on consecutive days
    of the present as one row; a memory is a row of its own."""
    rows: list[TrackRow] = []
    run: list[Stamp] = []
    for stamp in book.track(entity_id, as_of=as_of, limit=TRACK_CHAPTERS):
        if run and (stamp.mode or run[-1].mode or stamp.location != run[-1].location):
            rows.append(_row(run))
            run = []
        run.append(stamp)
    if run:
        rows.append(_row(run))
    longest = max((r.days for r in rows), default=1)
    return [_scaled(r, longest) for r in rows]


def _row(run: list[Stamp]) -> TrackRow:
    first, last = run[0], run[-1]
    start, end = first.day, last.day_latest if last.day_latest is not None else last.day
    part = (first.part or None) if len(run) == 1 else None  # several scenes span parts
    if start is None or end is None or start == end or start < 1:
        when = when_words(start, first.day_latest, part)
    else:
        when = when_words(start, end, part)  # 第5～45天
    chapters = sorted({s.chapter for s in run})
    return TrackRow(
        when=when,
        location=first.location or "",
        memory=label(SCENE_MODE, first.mode) if first.mode else "",
        chapter_from=chapters[0],
        chapter_to=chapters[-1],
        days=1 if start is None or end is None else max(1, end - start + 1),
        width=0,
    )


def _scaled(row: TrackRow, longest: int) -> TrackRow:
    """The bar's width: the days spent, on a log scale (a day and three years both show)."""
    share = math.log1p(row.days) / math.log1p(max(longest, 1))
    return replace(row, width=max(6, round(100 * share)))


def story_day(event: TimelineEvent) -> str:
    """An event's place on the story clock: 第2天夜, 开篇前3599天 回忆."""
    mode = " " + label(SCENE_MODE, event.flashback) if event.flashback else ""
    return when_words(event.day, part=event.part or None) + mode
