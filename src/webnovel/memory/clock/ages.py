"""An age that grows with the story clock: 「十六岁」 said on day 1 reads 「十九岁」 three story
years later. Pure: the value as written, the days it was said and is asked about, a year's days.
The value keeps its own way of writing (十六岁, 16岁, 16)."""

from __future__ import annotations

import re
from typing import Any

from .expressions import chinese_number

_AGE = re.compile(r"^\s*([0-9]+|[零〇一二两三四五六七八九十百]+)\s*(周岁|虚岁|岁)?\s*$")
_DIGITS = "零一二三四五六七八九"


def aged(value: Any, said_day: int, now_day: int, year_days: int) -> Any:
    """`value` (an age as written) moved on by the whole story years from `said_day` to
    `now_day`; None when it does not move (less than a year, or not an age it can read)."""
    years = (now_day - said_day) // max(1, year_days)
    if years <= 0 or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value + years
    if not isinstance(value, str) or (found := _AGE.match(value)) is None:
        return None
    written, unit = found.group(1), found.group(2) or ""
    number = chinese_number(written)
    if number is None:
        return None
    grown = number + years
    return (str(grown) if written.isdigit() else chinese_numeral(grown)) + unit


def chinese_numeral(number: int) -> str:
    """19 → 十九, 20 → 二十, 108 → 一百零八 (below ten thousand)."""
    if number < 10:
        return _DIGITS[number]
    if number < 20:
        return "十" + (_DIGITS[number % 10] if number % 10 else "")
    out, zero = "", False
    for scale, word in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = number // scale % 10
        if digit:
            out += ("零" if zero and out else "") + _DIGITS[digit] + word
            zero = False
        else:
            zero = bool(out)
    return out
