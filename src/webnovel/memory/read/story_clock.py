"""The story clock as of a chapter, read from the book: its scenes' stated times and its
chapters' ending times, folded by `memory.clock` (nothing from a later chapter is read), with
the threads due in story time and the events of the timeline placed on it.

Computed on read: the fold is arithmetic over the scenes that state a time, and the reader of
each expression is cached, so the clock stays within a pack's budget without a derived table
that every revision of an early chapter would have to rewrite."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..clock import ClockFold, SceneTime, Stamp, due_day_of, fold_clock, read_time, scenes_told
from ..clock.answer import Deadline, StoryClock
from ..clock.expressions import PART_RANK
from ..schema import TimelineEvent
from ..store import clock_ops

UNREAD_SHOWN = 10  # the latest times the clock could not read, named in its answer


def clock_fold(
    conn: sqlite3.Connection,
    as_of: int | None,
    calendar: Mapping[str, int] | None = None,
    every: bool = False,
) -> ClockFold:
    """Chapters 1..`as_of` folded onto the clock: the scenes that say a time or are not now
    (`every`: all scenes, with who is where), each chapter's ending after its scenes."""
    return fold_clock(_scene_times(conn, as_of, every), calendar)


def _scene_times(conn: sqlite3.Connection, as_of: int | None, every: bool) -> list[SceneTime]:
    return scenes_told(
        clock_ops.story_scenes(conn, as_of, every), clock_ops.ending_times(conn, as_of)
    )


def story_clock(
    conn: sqlite3.Connection, as_of: int | None, calendar: Mapping[str, int] | None = None
) -> StoryClock:
    """The clock as of chapter `as_of`: day, part of day, the scene that set it, how long since
    the book began and since the chapter before, and the open deadlines in story time."""
    fold = clock_fold(conn, as_of, calendar)
    last = clock_ops.last_scene(conn, as_of)
    chapter, scene = last if last is not None else (None, None)
    if fold.last_present is not None and (chapter is None or fold.last_present.chapter > chapter):
        chapter, scene = fold.last_present.chapter, fold.last_present.scene  # an ending's time
    since_previous = None
    if chapter is not None:
        before = fold.stamp_at(chapter - 1)
        since_previous = fold.day - (before.day or 1 if before is not None else 1)
    unread = [s for s in fold.stamps if s.unread][-UNREAD_SHOWN:]
    return StoryClock(
        as_of=as_of,
        day=fold.day,
        day_latest=fold.day_latest,
        part=fold.part,
        chapter=chapter,
        scene=scene,
        days_since_start=fold.day - 1,
        days_since_previous_chapter=since_previous,
        deadlines=tuple(deadlines(conn, fold, as_of, calendar)),
        unread=tuple(f"{s.chapter}:{s.scene or ''}:{s.time}" for s in unread),
    )


def deadlines(
    conn: sqlite3.Connection,
    fold: ClockFold,
    as_of: int | None,
    calendar: Mapping[str, int] | None = None,
    every_status: bool = False,
) -> list[Deadline]:
    """The threads open as of `as_of` (`every_status`: all) that are due in story time, soonest
    first: each due day counted from the clock as its planting chapter ended."""
    out = []
    for row in clock_ops.threads_due_in_story_time(conn, as_of):
        state = row["state"]
        if state.get("status") != "open" and not every_status:
            continue
        due_time = state["due_time"]
        planted = state.get("planted_chapter")
        due_day = due_day_of(fold, planted, due_time, calendar)
        out.append(
            Deadline(
                thread_id=row["id"],
                content=state.get("content") or "",
                due_time=due_time,
                planted_chapter=planted,
                due_day=due_day,
                days_left=None if due_day is None else due_day - fold.day,
                overdue=due_day is not None and fold.day > due_day and state["status"] == "open",
                status=state.get("status", "open"),
            )
        )
    out.sort(key=lambda d: (d.due_day is None, d.due_day or 0, d.thread_id))
    return out


def story_timeline(
    conn: sqlite3.Connection,
    events: Iterable[TimelineEvent],
    as_of: int | None,
    calendar: Mapping[str, int] | None = None,
) -> list[TimelineEvent]:
    """`events` placed on the story clock and ordered by it: each at the scene of its chapter
    that shares its place (and people), else by its own time counted from its chapter's start,
    else at its chapter's first scene. A flashback's event falls in the past where it belongs."""
    events = list(events)
    if not events:
        return []
    fold = clock_fold(
        conn, as_of if as_of is not None else max(e.chapter for e in events), calendar, every=True
    )
    by_chapter: dict[int, list[Stamp]] = {}
    for stamp in fold.stamps:
        if stamp.scene is not None:
            by_chapter.setdefault(stamp.chapter, []).append(stamp)
    placed = [_place(event, fold, by_chapter.get(event.chapter, []), calendar) for event in events]
    return sorted(placed, key=_story_order)


def _place(
    event: TimelineEvent,
    fold: ClockFold,
    scenes: list[Stamp],
    calendar: Mapping[str, int] | None,
) -> TimelineEvent:
    match = [s for s in scenes if event.location and s.location == event.location]
    if len(match) > 1 and event.participants:
        match = [s for s in match if set(s.characters) & set(event.participants)] or match
    if match:
        return _at(event, match[0])
    start = fold.stamp_at(event.chapter - 1)
    if event.time_hint:
        base = ClockFold()
        if start is not None and start.day is not None and start.day_latest is not None:
            base = ClockFold(day=start.day, day_latest=start.day_latest, part=start.part)
            base.last_present = start
        mode = "flashback" if read_time(event.time_hint, calendar).direction == "back" else None
        hinted = fold_clock(
            [SceneTime(chapter=event.chapter, scene=None, time=event.time_hint, mode=mode)],
            calendar,
            base,
        ).stamps[-1]
        if not hinted.unread:
            return _at(event, hinted)
    if scenes:
        return _at(event, scenes[0])
    return _at(event, fold.stamp_at(event.chapter) or start)


def _at(event: TimelineEvent, stamp: Stamp | None) -> TimelineEvent:
    if stamp is None:
        return replace(event, placed=True, day=1)
    return replace(
        event,
        placed=True,
        day=stamp.day,
        part=stamp.part,
        flashback=event.flashback or stamp.mode,
    )


def _story_order(event: TimelineEvent) -> tuple[int, int, int, int]:
    day = event.day if event.day is not None else -(2**62)  # a memory of no stated time: first
    rank = PART_RANK.get(event.part or "", -1)
    return day, rank, event.chapter, 0
