"""Where a value stands on a field's ladder, as authors write it.

A ladder lists rungs (炼气, 筑基, 金丹, …), but a chapter rarely writes a bare rung: it writes
「金丹中期」, 「筑基后期」, 「斗者三星」, 「练气七层」. Compared verbatim, none of those is on the
ladder, and a realm that falls from 金丹中期 to 筑基后期 would pass unseen. So a value's place
is its rung (the longest rung it begins with, after folding the variant and traditional
spellings of the characters realms are written with) and, where it says one, its stage within the rung (初期 < 中期 <
后期 < 巅峰 < 大圆满, or a counted 三层 / 七星 / 九段). A value that begins with no rung has no
place: nothing is compared, as before.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from .numbers import chinese_numeral

# Spellings of one rung or stage: 练气 and 炼气 are one realm, and 煉氣 / 築基 / 元嬰 / 鬥者 are
# theirs in traditional characters. (OpenCC's whole fold belongs to the read layer; a ladder
# needs only these.)
_VARIANTS = str.maketrans(
    {
        "练": "炼",
        "練": "炼",
        "煉": "炼",
        "氣": "气",
        "築": "筑",
        "嬰": "婴",
        "虛": "虚",
        "體": "体",
        "鬥": "斗",
        "師": "师",
        "靈": "灵",
        "階": "阶",
        "層": "层",
        "級": "级",
        "轉": "转",
        "後": "后",
        "圓": "圆",
        "滿": "满",
        "兩": "两",
    }
)
# Named stages within a rung, lowest first; a later name is a higher stage.
_NAMED_STAGES = (
    ("初期", 1),
    ("前期", 1),
    ("初阶", 1),
    ("中期", 2),
    ("中阶", 2),
    ("后期", 3),
    ("高阶", 3),
    ("巅峰", 4),
    ("大圆满", 5),
    ("圆满", 5),
)
_COUNTED_STAGE = re.compile(r"^第?([零〇一二两三四五六七八九十\d]+)\s*[层重星段阶级品转]")


class Place(NamedTuple):
    rung: int  # index on the ladder
    stage: int | None  # within the rung; None when the value names no stage


def ladder_place(ladder: tuple[str, ...], value: str) -> Place | None:
    """The place of `value` on `ladder`, or None when it begins with no rung of it."""
    text = _folded(value)
    best: tuple[int, int] | None = None  # (length of the rung matched, its index)
    for index, rung in enumerate(ladder):
        folded = _folded(rung)
        if folded and text.startswith(folded) and (best is None or len(folded) > best[0]):
            best = (len(folded), index)
    if best is None:
        return None
    return Place(best[1], _stage(text[best[0] :].strip()))


def fell(ladder: tuple[str, ...], before: str, after: str) -> bool:
    """Whether `after` stands lower on the ladder than `before`: a lower rung, or on the same
    rung a lower stage (when both name one)."""
    old, new = ladder_place(ladder, before), ladder_place(ladder, after)
    if old is None or new is None:
        return False
    if new.rung != old.rung:
        return new.rung < old.rung
    return old.stage is not None and new.stage is not None and new.stage < old.stage


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().translate(_VARIANTS)


def _stage(rest: str) -> int | None:
    if not rest:
        return None
    for name, rank in _NAMED_STAGES:
        if rest.startswith(name):
            return rank
    counted = _COUNTED_STAGE.match(rest)
    if counted:
        digits = counted.group(1)
        return int(digits) if digits.isdigit() else chinese_numeral(digits)
    return None
