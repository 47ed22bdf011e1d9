"""What committing a chapter finds about story time, judged by the story clock (`memory.clock`)
as it stood at the chapter before. Review runs the same commit, so it finds the same things.

- one character in two places at the same story moment (同一时刻) within the chapter: a
  conflict (`two_places_at_once`), recorded, since it depends on the chapter alone;
- a scene of the present earlier than the one before it (三日前, not a flashback), a part of day
  earlier than the one before with no stated passage (黄昏, then 清晨: the clock counts the next
  day, and says to write 次日清晨), a deadline in story time passed in this chapter without
  payoff: notes, advice that depends on the chapters before;
- a time the clock cannot read: a warning naming it (the day is left as it was).

It also keeps the clock as each chapter ends (`story_clock`, one row a chapter): the chapter's
row goes on from the row before it, and the rows after it move by as many days as the chapter
now lasts longer or shorter (one UPDATE), or are folded again when it now ends at another part
of day. Appending a chapter costs one row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...messages import say
from ..chains import WHO, ConflictDraft
from ..clock import ClockFold, SceneTime, Stamp, due_day_of, fold_clock, read_time, scenes_told
from ..said import Said
from ..store import clock_ops
from ..store.clock_ops import ClockRow
from ..store.connection import Connection
from .chapter_inputs import ChapterResult
from .extractors import evidence

BEFORE_THE_BOOK = ClockRow(0, 1, 1, None)  # the clock before any chapter: day 1


@dataclass
class TimeFindings:
    conflicts: list[ConflictDraft] = field(default_factory=list)  # recorded: scope time:N
    notes: list[ConflictDraft] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def time_findings(
    conn: Connection,
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
    before = clock_ops.clock_at(conn, n - 1) or BEFORE_THE_BOOK
    after = fold_clock(told, units, _from(before))
    _keep(conn, n, before, after, units)
    due = clock_ops.threads_due_in_story_time(conn, n - 1) if n > 1 else []
    day_before, part_before = before.day, before.part
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
    found.notes += _deadlines_passed(conn, result, before, after, due, units)
    return found


def _from(row: ClockRow) -> ClockFold:
    return ClockFold(day=row.day, day_latest=row.day_latest, part=row.part)


def _row(chapter: int, fold: ClockFold) -> ClockRow:
    unread = tuple((s.scene, s.time or "") for s in fold.stamps if s.unread)
    return ClockRow(chapter, fold.day, fold.day_latest, fold.part, unread)


def _keep(
    conn: Connection,
    n: int,
    before: ClockRow,
    after: ClockFold,
    units: Mapping[str, int] | None,
) -> None:
    """Write chapter `n`'s row, and bring the rows after it in line."""
    old = clock_ops.clock_at(conn, n)  # what the rows after n were folded on from
    new = _row(n, after)
    clock_ops.write_clock(conn, [new])
    if old is None:
        old = before
    later = clock_ops.clock_rows_after(conn, n)
    if not later or (old.day, old.day_latest, old.part) == (new.day, new.day_latest, new.part):
        return
    if old.part == new.part:  # the same part of day: every later day moves alike
        clock_ops.shift_clock_after(conn, n, new.day - old.day, new.day_latest - old.day_latest)
        return
    # another part of day: an unstated night may now be counted, or no longer; fold again
    last = later[-1].chapter
    told = scenes_told(
        clock_ops.scenes_of(conn, n + 1, last), clock_ops.ending_times(conn, n + 1, last)
    )
    by_chapter: dict[int, list[SceneTime]] = {}
    for scene in told:
        by_chapter.setdefault(scene.chapter, []).append(scene)
    state, rows = new, []
    for row in later:
        fold = fold_clock(by_chapter.get(row.chapter, []), units, _from(state))
        state = _row(row.chapter, fold)
        rows.append(state)
    clock_ops.write_clock(conn, rows)


def _where(stamp: Stamp) -> str:
    return Said("time_scene", scene=stamp.scene) if stamp.scene is not None else Said("time_ending")


def _when(day: int, part: str | None) -> str:
    return Said("time_when", day=day, part=part or "")


def _backwards(stamp: Stamp, previous: tuple[int, str | None]) -> ConflictDraft:
    return ConflictDraft(
        kind="time_backwards",
        chapter=stamp.chapter,
        message=Said(
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
        message=Said(
            "time_unstated_night",
            chapter=stamp.chapter,
            where=_where(stamp),
            time=stamp.time,
            before=previous[1] or "",
            write=Said("time_next_day", part=stamp.part or ""),
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
                            message=Said(
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
                            evidence=tuple(
                                evidence(chapter, f"scene:{chapter}:{s.scene}", s.time or "")
                                for s in (first, second)
                            ),
                        )
                    )
    return out


def _deadlines_passed(
    conn: Connection,
    result: ChapterResult,
    before: ClockRow,
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
        planted = clock_ops.clock_at(conn, state.get("planted_chapter") or 0) or BEFORE_THE_BOOK
        day = due_day_of(planted.day, state["due_time"], units)
        if day is None or not before.day <= day < after.day:
            continue
        out.append(
            ConflictDraft(
                kind="deadline_passed",
                chapter=result.chapter,
                message=Said(
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
