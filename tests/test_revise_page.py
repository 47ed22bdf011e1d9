"""The dashboard's 改稿 page over HTTP: a committed chapter's result is picked into the form, the
impact of a pasted revision is listed by chapter with the published line, both posts need the
page's token and the same origin, a bad paste is a clear 400, and committing a revision of a
published chapter is refused unless the page's box is ticked (the browser test drives it)."""

from __future__ import annotations

import copy
import html
import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402
from webnovel.ingest.sample_book import sample_chapters  # noqa: E402

from dashboard_server import Running, build_sample_book, running_dashboard  # noqa: E402

LINE = 10


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    folder = tmp_path_factory.mktemp("revise-page") / "book"
    with running_dashboard(build_sample_book(folder, published_through=LINE)) as running:
        yield running


def killed_in_8() -> str:
    result = copy.deepcopy(next(c.result for c in sample_chapters() if c.number == 8))
    result.setdefault("state_changes", []).append(
        {"entity_id": "linyan", "field": "status", "new": "死亡"}
    )
    return json.dumps(result, ensure_ascii=False)


def post(board: Running, path: str, fields: dict[str, str], origin: str | None = None) -> Any:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if origin:
        headers["Origin"] = origin
    return board.request("POST", path, urllib.parse.urlencode(fields).encode(), headers)


def token(board: Running) -> str:
    found = re.search(r'name="token" value="([^"]+)"', board.get("/revise").body)
    assert found is not None
    return found[1]


def test_a_chapter_is_picked_and_its_revision_listed_by_chapter(board: Running) -> None:
    picked = html.unescape(board.get("/revise?chapter=8").body)
    assert '"chapter": 8' in picked and "发布线：读者已读到第10章" in picked
    answer = post(board, "/revise/impact", {"token": token(board), "result": killed_in_8()})
    assert answer.status == 200
    page = answer.body
    with webnovel.open_project(board.root) as book:
        expected = book.impact(json.loads(killed_in_8()))
    for chapter in expected.chapters:
        assert f'data-chapter="{chapter}"' in page
    line_at = page.index('class="published-line"')
    assert all(page.index(f'data-chapter="{c}"') < line_at for c in expected.published)
    assert all(page.index(f'data-chapter="{c}"') > line_at for c in expected.chapters if c > LINE)
    assert 'name="force"' in page  # the box for a published chapter


def test_the_posts_need_the_token_and_the_same_origin(board: Running) -> None:
    with webnovel.open_project(board.root) as book:
        seq = book.commit_seq()
    for path in ("/revise/impact", "/revise/commit"):
        fields = {"result": killed_in_8(), "force": "1"}
        assert post(board, path, fields).status == 403
        assert post(board, path, {**fields, "token": "forged"}).status == 403
        real = {**fields, "token": token(board)}
        assert post(board, path, real, origin="http://attacker.example").status == 403
    with webnovel.open_project(board.root) as book:
        assert book.commit_seq() == seq


def test_a_bad_paste_and_a_published_chapter_are_refused_clearly(board: Running) -> None:
    bad = post(board, "/revise/impact", {"token": token(board), "result": "{not json"})
    assert bad.status == 400 and "JSON" in bad.body
    empty = post(board, "/revise/impact", {"token": token(board), "result": " "})
    assert empty.status == 400 and "请粘贴章节结果" in empty.body
    refused = post(board, "/revise/commit", {"token": token(board), "result": killed_in_8()})
    assert refused.status == 400 and "第8章已发布" in html.unescape(refused.body)
