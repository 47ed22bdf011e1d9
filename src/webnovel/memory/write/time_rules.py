"""What committing a chapter finds about story time, judged by the story clock (`memory.clock`)
as it stood at the chapter before. Review runs the same commit, so it finds the same things.

- one character in two places at the same story moment (同一时刻) within the chapter: a
  conflict (`two_places_at_once`), recorded, since it depends on the chapter alone;
- a scene of the present earlier than the one before it (三日前, not a flashback), a part of day
  earlier than the one before with no stated passage (黄昏, then 清晨: the clock counts the next
  day, and says to write 次日清晨), a deadline in story time passed in this chapter without
  payoff: notes, advice that depends on the chapters before;
- a time the clock cannot read: a warning naming it (the day is left as it was).

A chapter that states no time costs nothing here: the clock is read only when the chapter
moves it, or when a deadline in story time may fall in it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...messages import say
from ..chains import WHO, ConflictDraft
from ..clock import ClockFold, SceneTime, Stamp, due_day_of, fold_clock, read_time, scenes_told
from ..store import clock_ops
from .chapter_inputs import ChapterResult


@dataclass
class TimeFindings:
    conflicts: list[ConflictDraft] = field(default_factory=list)  # recorded: scope time:N
    notes: list[ConflictDraft] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def time_findings(
    conn: sqlite3.Connection,
    result: ChapterResult,
    scenes: list[dict[str, Any]],
    units: Mapping[str, int] | None = None,
) -> TimeFindings:
    """What chapter `result.chapter` (its `scenes` as stored: ids resolved) says against the
    story clock of the chapters before it."""
    n = result.chapter
    found = TimeFindings()
    ending = result.chapter_meta.get("ending")
    ending_time = ending.get("time") if isinstance(ending, dict) else None
    told = [
        SceneTime(
            chapter=n,
            scene=s["index"],
            time=s.get("time"),
            mode=s.get("mode"),
            location=s.get("location"),
            characters=tuple(s.get("characters", ())),
        )
        for s in scenes
    ]
    if isinstance(ending_time, str):
        told.append(SceneTime(chapter=n, scene=None, time=ending_time))
    found.warnings += _unread_dues(result, units)
    timed = any(s.time for s in told)
    due = clock_ops.threads_due_in_story_time(conn, n - 1) if n > 1 else []
    if not timed and not due:
        return found
    before = fold_clock(
        scenes_told(
            clock_ops.story_scenes(conn, n - 1, every=False), clock_ops.ending_times(conn, n - 1)
        ),
        units,
    )
    day_before, part_before = before.day, before.part
    after = fold_clock(
        told,
        units,
        ClockFold(
            day=before.day,
            day_latest=before.day_latest,
            part=before.part,
            last_present=before.last_present,
        ),
    )
    stamps = after.stamps
    for stamp in stamps:
        if stamp.unread:
            found.warnings.append(
                say("time_unread", chapter=n, where=_where(stamp), time=stamp.time)
            )
    previous: tuple[int, str | None] = (day_before, part_before)
    for stamp in stamps:
        if stamp.present and stamp.backwards:
            found.notes.append(_backwards(stamp, previous))
        if stamp.present and stamp.inferred_night:
            found.notes.append(_unstated_night(stamp, previous))
        if stamp.present and stamp.day is not None:
            previous = (stamp.day, stamp.part)
    found.conflicts += _two_places(n, [s for s in stamps if s.present and s.scene is not None])
    found.notes += _deadlines_passed(result, before, after, due, units)
    return found


def _where(stamp: Stamp) -> str:
    return say("time_scene", scene=stamp.scene) if stamp.scene is not None else say("time_ending")


def _when(day: int, part: str | None) -> str:
    return say("time_when", day=day, part=part or "")


def _backwards(stamp: Stamp, previous: tuple[int, str | None]) -> ConflictDraft:
    return ConflictDraft(
        kind="time_backwards",
        chapter=stamp.chapter,
        message=say(
            "time_backwards",
            chapter=stamp.chapter,
            where=_where(stamp),
            time=stamp.time,
            before=_when(*previous),
        ),
        field="time",
        expected=previous[0],
        found=stamp.day,
    )


def _unstated_night(stamp: Stamp, previous: tuple[int, str | None]) -> ConflictDraft:
    return ConflictDraft(
        kind="unstated_night",
        chapter=stamp.chapter,
        message=say(
            "time_unstated_night",
            chapter=stamp.chapter,
            where=_where(stamp),
            time=stamp.time,
            before=previous[1] or "",
            write="次日" + (stamp.part or ""),
        ),
        field="time",
        expected=previous[1],
        found=stamp.time,
    )


def _two_places(chapter: int, stamps: list[Stamp]) -> list[ConflictDraft]:
    """Within the chapter, scenes at one story moment (同一时刻) in different places that
    share a character: one conflict per character and pair of places."""
    by_moment: dict[int, list[Stamp]] = {}
    for stamp in stamps:
        by_moment.setdefault(stamp.moment, []).append(stamp)
    out = []
    for together in by_moment.values():
        for i, first in enumerate(together):
            for second in together[i + 1 :]:
                if not first.location or not second.location or first.location == second.location:
                    continue
                for who in sorted(set(first.characters) & set(second.characters)):
                    out.append(
                        ConflictDraft(
                            kind="two_places_at_once",
                            chapter=chapter,
                            message=say(
                                "time_two_places",
                                who=WHO,
                                chapter=chapter,
                                first=first.scene,
                                second=second.scene,
                                a=first.location,
                                b=second.location,
                                time=second.time or "",
                            ),
                            entity_id=who,
                            field="location",
                            expected=first.location,
                            found=second.location,
                        )
                    )
    return out


def _deadlines_passed(
    result: ChapterResult,
    before: ClockFold,
    after: ClockFold,
    due: list[dict[str, Any]],
    units: Mapping[str, int] | None,
) -> list[ConflictDraft]:
    """Open deadlines in story time that this chapter's clock passes, and it does not pay off."""
    paid = {t.id for t in result.threads if t.action in ("resolve", "abandon")}
    out = []
    for row in due:
        state = row["state"]
        if state.get("status") != "open" or row["id"] in paid:
            continue
        day = due_day_of(before, state.get("planted_chapter"), state["due_time"], units)
        if day is None or not before.day <= day < after.day:
            continue
        out.append(
            ConflictDraft(
                kind="deadline_passed",
                chapter=result.chapter,
                message=say(
                    "time_deadline_passed",
                    content=state.get("content") or row["id"],
                    due_time=state["due_time"],
                    due=day,
                    day=after.day,
                ),
                field=row["id"],
                expected=day,
                found=after.day,
            )
        )
    return out


def _unread_dues(result: ChapterResult, units: Mapping[str, int] | None) -> list[str]:
    return [
        say("due_time_unread", thread=t.content or t.id, due_time=t.due_time)
        for t in result.threads
        if t.due_time and read_time(t.due_time, units).days is None
    ]
