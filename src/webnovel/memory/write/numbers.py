"""Chapter numbers as people write them: 25, "25", 「第25章」, 「第二十五章」, 「二十五」, 「２５」."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMERAL_RUN = re.compile(r"[零〇一二两三四五六七八九十百千万]+")


def chinese_numeral(text: str) -> int | None:
    """「二十五」 → 25, 「一百零三」 → 103, 「一二三」 → 123; None when it is not one."""
    if not text or any(c not in _DIGITS and c not in _UNITS and c != "万" for c in text):
        return None
    if all(c in _DIGITS for c in text):  # read digit by digit: 一二三 is 123
        return int("".join(str(_DIGITS[c]) for c in text))
    total, section, digit = 0, 0, 0
    for char in text:
        if char in _DIGITS:
            digit = _DIGITS[char]
        elif char == "万":
            total += (section + digit) * 10_000
            section, digit = 0, 0
        else:
            section += (digit or 1) * _UNITS[char]
            digit = 0
    return total + section + digit


def chinese_chapter_number(value: Any) -> int | None:
    """The integer a chapter reference means, or None when it names none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return None
    text = unicodedata.normalize("NFKC", value).strip()
    digits = re.search(r"\d+", text)
    if digits:
        return int(digits.group())
    run = _NUMERAL_RUN.search(text)
    return chinese_numeral(run.group()) if run else None
