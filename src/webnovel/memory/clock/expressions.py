"""Reading a time expression in a story's own words: 次日清晨, 三日后, 半月后, 翌年开春, 当夜,
同一时刻, 十年前, 数日后. Pure: a text in, a `TimeReading` out, with the book's calendar (how
many days each unit word counts) as an argument.

An expression says up to two things: how far the scene is from the scene before (a number of
days, exact or a vague range, forward or back), and the part of day it happens at. Words that
add nothing to the count (又过了, 转眼, 的一个, 开春) are passed over; what is left unread makes
the whole expression unreadable, so a clock never moves on a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

# Parts of day in the order a day runs; a part's synonyms are the words a prose may use for it.
# 子时 closes the day: a scene at 子时 after one at 夜 has not crossed into the next day.
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "凌晨",
        (
            "拂晓",
            "黎明",
            "黎明前",
            "破晓",
            "天蒙蒙亮",
            "寅时",
            "五更",
            "四更",
            "天亮前",
            "天亮之前",
        ),
    ),
    (
        "清晨",
        (
            "早晨",
            "早上",
            "清早",
            "一早",
            "大早",
            "晨光",
            "晨曦",
            "卯时",
            "天亮",
            "日出",
            "晨",
            "早",
        ),
    ),
    ("上午", ("辰时", "巳时", "晌午前")),
    ("正午", ("中午", "午时", "晌午", "日中", "午间", "正晌午", "白天", "白日", "大白天", "日间")),
    ("午后", ("下午", "未时", "申时", "过午", "午")),
    ("黄昏", ("傍晚", "日暮", "日落", "酉时", "薄暮", "暮色", "夕阳西下", "入暮", "暮", "昏")),
    ("夜", ("夜里", "夜晚", "晚上", "入夜", "夜间", "戌时", "亥时", "晚间", "夜幕", "晚", "宵")),
    ("子时", ("子夜", "午夜", "半夜", "三更", "深夜", "夜半", "丑时", "二更半")),
)
PART_NAMES: tuple[str, ...] = tuple(name for name, _ in PARTS)
PART_RANK: dict[str, int] = {name: rank for rank, name in enumerate(PART_NAMES)}

# The units a book counts in unless its config.toml [calendar] says otherwise (days each).
DEFAULT_UNITS: dict[str, int] = {
    "日": 1,
    "天": 1,
    "旬": 10,
    "周": 7,
    "月": 30,
    "年": 360,
    "载": 360,
    "春秋": 360,
    "夜": 1,  # 过了一夜, 三天三夜
}
UNITS_BELOW_A_DAY = ("个时辰", "时辰", "刻钟", "炷香", "盏茶", "柱香", "个钟头", "小时", "刻")

Direction = Literal["forward", "back", "same"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeReading:
    """What an expression says. `days` is the distance from the scene before, lowest and
    highest (equal when exact); None when it says no distance (a bare 清晨, which is read
    against the part of day before). `direction` is "back" for 十年前, "same" for 同一时刻."""

    text: str
    readable: bool
    days: tuple[int, int] | None = None
    part: str | None = None
    direction: Direction = "forward"
    simultaneous: bool = False  # 同一时刻, 与此同时: the same moment as the scene before

    @property
    def vague(self) -> bool:
        return self.days is not None and self.days[0] != self.days[1]


# Words that say the scene is the very moment of the one before.
SIMULTANEOUS = ("同一时刻", "同一时间", "与此同时", "同时", "此时此刻", "就在此时", "同一时辰")
# Words that put the scene on the same day as the one before.
SAME_DAY = (
    "当天",
    "当日",
    "同日",
    "同一天",
    "这天",
    "这一天",
    "是日",
    "此日",
    "当夜",
    "当晚",
    "是夜",
    "这夜",
    "这晚",
    "此夜",
    "片刻后",
    "片刻之后",
    "少顷",
    "须臾",
    "不多时",
    "良久",
    "随即",
    "稍后",
    "不一会儿",
    "转瞬",
    "当下",
    "此时",
    "此刻",
    "今日",
    "今天",
    "今夜",
    "今晚",
    "今晨",
)
ONE_DAY_ON = (
    "次日",
    "翌日",
    "第二天",
    "第二日",
    "隔日",
    "隔天",
    "转天",
    "明日",
    "明天",
    "次晨",
    "翌晨",
    "明早",
    "来日",
)
TWO_DAYS_ON = ("后日", "后天", "第三天", "第三日")
ONE_DAY_BACK = ("昨日", "昨天", "昨夜", "昨晚", "前一日", "前一天", "前夜", "头一天")
TWO_DAYS_BACK = ("前日", "前天")
NEXT_YEAR = ("翌年", "次年", "第二年", "来年", "明年", "隔年")
# Vague spans, kept as ranges (in units of the word after them when there is one).
VAGUE_COUNTS = {
    "数": (2, 9),
    "几": (2, 9),
    "若干": (2, 9),
    "十几": (11, 19),
    "十数": (11, 19),
    "数十": (20, 90),
    "几十": (20, 90),
}
VAGUE_SPANS = {
    "不久": (1, 30),
    "没多久": (1, 30),
    "不多日": (1, 9),
    "过些日子": (3, 30),
    "过了些日子": (3, 30),
    "多时": (1, 30),
    "许久": (30, 360),
    "很久": (30, 720),
    "多年": (720, 7200),
    "很多年": (1800, 18000),
    "许多年": (1800, 18000),
    "多日": (2, 9),
    "一段时间": (3, 90),
    "一段日子": (3, 90),
}
# Words that point forward or back, and words that add nothing to the count.
FORWARD = ("之后", "以后", "过后", "后", "过去", "已过", "过去了")
BACK = ("之前", "以前", "前")
ONWARD = (  # a span after these runs forward even without 后: 又过了三日, 转眼三年
    "又过了",
    "过了",
    "又过",
    "再过",
    "转眼间",
    "转眼",
    "一晃",
    "眨眼",
    "弹指",
    "历经",
    "历时",
    "经过",
    "又是",
)
LEADING = (
    "匆匆",
    "足足",
    "整整",
    "大约",
    "约莫",
    "约",
    "直到",
    "到了",
    "时至",
    "时间来到",
    "来到",
    "已是",
    "已经是",
    "便是",
    "就是",
    "待到",
    "等到",
    "又",
)
FILLER = (
    "的一个",
    "的某个",
    "的某天",
    "的某日",
    "某个",
    "某日",
    "某天",
    "一个",
    "的",
    "里",
    "时分",
    "时候",
    "之际",
    "时",
    "间",
    "中",
    "开春",
    "初春",
    "春",
    "盛夏",
    "夏",
    "深秋",
    "入秋",
    "秋",
    "隆冬",
    "入冬",
    "冬",
    "寒冬",
    "雪",
    "雨",
    "左右",
    "上下",
    "光景",
    "有余",
    "余",
    "，",
    ",",
    "。",
    "、",
    " ",
    "　",
    "…",
    "：",
    ":",
)
NUMBER = r"[0-9]+|[零〇一二两三四五六七八九十百千万]+"


def chinese_number(text: str) -> int | None:
    """四十九 → 49, 十五 → 15, 一百零八 → 108, 两 → 2, 49 → 49; None when it is not one."""
    if text.isdigit():
        return int(text)
    from ..write.numbers import chinese_numeral  # the one reader of numerals; a fact needs none

    return chinese_numeral(text)


def read_time(text: str, units: Mapping[str, int] | None = None) -> TimeReading:
    """What `text` says about when a scene happens, in the usual calendar and the book's own
    `units` (word → days: config.toml [calendar]) over it."""
    return _read(text, tuple(sorted({**DEFAULT_UNITS, **(units or {})}.items())))


@lru_cache(maxsize=4096)  # a book says 次日 and 清晨 a thousand times
def _read(text: str, units: tuple[tuple[str, int], ...]) -> TimeReading:
    rest = text.strip()
    unit_days = dict(units)
    days: tuple[int, int] | None = None
    direction: Direction = "forward"
    simultaneous = False
    rest, onward = _drop_leading(rest)
    if word := _starts(rest, SIMULTANEOUS):
        simultaneous, direction, days, rest = True, "same", (0, 0), rest[len(word) :]
    elif word := _starts(rest, NEXT_YEAR):
        year = unit_days.get("年", DEFAULT_UNITS["年"])
        days, rest = (year, year), rest[len(word) :]
    elif word := _starts(rest, ONE_DAY_ON):
        days, rest = (1, 1), rest[len(word) :]
        if word in ("次晨", "翌晨", "明早"):
            rest = "清晨" + rest
    elif word := _starts(rest, TWO_DAYS_ON):
        days, rest = (2, 2), rest[len(word) :]
    elif word := _starts(rest, ONE_DAY_BACK):
        days, direction, rest = (1, 1), "back", rest[len(word) :]
        if word in ("昨夜", "昨晚", "前夜"):
            rest = "夜" + rest
    elif word := _starts(rest, TWO_DAYS_BACK):
        days, direction, rest = (2, 2), "back", rest[len(word) :]
    elif word := _starts(rest, SAME_DAY):
        days, direction, rest = (0, 0), "same", rest[len(word) :]
        if word.endswith(("夜", "晚")):
            rest = "夜" + rest
        elif word == "今晨":
            rest = "清晨" + rest
    elif (nth := re.match(rf"第({NUMBER})(?:天|日)", rest)) and chinese_number(nth.group(1)):
        later = (chinese_number(nth.group(1)) or 1) - 1  # 第七天: six days on from the scene before
        days, rest = (later, later), rest[nth.end() :]
    else:
        span = _span(rest, unit_days, onward)
        if span is not None:
            days, direction, rest = span
    part, rest = _part(rest)  # before the fillers go: 时 is a filler, and part of 子时
    rest = _drop_fillers(rest)
    if rest or (days is None and part is None):
        return TimeReading(text=text, readable=False)
    return TimeReading(
        text=text,
        readable=True,
        days=days,
        part=part,
        direction=direction,
        simultaneous=simultaneous,
    )


def _span(
    text: str, units: dict[str, int], onward: bool
) -> tuple[tuple[int, int], Direction, str] | None:
    """三日后, 四十日后, 半月后, 一年半后, 三年零两个月后, 数日后, 不久, 十年前: the distance,
    its direction and what follows it; None when `text` does not start with a span."""
    for word, (low, high) in sorted(VAGUE_SPANS.items(), key=lambda w: -len(w[0])):
        if text.startswith(word):
            rest = text[len(word) :]
            direction, rest = _direction(rest)
            return (
                (low, high),
                direction or ("back" if word == "多年" and not onward else "forward"),
                rest,
            )
    low = high = 0
    rest = text
    found = False
    unit_words = sorted(units, key=len, reverse=True)
    while True:
        amount = _amount(rest)
        if amount is None:
            break
        (count_low, count_high), after = amount
        after = after.removeprefix("个")
        unit = next((u for u in unit_words if after.startswith(u)), None)
        if unit is None:
            below = next((u for u in UNITS_BELOW_A_DAY if after.startswith(u)), None)
            if below is None:
                break
            found, rest = True, after[len(below) :]  # hours: the same day
            continue
        rest = after[len(unit) :]
        length = units[unit]
        low, high = low + round(count_low * length), high + round(count_high * length)
        if rest.startswith("半"):  # 一年半
            low, high, rest = low + length // 2, high + length // 2, rest[1:]
        elif rest.startswith(("余", "多")):  # 三年余, 两月多: more than, less than one more
            low, high, rest = low + 1, high + length - 1, rest[1:]
        found = True
        rest = rest.removeprefix("零").removeprefix("又")
    if not found:
        return None
    direction, rest = _direction(rest)
    # a span alone (三个月, 数月) says how long since the scene before: a time, not a length
    return (low, high), direction or "forward", rest


def _amount(text: str) -> tuple[tuple[float, float], str] | None:
    """The count at the start of `text`: 三 → 3, 半 → 0.5, 数 → 2..9."""
    for word, (low, high) in sorted(VAGUE_COUNTS.items(), key=lambda w: -len(w[0])):
        if text.startswith(word):
            return (low, high), text[len(word) :]
    if text.startswith("半"):
        return (0.5, 0.5), text[1:]
    found = re.match(NUMBER, text)
    if found is None:
        return None
    value = chinese_number(found.group())
    if value is None:
        return None
    rest = text[found.end() :]
    if rest.startswith("多") and value >= 10 and value % 10 == 0:  # 二十多天: 21..29
        return (value + 1, value + 9), rest[1:]
    return (value, value), rest


def _direction(text: str) -> tuple[Direction | None, str]:
    text = _drop_fillers_head(text)
    if word := _starts(text, FORWARD):
        return "forward", text[len(word) :]
    if word := _starts(text, BACK):
        return "back", text[len(word) :]
    return None, text


def _part(text: str) -> tuple[str | None, str]:
    """The part of day named anywhere in `text` (the longest word), and the text without it."""
    best: tuple[int, int, str] | None = None
    for name, synonyms in PARTS:
        for word in (name, *synonyms):
            at = text.find(word)
            if at >= 0 and (best is None or len(word) > best[1]):
                best = (at, len(word), name)
    if best is None:
        return None, text
    at, length, name = best
    return name, text[:at] + text[at + length :]


def _starts(text: str, words: tuple[str, ...]) -> str | None:
    return next((w for w in sorted(words, key=len, reverse=True) if text.startswith(w)), None)


def _drop_leading(text: str) -> tuple[str, bool]:
    """`text` without its leading words, and whether one of them ran time onward."""
    onward = False
    while word := _starts(text, ONWARD + LEADING):
        onward = onward or word in ONWARD
        text = text[len(word) :]
    return text, onward


def _drop_fillers_head(text: str) -> str:
    while word := _starts(text, FILLER):
        text = text[len(word) :]
    return text


def _drop_fillers(text: str) -> str:
    for word in sorted(FILLER, key=len, reverse=True):
        text = text.replace(word, "")
    return text
