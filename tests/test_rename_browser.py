"""Renaming through the entity page's form in a real browser (Debian's Chromium driven by
Playwright) against a real server: a taken name is refused on the page, naming its holder; a
rename from a later chapter shows the new name with the old one among the aliases, and another
open tab reloads by itself (the live refresh after a commit); the undo takes it back.

Set UPDATE_SCREENSHOTS=1 to write docs/screenshots/rename.png.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

import webnovel  # noqa: E402
from webnovel.dashboard.board import LIVE_POLL_SECONDS  # noqa: E402

from dashboard_server import Running, build_sample_book, running_dashboard  # noqa: E402

CHROMIUM = os.environ.get("WEBNOVEL_CHROMIUM") or shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)
SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Running]:
    with running_dashboard(build_sample_book(tmp_path / "book")) as running:
        yield running


def test_an_entity_is_renamed_and_the_rename_undone_through_its_page(
    board: Running, tmp_path: Path
) -> None:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1360, "height": 900})
        page, other = context.new_page(), context.new_page()
        problems: list[str] = []
        for tab in (page, other):
            tab.on("pageerror", lambda e: problems.append(str(e)))
            tab.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
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
        assert problems == [  # the refusal's status, which Chromium reports; nothing else
            "Failed to load resource: the server responded with a status of 400 (Bad Request)"
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
        shot = (SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path) / "rename.png"
        page.screenshot(path=str(shot), full_page=True)
        with webnovel.open_project(board.root) as book:
            assert book.entity("lichen").name == "厉堂主"

        with page.expect_navigation():
            page.locator('#rename button[value="undo"]').click()
        assert page.locator("h1").inner_text().strip() == "厉沉"
        assert page.locator('#rename button[value="undo"]').count() == 0
        sync_api.expect(other.locator("h1")).to_have_text("厉沉", timeout=15_000)
        assert problems == []
        context.close()
        browser.close()


def test_a_page_that_writes_is_not_reloaded_over_its_own_answer(
    board: Running, tmp_path: Path
) -> None:
    """The rename commits before its answer reaches the page: the page's live refresh hears
    that commit, and reloading then would abort the answer on its way (the rename done, the
    page showing neither the notice nor, from a refusal page's URL, the entity). The answer is
    held here until the commit has surely been announced (two polls of the server's)."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
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
        browser.close()
