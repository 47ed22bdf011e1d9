"""Renaming through the entity page's form in a real browser (Debian's Chromium driven by
Playwright) against a real server: a taken name is refused on the page, naming its holder; a
rename from a later chapter shows the new name with the old one among the aliases, and another
open tab reloads by itself (the live refresh after a commit); the undo takes it back.

Set UPDATE_SCREENSHOTS=1 to write docs/screenshots/rename.png.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

import webnovel  # noqa: E402
from browser import Watched  # noqa: E402
from webnovel.dashboard.board import LIVE_POLL_SECONDS  # noqa: E402

from dashboard_server import Running, build_sample_book, running_dashboard  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Running]:
    with running_dashboard(build_sample_book(tmp_path / "book")) as running:
        yield running


def test_an_entity_is_renamed_and_the_rename_undone_through_its_page(
    board: Running, browser_context: BrowserContext, watched: Watched, screenshots: Path
) -> None:
    page = watched.page
    other = Watched(browser_context, problems=watched.problems).page  # one list for both tabs
    problems = watched.problems
    other.goto(board.url + "/characters/lichen")  # a second tab, left open
    sync_api.expect(other.locator("#live")).to_have_class("live on")
    page.goto(board.url + "/characters/lichen")
    form = page.locator("#rename form").first

    form.locator('input[name="new_name"]').fill("韩啸")
    with page.expect_navigation():
        form.locator('button[value="rename"]').click()
    refusal = page.locator("#rename .error-message")
    assert "无法改名为「韩啸」" in refusal.inner_text()
    assert "韩啸（hanxiao）" in refusal.inner_text()  # who holds the name
    assert sorted(problems) == [  # the refusal's status, as Chromium reports it; nothing else
        f"400 {board.url}/characters/lichen/rename",
        "Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]
    problems.clear()
    # the refusal answers a POST: its address is the entity's page, so a reload (by hand,
    # or the live refresh on a commit) shows that page and asks no POST's URL
    assert page.url == board.url + "/characters/lichen?as_of=13"
    page.reload()
    assert page.locator("h1").inner_text().strip() == "厉沉" and problems == []
    form = page.locator("#rename form").first
    form.locator('input[name="new_name"]').fill("韩啸")
    with page.expect_navigation():
        form.locator('button[value="rename"]').click()  # refused again, for what follows
    problems.clear()

    form = page.locator("#rename form").first
    sync_api.expect(form.locator('input[name="new_name"]')).to_have_value("韩啸")
    form.locator('input[name="new_name"]').fill("厉堂主")
    form.locator('input[name="from_chapter"]').fill("11")
    with page.expect_navigation():
        form.locator('button[value="rename"]').click()
    assert page.locator("h1").inner_text().strip() == "厉堂主"
    assert "已把「厉沉」改名为「厉堂主」，自第11章起" in page.locator(".notice").inner_text()
    assert "厉沉" in page.locator("p.lead").inner_text()  # among the aliases
    sync_api.expect(other.locator("h1")).to_have_text("厉堂主", timeout=15_000)  # reloaded
    page.bring_to_front()  # two tabs: a screenshot of the one behind may wait forever
    shot = screenshots / "rename.png"
    page.screenshot(path=str(shot), full_page=True)
    with webnovel.open_project(board.root) as book:
        assert book.entity("lichen").name == "厉堂主"

    with page.expect_navigation():
        page.locator('#rename button[value="undo"]').click()
    assert page.locator("h1").inner_text().strip() == "厉沉"
    assert page.locator('#rename button[value="undo"]').count() == 0
    sync_api.expect(other.locator("h1")).to_have_text("厉沉", timeout=15_000)
    assert problems == []


def test_a_page_that_writes_is_not_reloaded_over_its_own_answer(
    board: Running, watched: Watched
) -> None:
    """The rename commits before its answer reaches the page: the page's live refresh hears
    that commit, and reloading then would abort the answer on its way (the rename done, the
    page showing neither the notice nor, from a refusal page's URL, the entity). The answer is
    held here until the commit has surely been announced (two polls of the server's)."""
    page = watched.page
    page.goto(board.url + "/characters/zhoubo")
    sync_api.expect(page.locator("#live")).to_have_class("live on")

    def held(route: object) -> None:
        answer = route.fetch(max_redirects=0)  # type: ignore[attr-defined]
        time.sleep(2 * LIVE_POLL_SECONDS + 0.5)
        route.fulfill(response=answer)  # type: ignore[attr-defined]

    page.route("**/rename", held)
    page.locator('#rename input[name="new_name"]').fill("铁伯")
    with page.expect_navigation():
        page.locator('#rename button[value="rename"]').click()
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text().strip() == "铁伯"
    assert "已把「周伯」改名为「铁伯」" in page.locator(".notice").inner_text()
    assert watched.problems == []
