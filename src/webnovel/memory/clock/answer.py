"""What the story clock answers: the day and part of day as of a chapter, how long since the
book began and since the chapter before, and the deadlines counted in story time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True, slots=True)
class Deadline:
    """A thread due in story time (`due_time`, counted from the chapter that planted it)."""

    thread_id: str
    content: str
    due_time: str
    planted_chapter: int | None
    due_day: int | None  # None: its due_time could not be read
    days_left: int | None  # from the clock's day to the due day; negative once passed
    overdue: bool  # open, and the clock has passed its due day
    status: str  # the thread's: open, resolved, abandoned

    def to_dict(self) -> dict[str, Any]:
        return {
            "thread": self.thread_id,
            "content": self.content,
            "due_time": self.due_time,
            "planted_chapter": self.planted_chapter,
            "due_day": self.due_day,
            "days_left": self.days_left,
            "overdue": self.overdue,
            "status": self.status,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class StoryClock:
    """The story's clock as of chapter `as_of`: `day` (day 1 is the book's first scene) and
    `day_latest` (equal unless a vague span such as 数日后 came before), the part of day, and
    the chapter and scene that set it."""

    as_of: int | None
    day: int
    day_latest: int
    part: str | None
    chapter: int | None  # the chapter of the last scene of the present (None: no scene yet)
    scene: int | None
    days_since_start: int
    days_since_previous_chapter: int | None  # from the end of the chapter before `chapter`
    deadlines: tuple[Deadline, ...] = ()
    # times the clock could not read, as written: (chapter, scene or None for the ending, time)
    unread: tuple[tuple[int, int | None, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "day_latest": self.day_latest,
            "part": self.part,
            "chapter": self.chapter,
            "scene": self.scene,
            "since": {
                "start": self.days_since_start,
                "previous_chapter": self.days_since_previous_chapter,
            },
            "deadlines": [d.to_dict() for d in self.deadlines],
            "unread": [
                {"chapter": chapter, "scene": scene, "time": time}
                for chapter, scene, time in self.unread
            ],
        }
