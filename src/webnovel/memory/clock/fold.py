"""The story clock: the scenes of chapters 1..N, in the order told, folded into a day and a part
of day for each. Pure: rows in, stamps out.

Day 1 is the book's first scene. A flashback's own relative times (十年前, then 次日) count
within its chapter. A relative time (次日, 三日后) counts from the scene before; a
bare part of day (清晨) is the same day unless it comes earlier than the part before, when the
night between is inferred (and said, `unstated_night`). A flashback is placed in the past (十年前
from the present) and moves no clock; a dream happens now and moves none either. A vague span
(数日后) keeps a range, lowest and highest day. What cannot be read leaves the day as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .expressions import PART_RANK, TimeReading, read_time


@dataclass(frozen=True, kw_only=True, slots=True)
class SceneTime:
    """A scene as the clock reads it. `scene` None is the chapter's ending
    (`chapter_meta.ending.time`), read after its last scene."""

    chapter: int
    scene: int | None
    time: str | None = None
    mode: str | None = None  # None: the story's present; "flashback" or "dream"
    location: str | None = None
    characters: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Stamp:
    """Where a scene falls on the story clock. `day` is the earliest day it can be and
    `day_latest` the latest (equal unless a vague span came before); both None for a flashback
    whose time is not said. `moment` is shared by scenes at the same story moment (同一时刻)."""

    chapter: int
    scene: int | None
    day: int | None
    day_latest: int | None
    part: str | None
    mode: str | None = None
    time: str | None = None
    moment: int = 0
    location: str | None = None
    characters: tuple[str, ...] = ()
    unread: bool = False  # its time could not be read: the day was left as it was
    backwards: bool = False  # a present scene earlier than the one before it
    inferred_night: bool = False  # an earlier part of day with no stated passage: next day

    @property
    def present(self) -> bool:
        return self.mode is None


@dataclass
class ClockFold:
    """The clock after some scenes: the present's day range and part of day, and the stamps."""

    day: int = 1
    day_latest: int = 1
    part: str | None = None
    stamps: list[Stamp] = field(default_factory=list)
    last_present: Stamp | None = None
    _past: Stamp | None = None  # the flashback told just before, from which the next counts
    _moment: int = 0


def fold_clock(
    scenes: Iterable[SceneTime],
    units: Mapping[str, int] | None = None,
    into: ClockFold | None = None,
) -> ClockFold:
    """Fold `scenes` (in the order told) onto the clock `into` (a new one: day 1)."""
    clock = into or ClockFold()
    for scene in scenes:
        if clock.stamps and clock.stamps[-1].chapter != scene.chapter:
            clock._past = None  # a memory's 次日 counts within its chapter only
        reading = read_time(scene.time, units) if scene.time else None
        if scene.mode == "flashback":
            stamp = _past(clock, scene, reading)
            clock._past = stamp
        else:
            stamp = _present(clock, scene, reading)
            if reading is not None:  # a scene saying no time does not end the memory's count
                clock._past = None
            if scene.mode is None:
                assert stamp.day is not None and stamp.day_latest is not None  # the present's
                clock.day, clock.day_latest, clock.part = stamp.day, stamp.day_latest, stamp.part
                clock.last_present = stamp
        clock.stamps.append(stamp)
    return clock


def _stamp(
    scene: SceneTime,
    day: tuple[int, int] | None,
    part: str | None,
    *,
    moment: int,
    unread: bool = False,
    backwards: bool = False,
    inferred_night: bool = False,
) -> Stamp:
    return Stamp(
        chapter=scene.chapter,
        scene=scene.scene,
        day=None if day is None else day[0],
        day_latest=None if day is None else day[1],
        part=part,
        mode=scene.mode,
        time=scene.time,
        moment=moment,
        location=scene.location,
        characters=scene.characters,
        unread=unread,
        backwards=backwards,
        inferred_night=inferred_night,
    )


def _present(clock: ClockFold, scene: SceneTime, reading: TimeReading | None) -> Stamp:
    """A scene of the present (or a dream, dreamt now: placed, but moving no clock)."""
    now = (clock.day, clock.day_latest)
    if reading is None or not reading.readable:
        clock._moment += 1
        return _stamp(scene, now, clock.part, moment=clock._moment, unread=reading is not None)
    if reading.simultaneous and clock.last_present is not None:
        part = reading.part or clock.part
        return _stamp(scene, now, part, moment=clock._moment)
    clock._moment += 1
    if reading.days is None:  # a part of day alone: today, or tomorrow if earlier than now
        assert reading.part is not None
        night = clock.part is not None and PART_RANK[reading.part] < PART_RANK[clock.part]
        day = (now[0] + 1, now[1] + 1) if night else now
        return _stamp(scene, day, reading.part, moment=clock._moment, inferred_night=night)
    low, high = reading.days
    if reading.direction == "back":
        day = (now[0] - high, now[1] - low)
    else:
        day = (now[0] + low, now[1] + high)
    part = reading.part if reading.part or reading.days != (0, 0) else clock.part
    return _stamp(
        scene, day, part, moment=clock._moment, backwards=reading.direction == "back" and low > 0
    )


def _past(clock: ClockFold, scene: SceneTime, reading: TimeReading | None) -> Stamp:
    """A flashback: counted back from the present (or on from the flashback just before)."""
    clock._moment += 1
    base = clock._past
    if reading is None or not reading.readable:
        unread = reading is not None
        if base is not None and base.day is not None and base.day_latest is not None:
            # the same memory, going on
            day = (base.day, base.day_latest)
            return _stamp(scene, day, base.part, moment=clock._moment, unread=unread)
        return _stamp(scene, None, None, moment=clock._moment, unread=unread)
    if (
        base is not None
        and base.day is not None
        and base.day_latest is not None
        and reading.direction != "back"
    ):
        start = (base.day, base.day_latest)
    else:
        start = (clock.day, clock.day_latest)
    if reading.days is None:
        return _stamp(
            scene, start if base is not None else None, reading.part, moment=clock._moment
        )
    low, high = reading.days
    if reading.direction == "back":
        day = (start[0] - high, start[1] - low)
    else:
        day = (start[0] + low, start[1] + high)
    return _stamp(scene, day, reading.part, moment=clock._moment)


def scenes_told(rows: Iterable[Mapping[str, Any]], endings: Mapping[int, str]) -> list[SceneTime]:
    """Stored scenes (`chapter`, `idx`, `mode`, `time`, `location`, `characters`) and chapters'
    ending times as the clock reads them: each chapter's scenes, then its ending."""
    by_chapter: dict[int, list[SceneTime]] = {}
    for s in rows:
        by_chapter.setdefault(s["chapter"], []).append(
            SceneTime(
                chapter=s["chapter"],
                scene=s["idx"],
                time=s["time"],
                mode=s["mode"],
                location=s["location"],
                characters=tuple(s["characters"]),
            )
        )
    out: list[SceneTime] = []
    for chapter in sorted(set(by_chapter) | set(endings)):
        out += by_chapter.get(chapter, [])
        if chapter in endings:
            out.append(SceneTime(chapter=chapter, scene=None, time=endings[chapter]))
    return out


def due_day_of(
    planted_day: int, due_time: str, units: Mapping[str, int] | None = None
) -> int | None:
    """The day a thread's `due_time` falls on, counted from `planted_day` (the clock as its
    planting chapter ended); None when it says no distance forward."""
    reading = read_time(due_time, units)
    if not reading.readable or reading.days is None or reading.direction == "back":
        return None
    return planted_day + reading.days[0]
