"""When a scene happens, as the text says it in its opening words: 次日清晨，…, 三日后，…, 是夜，….
Text only (no model, no memory): a paragraph that opens with a time expression starts a scene,
and the expression is kept as the scene's `time`; the story clock reads it at commit (and names
in the commit's warnings what it cannot read)."""

from __future__ import annotations

import re

from .text_summary import scene_parts

_COUNT = r"(?:[数几半零〇一二两三四五六七八九十百千]+|[0-9]+)"
_SPAN = (
    rf"(?:(?:又过了|过了|又过|再过|转眼间?|一晃|眨眼)?{_COUNT}个?(?:日|天|旬|月|年|载|春秋)"
    r"(?:半|多|余)?(?:之后|以后|过后|后|之前|以前|前|过去了?)?)"
)
_DAY_WORDS = (
    "次日|翌日|第二天|第二日|隔日|隔天|转天|次晨|翌晨|是夜|当夜|当晚|是日|当天|当日|这一夜|"
    "这天夜里|翌年|次年|来年|第二年|不久后?|没过多久|数日后|几日后|同一时刻|与此同时|"
    "十年前|多年前|多年后|昨夜|前夜"
)
_PARTS = (
    "清晨|早上|一早|拂晓|黎明|破晓|凌晨|上午|正午|中午|午后|下午|黄昏|傍晚|入夜|夜里|夜半|"
    "深夜|半夜|子夜|子时|丑时|寅时|卯时|辰时|巳时|午时|未时|申时|酉时|戌时|亥时|三更|五更"
)
# An opening clause: a day word or a span, maybe a part of day (or a season), then its comma.
OPENING = re.compile(
    rf"^\s*((?:{_DAY_WORDS}|{_SPAN})(?:的)?(?:{_PARTS}|开春|初春|入秋|深秋|入冬|隆冬)?"
    rf"|(?:{_PARTS}))(?:时分)?[，,。：:]"
)
MAX_OPENING = 14  # characters: a longer clause is a sentence, not a time


def opening_time(paragraph: str) -> str | None:
    """The time expression a paragraph opens with (次日清晨), or None."""
    found = OPENING.match(paragraph)
    if found is None or len(found.group(1)) > MAX_OPENING:
        return None
    return found.group(1)


def timed_parts(text: str) -> list[tuple[int, str, str | None]]:
    """The text cut into scenes: at the scene breaks it shows, and at each paragraph (after the
    first of a part) that opens with a time; each part with its offset and its opening time."""
    out: list[tuple[int, str, str | None]] = []
    for start, part in scene_parts(text):
        offset, begun = 0, start
        for paragraph in part.splitlines(keepends=True):
            time = opening_time(paragraph)
            if time is not None and part[:offset].strip():
                out.append((begun, text[begun : start + offset], _first_time(text, begun)))
                begun = start + offset
            offset += len(paragraph)
        out.append((begun, text[begun : start + len(part)], _first_time(text, begun)))
    return [(at, part, time) for at, part, time in out if part.strip()]


def _first_time(text: str, at: int) -> str | None:
    first = next((line for line in text[at:].splitlines() if line.strip()), "")
    return opening_time(first)
