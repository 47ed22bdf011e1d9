"""An event on the story timeline stands where its own time words put it, over the sample book
(whose scenes say no time: each carries the clock as the chapter before ended): 日落 at a scene
whose clock says 清晨 is that day's 黄昏; 黎明 after a 子时 is the next day's; 第七天 is counted
from its chapter's start, not the scene's carried 正午."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import webnovel
from webnovel.memory.clock import read_time

from dashboard_server import build_sample_book


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webnovel.Project]:
    root = build_sample_book(tmp_path_factory.mktemp("timeline-words") / "book")
    with webnovel.open_project(root) as opened:
        yield opened


def test_every_event_s_part_of_day_is_its_own_time_word_s(book: webnovel.Project) -> None:
    hinted = [e for e in book.timeline(story=True) if e.time_hint and not e.flashback]
    parts = [(e.event, e.part, read_time(e.time_hint or "").part) for e in hinted]
    assert len(parts) >= 8
    assert [p for p in parts if p[2] is not None and p[1] != p[2]] == []


def test_a_time_of_day_goes_on_from_the_scene_s_clock(book: webnovel.Project) -> None:
    placed = {e.event: e for e in book.timeline(story=True)}
    trial, master = placed["林砚、韩啸通过登山一关"], placed["林砚拜白眉老道为师"]
    assert (trial.day, trial.part) == (2, "黄昏")  # 日落, where the scene's clock said 清晨
    assert master.day == book.clock(3).day + 1  # 日落 after chapter 3 ended at night
    escape, fire = placed["韩啸被劫出戒律堂牢房"], placed["周伯身死，铁匠铺被焚"]
    assert (fire.day, fire.part) == ((escape.day or 0) + 1, "凌晨")  # 黎明 after 子时
    order = [e.event for e in book.timeline(story=True)]
    assert order.index(fire.event) > order.index(escape.event)


def test_a_distance_of_days_is_counted_from_the_chapter_s_start(book: webnovel.Project) -> None:
    reunion = next(e for e in book.timeline(story=True) if e.time_hint == "第七天")
    assert reunion.chapter == 8
    assert reunion.day == (book.clock(7).day or 0) + 6
