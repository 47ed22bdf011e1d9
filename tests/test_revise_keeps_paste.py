"""The 改稿 page keeps the author's edit when it refuses it: a paste that is not JSON, or a
commit of a published chapter without the box ticked, answers the form again with the text
exactly as pasted and the reason beside it (in the reader's words: where and why it is not
JSON), never a page with only 「返回总览」. Over HTTP, then once in a real browser."""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402
from browser import Watched  # noqa: E402

from dashboard_server import Running, build_sample_book, running_dashboard  # noqa: E402

LINE = 10
# chapter 8's stored result, edited, with one slip: a key left without its double quotes
SLIP = '{\n  "chapter": 8,\n  summary: "林砚在黑风谷找到了父亲"\n}'


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    folder = tmp_path_factory.mktemp("revise-keeps") / "book"
    with running_dashboard(build_sample_book(folder, published_through=LINE)) as running:
        yield running


def post(board: Running, path: str, fields: dict[str, str]) -> tuple[int, str]:
    found = re.search(r'name="token" value="([^"]+)"', board.get("/revise").body)
    assert found is not None
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    body = urllib.parse.urlencode({"token": found[1], **fields}).encode()
    answer = board.request("POST", path, body, headers)
    return answer.status, answer.body


def editor_text(page: str) -> str:
    found = re.search(
        r'<form class="revise" id="revise-form".*?<textarea[^>]*>(.*?)</textarea>', page, re.S
    )
    assert found is not None, "the page has no 改稿 form"
    return html.unescape(found[1])


def test_a_json_slip_answers_the_form_with_the_text_as_pasted(board: Running) -> None:
    status, page = post(board, "/revise/impact", {"result": SLIP, "chapter": "8"})
    assert status == 400
    assert editor_text(page) == SLIP
    error = re.search(r'id="revise-error"[^>]*>(.*?)</p>', page, re.S)
    assert error is not None
    said = html.unescape(error[1])
    assert "第 3 行第 3 列" in said and "键名须用双引号" in said and "Expecting" not in said
    assert 'value="8"' in page  # the chapter given stays with it


def test_a_refused_commit_keeps_the_text_and_shows_its_impact(board: Running) -> None:
    with webnovel.open_project(board.root) as book:
        stored = book.stored_commit(8)
        seq = book.commit_seq()
    assert stored is not None
    result = dict(stored["result"])
    result["summary"] = "林砚在黑风谷没有找到父亲"
    result["state_changes"] = [
        *result.get("state_changes", []),
        {"entity_id": "linyan", "field": "status", "new": "死亡"},
    ]
    pasted = json.dumps(result, ensure_ascii=False, indent=1)
    status, page = post(board, "/revise/commit", {"result": pasted})
    assert status == 400
    assert editor_text(page) == pasted
    assert "第8章已发布" in html.unescape(page)
    assert 'id="impact"' in page and 'name="force"' in page  # tick the box, commit again
    with webnovel.open_project(board.root) as book:
        assert book.commit_seq() == seq


def test_in_a_browser_the_slip_stays_in_the_editor(board: Running, watched: Watched) -> None:
    page = watched.page
    page.goto(board.url + "/revise?chapter=8")
    editor = page.locator("#revise-form textarea")
    edited = editor.input_value().replace('"summary":', "summary:", 1)
    editor.fill(edited)
    with page.expect_navigation():
        page.locator("#revise-form button").click()
    assert page.locator("#revise-form textarea").input_value() == edited
    said = page.locator("#revise-error").inner_text()
    assert "键名须用双引号" in said and "返回总览" not in page.content()
