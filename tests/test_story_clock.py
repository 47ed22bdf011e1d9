"""The story clock's reader and fold: a time in the prose's own words (次日清晨, 三日后, 十年前)
read as a distance and a part of day, and a book's scenes folded into days from day 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from webnovel.config import load_config
from webnovel.errors import InvalidConfig
from webnovel.memory.clock import SceneTime, chinese_number, fold_clock, read_time


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("四十九", 49),
        ("十", 10),
        ("十五", 15),
        ("一百零八", 108),
        ("两", 2),
        ("三千", 3000),
        ("两万三千", 23000),
        ("49", 49),
    ],
)
def test_chinese_numerals(text: str, number: int) -> None:
    assert chinese_number(text) == number


@pytest.mark.parametrize(
    ("text", "days", "part", "direction"),
    [
        ("次日清晨", (1, 1), "清晨", "forward"),
        ("三日后", (3, 3), None, "forward"),
        ("半月后", (15, 15), None, "forward"),
        ("四十日后", (40, 40), None, "forward"),
        ("四十九日后", (49, 49), None, "forward"),
        ("翌年开春", (360, 360), None, "forward"),
        ("当夜", (0, 0), "夜", "same"),
        ("是夜", (0, 0), "夜", "same"),
        ("十年前", (3600, 3600), None, "back"),
        ("十年前的一个雪夜", (3600, 3600), "夜", "back"),
        ("数日后", (2, 9), None, "forward"),
        ("不久", (1, 30), None, "forward"),
        ("二十多天后", (21, 29), None, "forward"),
        ("又过了三日", (3, 3), None, "forward"),
        ("转眼三年", (1080, 1080), None, "forward"),
        ("一年半后", (540, 540), None, "forward"),
        ("三年零两个月后", (1140, 1140), None, "forward"),
        ("两旬后", (20, 20), None, "forward"),
        ("三日前", (3, 3), None, "back"),
        ("昨夜", (1, 1), "夜", "back"),
        ("两个时辰后", (0, 0), None, "forward"),
        ("黄昏", None, "黄昏", "forward"),
        ("子时", None, "子时", "forward"),
        ("晨光", None, "清晨", "forward"),
        ("黎明前", None, "凌晨", "forward"),
        ("白天", None, "正午", "forward"),
        ("第七天", (6, 6), None, "forward"),  # the seventh day: six on from the scene before
        ("数月", (60, 270), None, "forward"),  # a span alone: that long after
        ("三个月", (90, 90), None, "forward"),
        ("过了一夜", (1, 1), None, "forward"),
    ],
)
def test_reading_a_time(
    text: str, days: tuple[int, int] | None, part: str | None, direction: str
) -> None:
    reading = read_time(text)
    assert reading.readable, text
    assert (reading.days, reading.part, reading.direction) == (days, part, direction)


def test_the_same_moment_and_what_cannot_be_read() -> None:
    assert read_time("同一时刻").simultaneous and read_time("与此同时").simultaneous
    for unread in ("天知道", "那天之后很久很久的某个时候吧", "三更天以前的某时"):
        assert not read_time(unread).readable, unread


def test_a_book_calendar_counts_in_its_own_words(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[calendar]\n"年" = 365\n"纪" = 3650\n', encoding="utf-8")
    calendar = load_config(config).calendar
    assert read_time("三年后", calendar).days == (1095, 1095)
    assert read_time("一纪之后", calendar).days == (3650, 3650)
    assert read_time("三年后").days == (1080, 1080)  # the usual calendar: a 年 is 360 days
    assert read_time("两月后", calendar).days == (60, 60)  # the units it does not name stay


@pytest.mark.parametrize(
    ("body", "named"),
    [('"年" = "三百六十"', "年"), ('"年" = 0', "年"), ('"年" = true', "年"), ('"3年" = 5', "3年")],
)
def test_a_wrong_calendar_is_refused_by_name(tmp_path: Path, body: str, named: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[calendar]\n{body}\n", encoding="utf-8")
    with pytest.raises(InvalidConfig) as refused:
        load_config(config)
    assert "[calendar]" in str(refused.value) and named in str(refused.value)


def _scenes(*times: tuple[int, str | None, str | None]) -> list[SceneTime]:
    return [
        SceneTime(chapter=chapter, scene=i, time=time, mode=mode)
        for i, (chapter, time, mode) in enumerate(times, 1)
    ]


def test_the_fold_counts_from_the_scene_before() -> None:
    clock = fold_clock(
        _scenes(
            (1, "清晨", None),  # day 1
            (1, "黄昏", None),  # day 1
            (2, "次日清晨", None),  # day 2
            (2, "十年前", "flashback"),  # day 2 - 3600, moves nothing
            (2, "三日后", None),  # day 5
            (3, "清晨", None),  # earlier than the evening? no part set after 三日后: day 5
            (3, "当夜", None),  # day 5, night
            (3, "清晨", None),  # earlier than 夜: the night between is inferred, day 6
            (4, "数日后", None),  # 8..15
            (4, None, "dream"),
            (5, "天知道", None),  # unread: stays
        )
    )
    got = [(s.day, s.day_latest, s.part) for s in clock.stamps]
    assert got == [
        (1, 1, "清晨"),
        (1, 1, "黄昏"),
        (2, 2, "清晨"),
        (2 - 3600, 2 - 3600, None),
        (5, 5, None),
        (5, 5, "清晨"),
        (5, 5, "夜"),
        (6, 6, "清晨"),
        (8, 15, None),
        (8, 15, None),
        (8, 15, None),
    ]
    assert [s.inferred_night for s in clock.stamps].index(True) == 7
    assert clock.stamps[-1].unread and not clock.stamps[-2].unread
    assert (clock.day, clock.day_latest) == (8, 15)
    assert clock.last_present is not None and clock.last_present.chapter == 5


def test_a_flashback_goes_on_from_itself_and_a_backwards_scene_is_marked() -> None:
    clock = fold_clock(
        _scenes(
            (1, "三日后", None),  # day 4
            (2, "十年前", "flashback"),
            (2, "次日", "flashback"),  # the day after the memory, not after now
            (2, "三日前", None),  # not a flashback: the present goes back, marked
            (2, "同一时刻", None),
        )
    )
    assert [s.day for s in clock.stamps] == [4, 4 - 3600, 5 - 3600, 1, 1]
    assert clock.stamps[3].backwards and not clock.stamps[2].backwards
    assert clock.stamps[4].moment == clock.stamps[3].moment != clock.stamps[2].moment


def test_the_present_may_go_back_before_day_one() -> None:
    """A scene of the present told the day before day 1 (not marked as a flashback) is on day
    0, and the clock goes there with it: day 0 and below are days too."""
    clock = fold_clock(_scenes((1, "清晨", None), (1, "昨日", None), (1, "次日", None)))
    assert [s.day for s in clock.stamps] == [1, 0, 1]
    assert clock.day == 1 and clock.stamps[1].backwards
    back = fold_clock(_scenes((1, "三日前", None), (1, "次日", None)))
    assert [s.day for s in back.stamps] == [-2, -1]
