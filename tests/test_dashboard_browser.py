"""The dashboard in a real browser: Debian's Chromium driven by Playwright, against a real server
over the sample book. Every page loads with no console error and no failed request, the slider
moves the page to another chapter, the graph changes with the chapter, a thread opens on its
evidence, a conflict is settled from the page, and a commit made through another handle on the
book reloads it (test_dashboard.py has a real second process's commit announced).

Set UPDATE_SCREENSHOTS=1 to write the screenshots under docs/screenshots/ (the README shows them).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from browser import DESKTOP, PHONE, Watched, fits_a_phone, updating_screenshots  # noqa: E402
from webnovel.dashboard.board import LIVE_POLL_SECONDS  # noqa: E402

from cli_runner import run_cli  # noqa: E402
from dashboard_server import (  # noqa: E402
    PAGES,
    Running,
    build_sample_book,
    chapter_14_committed_beside,
    running_dashboard,
)

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

MAIN_PAGES = {
    "overview": "/",
    "characters": "/characters/linyan",
    "graph": "/graph?center=linyan&hops=2",
    "threads": "/threads",
    "conflicts": "/conflicts",
    "pack": "/pack",
}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = build_sample_book(tmp_path_factory.mktemp("browser") / "book")
    with running_dashboard(root) as running:
        yield running


# The slider is base.html's, on every page: it moves the overview and each page that keeps
# parameters of its own for real (a load each); on the others the form it submits is read.
SLID = {"/", "/graph?center=linyan&hops=2", "/timeline?entity=linyan", "/pack?task=review"}
SLIDE_WITHOUT_GOING = """() => {
    const el = document.getElementById('as-of');
    el.value = '11'; el.dispatchEvent(new Event('input'));
    return [el.form.action, new URLSearchParams(new FormData(el.form)).toString()];
}"""
SLIDE = """() => {
    const el = document.getElementById('as-of');
    el.value = '11'; el.dispatchEvent(new Event('change'));
}"""


def test_every_page_loads_cleanly_fits_a_phone_and_the_slider_moves_it(
    board: Running, watched: Watched, screenshots: Path
) -> None:
    """Each page is loaded once for all its checks (a load costs Chromium about a fifth of a
    second of CPU), at a phone's width, where it must not scroll sideways, then moved by the
    slider. A page photographed (the README shows the main pages) is loaded on a desktop's
    screen and then narrowed: the dashboard lays pages out by CSS alone (its script reads no
    sizes), so a page narrowed after loading is laid out as one loaded narrow. Each change of
    size lays the page out anew, so the tab changes size only for a photograph."""
    updating, folder = updating_screenshots(), screenshots
    # A full-page photograph costs Chromium up to a second; outside an update only the overview
    # is photographed (the path stays tested), the other pages prove themselves by their checks.
    photographed = {path: name for name, path in MAIN_PAGES.items() if updating or path == "/"}
    page, shown = watched.page, DESKTOP
    for path in PAGES:
        if shown != (size := DESKTOP if path in photographed else PHONE):
            page.set_viewport_size(shown := size)
        page.goto(board.url + path)
        page.wait_for_load_state("load")
        assert page.evaluate("document.querySelector('h1').innerText.trim()"), path
        if path in photographed:
            name = photographed.pop(path)
            page.screenshot(path=str(folder / f"{name}.png"), full_page=name != "pack")
            assert (folder / f"{name}.png").stat().st_size > 10_000
            page.set_viewport_size(shown := PHONE)
        fits_a_phone(page, path)
        if path == "/" and updating:
            page.screenshot(path=str(folder / "phone-overview.png"))
        if path == "/":
            log = "(t => t.scrollWidth > t.clientWidth)(document.querySelector('table.log'))"
            assert page.evaluate(log)  # the log scrolls in its own box
            snapshot = page.evaluate("document.getElementById('protagonist').innerText")
            assert "林砚" in snapshot and "境界" in snapshot
        if path == "/graph?center=linyan&hops=2":
            graph = page.locator("#relation-graph").bounding_box()
            assert graph is not None and graph["x"] + graph["width"] <= PHONE["width"]
        if path not in SLID:  # where the slider would go: the page itself, as of chapter 11
            action, query = page.evaluate(SLIDE_WITHOUT_GOING)
            assert urllib.parse.urlsplit(action).path == urllib.parse.urlsplit(path).path, path
            assert urllib.parse.parse_qs(query).get("as_of") == ["11"], (path, query)
            continue
        with page.expect_navigation():
            page.evaluate(SLIDE)
        assert "as_of=11" in page.url, path
        moved = "[...document.querySelectorAll('#as-of, #as-of-number')].map((e) => e.value)"
        assert page.evaluate(moved) == ["11", "11"], path
        for key, value in urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query):
            assert f"{key}={value}" in page.url, path  # the slider keeps the page's parameters
        fits_a_phone(page, page.url)  # loaded at a phone's width this time
    for path in ("/chapters/13", "/candidates", "/characters/hanxiao"):
        page.goto(board.url + path)
        page.wait_for_load_state("load")
        fits_a_phone(page, path)
    page.wait_for_timeout(300)
    assert watched.problems == []
    assert photographed == {}, "every main page is among PAGES"
    assert set(MAIN_PAGES.values()) <= set(PAGES), "every main page is among PAGES"


def test_the_relation_graph_changes_with_the_chapter(board: Running, watched: Watched) -> None:
    page = watched.page
    page.goto(board.url + "/graph?as_of=3")
    early_edges = page.locator("#relation-graph .edge").count()
    early_names = set(page.locator("#relation-graph .node text").all_text_contents())
    page.goto(board.url + "/graph?as_of=13")
    late_edges = page.locator("#relation-graph .edge").count()
    late_names = set(page.locator("#relation-graph .node text").all_text_contents())
    assert early_edges < late_edges
    assert "苏晚晴" in late_names and "苏晚晴" not in early_names
    page.goto(board.url + "/graph?as_of=13&recent=3")
    assert page.locator("#relation-graph .edge.recent").count() >= 1
    with page.expect_navigation():
        page.locator('#relation-graph .node[data-entity="hanxiao"]').click()
    assert "center=hanxiao" in page.url
    assert page.locator("#relation-graph .node.center text").text_content() == "韩啸"


def test_a_thread_opens_on_its_evidence(board: Running, watched: Watched) -> None:
    page = watched.page
    page.goto(board.url + "/threads?as_of=13")
    card = page.locator('[data-lane="resolved"] [data-thread="lamp-origin"]')
    with page.expect_navigation():
        card.click()
    assert "/threads/lamp-origin" in page.url
    passages = page.locator("blockquote.passage").all_inner_texts()
    assert any("青灯" in p for p in passages)
    assert "第2章" in page.locator(".steps").inner_text()


def test_a_chapter_opens_from_the_timeline(board: Running, watched: Watched) -> None:
    page = watched.page
    page.goto(board.url + "/timeline?as_of=12")
    with page.expect_navigation():
        page.locator('a[href="/chapters/9?as_of=12"]').first.click()
    assert page.locator("h1").inner_text().strip() == "第9章《血衣堂主》"
    text = page.locator("main").inner_text()
    assert "林砚、韩啸、血衣堂主、林远山" in text and "与韩啸的关系" in text
    with page.expect_navigation():
        page.get_by_text("第10章 →").click()
    assert "/chapters/10" in page.url
    assert watched.problems == []


def test_evidence_opens_on_the_passage_it_came_from(board: Running, watched: Watched) -> None:
    page = watched.page
    page.goto(board.url + "/conflicts")
    details = page.locator('details.evidence[data-chapter="7"]').first
    details.locator("summary").click()
    passage = details.locator(".passage")
    sync_api.expect(passage).not_to_have_text("（展开后载入原文）")
    assert "周伯" in passage.inner_text()


def test_a_conflict_is_settled_from_the_page(board: Running, watched: Watched) -> None:
    page = watched.page
    page.goto(board.url + "/conflicts")
    first = page.locator("#open-conflicts article.conflict").first
    conflict_id = first.get_attribute("data-conflict")
    first.locator('input[name="note"]').fill("周伯以魂魄现身，有意为之")
    with page.expect_navigation():
        first.locator('button[value="1"]').click()
    assert page.locator(".notice").is_visible()
    assert page.locator(f'#open-conflicts [data-conflict="{conflict_id}"]').count() == 0
    settled = page.locator(f'#settled-conflicts [data-conflict="{conflict_id}"]')
    assert "有意为之" in settled.inner_text() and "魂魄" in settled.inner_text()
    listed = run_cli("--project", str(board.root), "conflicts", "--all")  # what the CLI reads
    assert listed.returncode == 0, listed.stderr
    found = {c["id"]: c for c in json.loads(listed.stdout)}
    assert found[conflict_id]["status"] == "accepted"
    assert found[conflict_id]["note"] == "周伯以魂魄现身，有意为之"


def test_a_commit_made_elsewhere_reloads_a_shown_page_and_a_hidden_one_once_shown(
    board: Running, browser_context: BrowserContext, watched: Watched
) -> None:
    """One commit for both pages: the shown page reloads; the hidden one has let go of its
    connection and asks nothing until shown again, then catches up. The shown page is the
    witness that the commit was announced: a hidden page still listening would have heard it
    within one more poll of the server's (LIVE_POLL_SECONDS), so no fixed wait is needed."""
    shown, hidden = watched.page, Watched(browser_context).page
    for page in (shown, hidden):
        page.goto(board.url + "/")
        sync_api.expect(page.locator("#live")).to_have_class("live on")
    hide = "(h) => { Object.defineProperty(document, 'hidden', {value: h, configurable: true});"
    hidden.evaluate(hide + " document.dispatchEvent(new Event('visibilitychange')); }", True)
    sync_api.expect(hidden.locator("#live")).to_have_class("live")  # disconnected
    asked: list[str] = []
    hidden.on("request", lambda r: asked.append(r.url))
    with chapter_14_committed_beside(board.root):
        sync_api.expect(shown.locator("table.log")).to_contain_text("余烬", timeout=15_000)
        assert shown.locator("#as-of").get_attribute("max") == "14"
        shown.wait_for_timeout(LIVE_POLL_SECONDS * 1000)
        assert asked == []  # hidden: no reload, no polling
        assert "余烬" not in hidden.locator("table.log").inner_text()
        hidden.evaluate(hide + " document.dispatchEvent(new Event('visibilitychange')); }", False)
        sync_api.expect(hidden.locator("table.log")).to_contain_text("余烬", timeout=15_000)
    hidden.close()


def test_a_board_started_in_english_reads_in_english(
    board: Running, watched: Watched, screenshots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under WEBNOVEL_LANG=en a page is English around the book's own Chinese, down to what its
    script writes: the words are the page's, handed to the script, not the script's own; and
    every page, its longer words included, fits a phone."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    page = watched.page
    page.goto(board.url + "/")
    # A commit made by an earlier test may still be announced (the server learns of it within
    # one poll) and reload the page once: let that pass before reading the page.
    sync_api.expect(page.locator("#live")).to_have_class("live on")
    page.wait_for_timeout(LIVE_POLL_SECONDS * 1000 + 300)
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == "en"
    nav = page.evaluate("[...document.querySelectorAll('.top nav a')].map((a) => a.innerText)")
    assert nav[:3] == ["overview", "characters", "graph"]
    headings = page.evaluate("[...document.querySelectorAll('h2')].map((h) => h.innerText)")
    assert "recent commits" in headings and "overdue threads" in headings
    shot = screenshots / "overview-en.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    page.goto(board.url + "/conflicts")
    unwritten = page.locator('details.evidence[data-chapter="13"]').first  # a draft: no text
    sync_api.expect(unwritten.locator(".passage")).to_have_text("(the passage loads when opened)")
    unwritten.locator("summary").click()
    sync_api.expect(unwritten.locator(".passage")).to_have_text(
        "(no text is kept for this chapter)"
    )
    page.set_viewport_size(PHONE)  # English words are longer: every page still fits a phone
    for path in PAGES:
        page.goto(board.url + path)
        page.wait_for_load_state("load")
        fits_a_phone(page, path)
    assert watched.problems == []
