"""The story clock as the author reads it: `webnovel clock`'s text, the day of an event in
`timeline --story`, and the lines a pack opens its recent context with (one wording for all;
the adapters name it through `book/words.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...messages import say

if TYPE_CHECKING:
    from .answer import Deadline, StoryClock


def day_words(day: int | None, latest: int | None = None, mode: str | None = None) -> str:
    """第43天, 第8～15天, 开篇前3599天; a memory whose time is not said: 往昔."""
    if day is None:
        return say("clock_past_unknown")
    if day < 1:
        return say("clock_before_start", days=1 - day)
    if latest is not None and latest != day:
        return say("clock_day_range", day=day, latest=latest)
    return say("clock_day", day=day)


# the parts of day (clock/expressions.py PART_NAMES) by their catalogue keys: the clock keeps
# the Chinese word; a reader is shown it in their language
PART_KEYS = {
    "凌晨": "clock_part_dawn",
    "清晨": "clock_part_early_morning",
    "上午": "clock_part_morning",
    "正午": "clock_part_noon",
    "午后": "clock_part_afternoon",
    "黄昏": "clock_part_dusk",
    "夜": "clock_part_night",
    "子时": "clock_part_midnight",
}


def when_words(day: int | None, latest: int | None = None, part: str | None = None) -> str:
    """第60天黄昏 (day 60, at dusk): the day and, when the clock knows it, the part of day."""
    if part is None:
        return day_words(day, latest)
    shown = say(PART_KEYS[part]) if part in PART_KEYS else part
    return say("clock_day_part", day=day_words(day, latest), part=shown)


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
    return say("clock_now", when=when_words(clock.day, clock.day_latest, clock.part)) + where


def clock_since(clock: StoryClock) -> str:
    """距开篇 59 天；距上一章结束 55 天. When the day is only known within a span (第70～280天,
    after 「数月后」), so is the count from the start: 距开篇 69～279 天."""
    start: int | str = clock.days_since_start
    if clock.day_latest is not None and clock.day_latest != clock.day:
        high = clock.days_since_start + clock.day_latest - clock.day
        start = say("days_span", low=clock.days_since_start, high=high)
    if clock.days_since_previous_chapter is None:
        return say("clock_since_start", start=start)
    return say("clock_since", start=start, previous=clock.days_since_previous_chapter)


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
