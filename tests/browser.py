"""The dashboard's browser tests share one Chromium (Debian's, driven by Playwright) and this
module's fixtures, loaded by conftest as a plugin:

- `chromium`: the process's one browser, launched by the first test that asks for it and kept
  while the tests that follow are in modules that use it (conftest runs those modules one after
  another, on one worker). It is closed before any other module's test runs: a started sync
  Playwright leaves its event loop marked as running in this thread, and `asyncio.run` in a
  later test (the MCP client's, for one) would refuse to start.
- `browser_context`: a fresh browsing context (a profile: its own cookies, cache and storage)
  at a desktop's size for each test; `watched`: a page in it that records what went wrong.
- `screenshots`: where a test's photographs go, the test's own folder unless
  UPDATE_SCREENSHOTS=1 asks for docs/screenshots/ (the README shows them).

Without Chromium or the CJK fonts its pages are drawn in (the graph's labels are measured in Noto
Sans CJK), every test that asks for `chromium` is skipped with the one message SKIPPED says.
Playwright itself is imported only by a test that asks: a module that also has tests without a
browser keeps them where Playwright is not installed.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, ViewportSize

CHROMIUM = os.environ.get("WEBNOVEL_CHROMIUM") or shutil.which("chromium")
CJK_FONT = "Noto Sans CJK SC"  # the first of dashboard.css's fonts
SKIPPED = "the browser tests need Chromium and {font} (apt-get install chromium fonts-noto-cjk)"
SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"

DESKTOP: ViewportSize = {"width": 1360, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}  # a common phone, in CSS pixels


@functools.cache
def _cjk_font_installed() -> bool:
    listing = shutil.which("fc-list")
    if listing is None:
        return False
    found = subprocess.run([listing, CJK_FONT, "family"], capture_output=True, text=True)
    return CJK_FONT in found.stdout


class _OneChromium:
    """The process's browser, started on first use and stopped by `close` (see the hook below)."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def browser(self) -> Browser:
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox"]
            )
        return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


_ONE = _OneChromium()
_BROWSER_MODULES: set[str] = set()  # the modules with a test that asks for `chromium`


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # an item that is not a test function (a doctest's, say) has no fixtures
    asking = (i for i in items if "chromium" in getattr(i, "fixturenames", ()))
    _BROWSER_MODULES.update(_module(i) for i in asking)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    """After a test's own teardown (its contexts and a module's pages closed by then), the
    browser goes unless the next test is in a module that uses it."""
    yield
    if nextitem is None or _module(nextitem) not in _BROWSER_MODULES:
        _ONE.close()


@pytest.fixture(scope="module")
def chromium() -> Browser:
    """The process's one Chromium (module-scoped so that a module whose tests follow a closed
    one's gets it launched again, not the closed one)."""
    pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None or not _cjk_font_installed():
        pytest.skip(SKIPPED.format(font=CJK_FONT))
    return _ONE.browser()


@pytest.fixture
def browser_context(chromium: Browser) -> Iterator[BrowserContext]:
    context = chromium.new_context(viewport=DESKTOP)
    yield context
    context.close()


class Watched:
    """A page of `context` that records its console's errors, its script's uncaught errors and
    every request answered 400 or more, in `problems` (a list of its own, or one it shares with
    another tab)."""

    def __init__(self, context: BrowserContext, problems: list[str] | None = None) -> None:
        self.page = context.new_page()
        self.problems: list[str] = [] if problems is None else problems
        self.page.on(
            "console", lambda m: self.problems.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on(
            "response",
            lambda r: self.problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )


@pytest.fixture
def watched(browser_context: BrowserContext) -> Watched:
    return Watched(browser_context)


def updating_screenshots() -> bool:
    return bool(os.environ.get("UPDATE_SCREENSHOTS"))


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    folder = SCREENSHOTS if updating_screenshots() else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# What a page's layout is, read in one call: each of Playwright's calls is a round trip through
# its driver to Chromium (tens of milliseconds on a busy machine), a locator per link adds up.
LAYOUT = """() => ({
    width: document.scrollingElement.scrollWidth,
    widest: [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5).map((e) => `${e.tagName}.${e.className}`),
    nav: [...document.querySelectorAll('.top nav a')]
        .map((a) => a.getBoundingClientRect()).map((r) => [r.x, r.width]),
})"""


def fits_a_phone(page: Page, path: str) -> None:
    """On a 390-pixel-wide screen no page scrolls sideways: the navigation wraps, wide tables
    scroll inside their own box, the graph shrinks to the screen."""
    layout = page.evaluate(LAYOUT)
    assert layout["width"] <= PHONE["width"], (path, layout)
    assert layout["nav"], path
    for x, width in layout["nav"]:  # each link shown, and whole on the screen
        assert width > 0 and x >= 0 and x + width <= PHONE["width"], (path, layout["nav"])
