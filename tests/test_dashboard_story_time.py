"""The dashboard's 时间线 in story time, in a real browser (Chromium through Playwright) over the
hand-written book of tests/story_time_book.py: the clock as of the page's chapter, the events in
the order they happen with the flashback first, and a character's track (where on which day),
one column on a phone. Screenshots go to docs/screenshots/ with UPDATE_SCREENSHOTS=1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

import webnovel  # noqa: E402
from browser import PHONE, Watched, fits_a_phone  # noqa: E402
from story_time_book import CHAPTERS  # noqa: E402

from dashboard_server import Running, running_dashboard  # noqa: E402


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = tmp_path_factory.mktemp("story-board") / "book"
    with webnovel.init_project(root, title="青石三年") as book:
        for chapter in CHAPTERS:
            book.commit(chapter)
    with running_dashboard(root) as running:
        yield running


def test_the_timeline_switches_to_story_time_and_shows_a_track(
    board: Running, watched: Watched, screenshots: Path
) -> None:
    page = watched.page
    page.goto(board.url + "/?as_of=4")
    overview_clock = page.inner_text("#story-clock")
    assert "故事时间：第60天（第4章第2场）" in overview_clock
    assert "「韩啸出关」已过期 10 天" in overview_clock
    page.goto(board.url + "/timeline?as_of=6")
    assert "故事时间：第1140天黄昏" in page.inner_text(".clock")
    told = page.locator(".events li .event").all_inner_texts()
    assert told[0] == "周伯身死"  # the order told
    page.click("text=按故事时间")
    assert "order=story" in page.url
    events = page.locator(".events li").all_inner_texts()
    assert events[0].startswith("开篇前3599天 回忆") and "林家大火" in events[0]
    assert events[1].startswith("第2天夜") and "周伯身死" in events[1]
    page.goto(board.url + "/timeline?as_of=6&entity=linyan&order=story")
    stays = page.locator(".stays li").all_inner_texts()
    assert [s.split()[0] for s in stays] == [
        "第1天清晨",
        "第1天黄昏",
        "第2天",  # 青石镇, morning to night: one stay
        "开篇前3599天",
        "第5～45天",  # 青云宗, from 三日后 to 四十日后
        "第60天",
        "第420天",
        "第1140天",
    ]
    assert "林家旧宅" in stays[3] and "回忆" in stays[3]
    page.screenshot(path=str(screenshots / "timeline-story.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits_a_phone(page, "/timeline?entity=linyan&order=story")
    page.screenshot(path=str(screenshots / "timeline-story-phone.png"), full_page=True)
    assert watched.problems == []
