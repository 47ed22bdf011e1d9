"""The story clock as the author reads it: `webnovel clock`'s text, the day of an event in
`timeline --story`, and the lines a pack opens its recent context with (one wording for all;
the adapters name it through `book/words.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...messages import say

if TYPE_CHECKING:
    from .answer import Deadline, StoryClock


def day_words(
    day: int | None, latest: int | None = None, mode: str | None = None, part: str | None = None
) -> str:
    """第43天, 第8～15天, 开篇前3599天; a memory whose time is not said: 往昔; with the part of
    the day the book wrote (`part`): 第2天夜, day 2 夜."""
    if day is None:
        shown = say("clock_past_unknown")
    elif day < 1:
        shown = say("clock_before_start", days=1 - day)
    elif latest is not None and latest != day:
        shown = say("clock_day_range", day=day, latest=latest)
    else:
        shown = say("clock_day", day=day)
    return _with_part(shown, part)


def _with_part(day: str, part: str | None) -> str:
    """第70天夜; day 70 夜 (the part of the day is the book's word, kept apart in English)."""
    return say("clock_day_part", day=day, part=part) if part else day


def deadline_line(deadline: Deadline) -> str:
    """距「…」还有 N 天（第 D 天到期）, or how long it has been past due."""
    left, due = deadline.days_left, deadline.due_day
    if due is None or left is None:
        return say("deadline_unread", content=deadline.content, due_time=deadline.due_time)
    if left < 0:
        return say(
            "deadline_passed",
            content=deadline.content,
            days=-left,
            due=due,
            due_time=deadline.due_time,
        )
    if left == 0:
        return say("deadline_today", content=deadline.content, due=due)
    return say("deadline_left", content=deadline.content, days=left, due=due)


def clock_now(clock: StoryClock) -> str:
    """故事时间：第60天黄昏（第4章第2场）."""
    if clock.chapter is None:
        return say("clock_no_scene")
    where = say(
        "clock_where",
        chapter=clock.chapter,
        scene=say("clock_ending") if clock.scene is None else say("clock_scene", scene=clock.scene),
    )
    return say("clock_now", when=day_words(clock.day, clock.day_latest, part=clock.part)) + where


def clock_since(clock: StoryClock) -> str:
    """距开篇 59 天；距上一章结束 55 天."""
    if clock.days_since_previous_chapter is None:
        return say("clock_since_start", start=clock.days_since_start)
    return say(
        "clock_since", start=clock.days_since_start, previous=clock.days_since_previous_chapter
    )


def clock_lines(clock: StoryClock) -> list[str]:
    """The clock in a few lines: when it is, how long since, and the deadlines."""
    lines = [clock_now(clock)]
    if clock.chapter is not None:
        lines.append(clock_since(clock))
    return lines + [deadline_line(d) for d in clock.deadlines]


def clock_text(clock: StoryClock) -> str:
    lines = clock_lines(clock)
    if clock.unread:
        lines.append(
            say(
                "clock_unread",
                times="、".join(say("clock_unread_time", time=t) for _, _, t in clock.unread),
            )
        )
    return "\n".join(lines)
