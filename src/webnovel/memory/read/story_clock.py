"""The story clock as of a chapter, read from the book: the clock as each chapter ended
(`story_clock`, derived at commit by `write/time_rules.py`) is one row, so `clock`, the pack's
opening line, deadlines and ages cost a few index lookups at any length of book. Where scenes
are asked for one by one (the story timeline, a character's track), the chapters asked for are
folded again from the row before them (`memory.clock`); nothing from a later chapter is read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..clock import ClockFold, SceneTime, Stamp, due_day_of, fold_clock, read_time, scenes_told
from ..clock.ages import aged
from ..clock.answer import Deadline, StoryClock
from ..clock.expressions import DEFAULT_UNITS, PART_RANK
from ..store import clock_ops
from ..store.clock_ops import ClockRow
from ..store.connection import Connection

if TYPE_CHECKING:
    from ..records import TimelineEvent

UNREAD_SHOWN = 10  # the latest times the clock could not read, named in its answer
BEFORE_THE_BOOK = ClockRow(0, 1, 1, None)  # the clock before any chapter: day 1


def clock_row(conn: Connection, as_of: int | None) -> ClockRow:
    """The clock as chapter `as_of` ended (day 1 before the book)."""
    if as_of is not None and as_of < 1:
        return BEFORE_THE_BOOK
    return clock_ops.clock_at(conn, as_of) or BEFORE_THE_BOOK


def start_of(row: ClockRow) -> ClockFold:
    """A fold that goes on from the clock `row` keeps."""
    return ClockFold(day=row.day, day_latest=row.day_latest, part=row.part)


def stamps_between(
    conn: Connection, start: int, end: int, calendar: Mapping[str, int] | None = None
) -> list[Stamp]:
    """Every scene of chapters `start`..`end` on the clock (and each chapter's ending, its
    `scene` None), folded on from the clock as chapter `start` - 1 ended."""
    told = scenes_told(
        clock_ops.scenes_of(conn, start, end), clock_ops.ending_times(conn, start, end)
    )
    return fold_clock(told, calendar, start_of(clock_row(conn, start - 1))).stamps


def track(
    conn: Connection,
    entity_id: str,
    as_of: int | None,
    calendar: Mapping[str, int] | None = None,
    limit: int = 60,
) -> list[Stamp]:
    """Where one character was on which day: the scenes they are in, in the latest `limit`
    chapters up to `as_of` that have one, each placed on the story clock (a flashback's in
    the past where it happened), in the order told."""
    out: list[Stamp] = []
    for chapter in clock_ops.chapters_with(conn, entity_id, as_of, limit):
        out += [
            s for s in stamps_between(conn, chapter, chapter, calendar) if entity_id in s.characters
        ]
    return out


def story_clock(
    conn: Connection, as_of: int | None, calendar: Mapping[str, int] | None = None
) -> StoryClock:
    """The clock as of chapter `as_of`: day, part of day, the scene that set it, how long since
    the book began and since the chapter before, and the open deadlines in story time."""
    now = clock_row(conn, as_of)
    last = clock_ops.last_scene(conn, as_of) if as_of is None or as_of >= 1 else None
    chapter, scene = last if last is not None else (None, None)
    if now.part is not None and (chapter is None or now.chapter > chapter):
        chapter, scene = now.chapter, None  # an ending's time, after the last scene
    since_previous = None
    if chapter is not None:
        since_previous = now.day - clock_row(conn, chapter - 1).day
    return StoryClock(
        as_of=as_of,
        day=now.day,
        day_latest=now.day_latest,
        part=now.part,
        chapter=chapter,
        scene=scene,
        days_since_start=now.day - 1,
        days_since_previous_chapter=since_previous,
        deadlines=tuple(deadlines(conn, now, as_of, calendar)),
        unread=tuple(clock_ops.unread_times(conn, as_of, UNREAD_SHOWN)),
    )


def aged_value(
    conn: Connection,
    value: Any,
    said_chapter: int,
    as_of: int | None,
    calendar: Mapping[str, int] | None = None,
) -> Any:
    """An age said in chapter `said_chapter`, grown by the whole story years since, as of
    `as_of` (None: it has not moved, or is no age)."""
    said, now = clock_row(conn, said_chapter), clock_row(conn, as_of)
    return aged(value, said.day, now.day, {**DEFAULT_UNITS, **(calendar or {})}["年"])


def deadlines(
    conn: Connection,
    now: ClockRow,
    as_of: int | None,
    calendar: Mapping[str, int] | None = None,
) -> list[Deadline]:
    """The threads open as of `as_of` that are due in story time, soonest first: each due day
    counted from the clock as its planting chapter ended."""
    due = [row for row in clock_ops.threads_due_in_story_time(conn, as_of)]
    due = [row for row in due if row["state"].get("status") == "open"]
    planted = clock_ops.clock_rows(conn, [r["state"].get("planted_chapter") or 0 for r in due])
    out = []
    for row in due:
        state = row["state"]
        chapter = state.get("planted_chapter")
        start = planted.get(chapter or 0, BEFORE_THE_BOOK).day
        due_day = due_day_of(start, state["due_time"], calendar)
        out.append(
            Deadline(
                thread_id=row["id"],
                content=state.get("content") or "",
                due_time=state["due_time"],
                planted_chapter=chapter,
                due_day=due_day,
                days_left=None if due_day is None else due_day - now.day,
                overdue=due_day is not None and now.day > due_day,
                status=state.get("status", "open"),
            )
        )
    out.sort(key=lambda d: (d.due_day is None, d.due_day or 0, d.thread_id))
    return out


def story_timeline(
    conn: Connection,
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
    first, last = min(e.chapter for e in events), max(e.chapter for e in events)
    by_chapter: dict[int, list[Stamp]] = {}
    for stamp in stamps_between(conn, first, last, calendar):
        if stamp.scene is not None:
            by_chapter.setdefault(stamp.chapter, []).append(stamp)
    starts = {e.chapter: clock_row(conn, e.chapter - 1) for e in events}
    placed = [
        _place(event, starts[event.chapter], by_chapter.get(event.chapter, []), calendar)
        for event in events
    ]
    return sorted(placed, key=_story_order)


def _place(
    event: TimelineEvent,
    start: ClockRow,
    scenes: list[Stamp],
    calendar: Mapping[str, int] | None,
) -> TimelineEvent:
    match = [s for s in scenes if event.location and s.location == event.location]
    if len(match) > 1 and event.participants:
        match = [s for s in match if set(s.characters) & set(event.participants)] or match
    reading = read_time(event.time_hint, calendar) if event.time_hint else None
    if match:
        scene = match[0]
        if (
            reading is None
            or not reading.readable
            or reading.simultaneous
            or scene.mode is not None
            or scene.day is None
            or event.time_hint == scene.time
        ):
            return _at(event, scene)
        if reading.direction != "back" and not (reading.days and reading.days[1] > 0):
            # a time of day (日落, 当天夜里) goes on from where the scene's clock stood (a
            # scene that says no time carries the last chapter's ending): 日落 after 清晨 is
            # that day's 黄昏, 黎明 after 子时 the next day's
            return _at(event, _went_on(scene, event, calendar))
        # a distance of days (第七天, 三天后, 十年前) is the event's own: counted below from
        # its chapter's start, as an event with no scene of its place is
    if event.time_hint:
        back = read_time(event.time_hint, calendar).direction == "back"
        mode = event.flashback or ("flashback" if back else None)
        hinted = fold_clock(
            [SceneTime(chapter=event.chapter, scene=None, time=event.time_hint, mode=mode)],
            calendar,
            start_of(start),
        ).stamps[-1]
        if not hinted.unread:
            return _at(event, hinted)
    if scenes:
        return _at(event, scenes[0])
    return replace(event, placed=True, day=start.day, part=start.part)


def _went_on(scene: Stamp, event: TimelineEvent, calendar: Mapping[str, int] | None) -> Stamp:
    """The clock folded on from `scene`'s stamp (one of the present: it has a day) by the
    event's own time."""
    if scene.day is None:
        return scene
    latest = scene.day if scene.day_latest is None else scene.day_latest
    at = ClockFold(day=scene.day, day_latest=latest, part=scene.part)
    told = SceneTime(chapter=event.chapter, scene=None, time=event.time_hint)
    stamp = fold_clock([told], calendar, at).stamps[-1]
    return scene if stamp.unread else stamp


def _at(event: TimelineEvent, stamp: Stamp) -> TimelineEvent:
    return replace(
        event, placed=True, day=stamp.day, part=stamp.part, flashback=event.flashback or stamp.mode
    )


def _story_order(event: TimelineEvent) -> tuple[int, int, int]:
    day = event.day if event.day is not None else -(2**62)  # a memory of no stated time: first
    return day, PART_RANK.get(event.part or "", -1), event.chapter
