"""The dashboard's 改稿 page in a real browser (Debian's Chromium driven by Playwright) over the
sample book with chapters 1–10 published: a committed chapter is picked, revised in the page (林砚
dies in chapter 8), its impact is shown by chapter with the published line drawn, committing it
is refused until the box saying it changes published chapters is ticked, and the commit then
made is the one the log marks as a revision of a published chapter.

Set UPDATE_SCREENSHOTS=1 to write the screenshot under docs/screenshots/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

import webnovel  # noqa: E402
from browser import Watched  # noqa: E402

from dashboard_server import Running, build_sample_book, running_dashboard  # noqa: E402

LINE = 10
KILL = """() => {
    const area = document.querySelector('#revise-form textarea');
    const result = JSON.parse(area.value);
    result.state_changes = (result.state_changes || []).concat(
        [{entity_id: 'linyan', field: 'status', new: '死亡', reason: '为救苏晚晴而死'}]);
    area.value = JSON.stringify(result, null, 2);
}"""


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    folder = tmp_path_factory.mktemp("revise-browser") / "book"
    with running_dashboard(build_sample_book(folder, published_through=LINE)) as running:
        yield running


def test_a_revision_is_seen_by_chapter_then_committed(
    board: Running, watched: Watched, screenshots: Path
) -> None:
    page, problems = watched.page, watched.problems
    page.goto(board.url + "/revise?chapter=8")
    assert '"chapter": 8' in page.locator("#revise-form textarea").input_value()
    assert "发布线：读者已读到第10章" in page.locator("#revise-line").inner_text()
    page.evaluate(KILL)
    with page.expect_navigation():
        page.locator("#revise-form button").click()
    impact = page.locator("#impact")
    assert "改写第8章的影响" in impact.inner_text()
    shown = [
        int(c)
        for c in page.locator(".impact-chapter").evaluate_all(
            "(els) => els.map((e) => e.dataset.chapter)"
        )
    ]
    assert shown == sorted(shown) and shown[0] == 8 and max(shown) > LINE
    published = page.locator(".impact-chapter.published").evaluate_all(
        "(els) => els.map((e) => Number(e.dataset.chapter))"
    )
    assert published == [c for c in shown if c <= LINE]
    assert page.locator(".published-line").count() == 1
    # the line stands between the last published chapter and the first after it
    order = page.evaluate(
        """() => [...document.querySelectorAll('.impact-chapter, .published-line')]
            .map((e) => e.classList.contains('published-line') ? 'line' : e.dataset.chapter)"""
    )
    at = order.index("line")
    assert all(int(c) <= LINE for c in order[:at]) and all(int(c) > LINE for c in order[at + 1 :])
    assert page.locator(".impact-added").count() >= 1
    page.screenshot(path=str(screenshots / "revise.png"), full_page=True)

    with webnovel.open_project(board.root) as book:
        seq = book.commit_seq()
    page.locator("#revise-commit button").click()  # without the box: refused
    page.wait_for_load_state()
    assert "第8章已发布" in page.content()
    with webnovel.open_project(board.root) as book:
        assert book.commit_seq() == seq
    page.go_back()
    page.locator('#revise-commit input[name="force"]').check()
    with page.expect_navigation():
        page.locator("#revise-commit button").click()
    assert "已提交第8章的新版本" in page.locator("#revise-done").inner_text()
    refused = [p for p in problems if "400" in p]  # the refusal's page answers 400
    assert [p for p in problems if p not in refused] == []
    with webnovel.open_project(board.root) as book:
        entry = book.commit_log(limit=1)[0]
        assert (entry.chapter, entry.published_through) == (8, LINE)
        assert book.fact("linyan", "status").value == "死亡"  # type: ignore[union-attr]
    assert json.loads(json.dumps(entry.to_dict()))["published_revision"] is True
