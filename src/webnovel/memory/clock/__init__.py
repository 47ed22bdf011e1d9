"""Story time: when things happen in the story, beside the chapter that tells them. Pure values
and rules: `expressions` reads a time in the prose's words, `fold` turns a book's scenes into a
day and a part of day each."""

from .expressions import DEFAULT_UNITS, PART_NAMES, TimeReading, chinese_number, read_time
from .fold import ClockFold, SceneTime, Stamp, due_day_of, fold_clock, scenes_told

__all__ = [
    "DEFAULT_UNITS",
    "PART_NAMES",
    "ClockFold",
    "SceneTime",
    "Stamp",
    "TimeReading",
    "chinese_number",
    "due_day_of",
    "fold_clock",
    "read_time",
    "scenes_told",
]
