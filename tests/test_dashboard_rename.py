"""Renaming an entity from its dashboard page, against a real server over a real book: the same
facade call as `webnovel rename`, behind the page's token and the same-origin check; a name
another entity holds is refused on the page, naming the holder, with nothing written; the
rename from a later chapter; its undo; the labels in the language asked for."""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402

from dashboard_server import Answer, Running, build_sample_book, running_dashboard  # noqa: E402

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Running]:
    """A sample book of its own for each test: a rename changes it."""
    with running_dashboard(build_sample_book(tmp_path / "book")) as running:
        yield running


def token_of(page: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    return found[1]


def post(
    board: Running, entity_id: str, fields: dict[str, str], headers: dict[str, str] | None = None
) -> Answer:
    body = urllib.parse.urlencode(fields).encode()
    path = f"/characters/{urllib.parse.quote(entity_id, safe='')}/rename"
    return board.request("POST", path, body, {**FORM, **(headers or {})})


def heading(page: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    assert found is not None
    return re.sub(r"<[^>]+>|\s+", "", found[1])


def follow(board: Running, answer: Answer) -> str:
    assert answer.status == 303, answer.body[:500]
    return board.get(answer.headers["location"]).body


def book_state(board: Running) -> tuple[int, str, tuple[str, ...]]:
    with webnovel.open_project(board.root) as book:
        entity = book.entity("linyan")
        return book.commit_seq(), entity.name, entity.aliases


def test_an_entity_is_renamed_from_its_page_behind_the_pages_token(board: Running) -> None:
    page = board.get("/characters/linyan").body
    assert 'action="/characters/linyan/rename"' in page
    assert "改名" in page and "新名字" in page and "留空即登场那一章" in page
    assert 'value="undo"' not in page  # nothing renamed yet: no undo offered
    token = token_of(page)
    before = book_state(board)
    rename = {"action": "rename", "new_name": "林砚之", "as_of": "13"}
    assert post(board, "linyan", {**rename, "token": "forged"}).status == 403
    assert post(board, "linyan", rename).status == 403  # no token at all
    cross = post(board, "linyan", {**rename, "token": token}, {"Origin": "http://x.example"})
    assert cross.status == 403
    assert book_state(board) == before  # nothing was renamed

    answer = post(board, "linyan", {**rename, "token": token})
    assert answer.headers["location"].startswith("/characters/linyan?as_of=13&done=")
    shown = follow(board, answer)
    assert heading(shown) == "林砚之"
    aliases = re.search(r"又名：([^·]*)·", shown)
    assert aliases is not None and "林砚" in aliases[1]  # the old name is an alias now
    assert "已把「林砚」改名为「林砚之」，自第1章起；「林砚」保留为别名" in shown
    assert "撤销改名「林砚」→「林砚之」（自第1章起）" in shown
    seq, name, kept = book_state(board)
    assert seq > before[0] and name == "林砚之" and "林砚" in kept
    assert "林砚之" in board.get("/characters").body  # every page reads the book anew


def test_a_name_another_entity_holds_is_refused_on_the_page_naming_it(board: Running) -> None:
    token = token_of(board.get("/characters/linyan").body)
    before = book_state(board)
    for taken in ("韩啸", "韩家那小子"):  # a name, an alias
        answer = post(
            board, "linyan", {"action": "rename", "new_name": taken, "token": token, "as_of": "9"}
        )
        assert answer.status == 400
        refusal = re.search(r'<p class="error-message">(.*?)</p>', answer.body, re.S)
        assert refusal is not None
        assert refusal[1].startswith("没有改名：无法改名为「" + taken + "」")
        assert "韩啸（hanxiao）" in refusal[1]  # the holder, named as the CLI names it
        assert f'name="new_name" value="{taken}"' in answer.body  # the form as it was filled in
        assert heading(answer.body) == "林砚"  # the page itself, as of its chapter
        assert 'name="as_of" value="9"' in answer.body
        assert 'data-page-url="/characters/linyan?as_of=9"' in answer.body  # what a reload asks
    for fields, said in (
        ({"new_name": "林砚"}, "已经是这个实体的名字"),
        ({"new_name": "   "}, "新名字应为非空字符串"),
        ({"new_name": "林砚之", "from_chapter": "第三章"}, "章号须为数字，收到「第三章」"),
        ({"new_name": "林砚之", "from_chapter": "99"}, "本书没有已提交的第99章"),
        ({"new_name": "林砚之", "from_chapter": "²"}, "章号须为数字，收到「²」"),
        ({"new_name": "林砚之", "from_chapter": "9" * 30}, "之间的章节号"),
        ({"new_name": "林砚之", "action": "drop"}, "只能是 rename 或 undo"),
    ):
        answer = post(board, "linyan", {"action": "rename", "token": token, **fields})
        assert answer.status == 400 and said in answer.body, (fields, answer.body[-2000:])
    lichen = post(
        board,
        "lichen",
        {"action": "rename", "new_name": "厉堂主", "from_chapter": "3", "token": token},
    )
    assert lichen.status == 400 and "它在第9章才登场" in lichen.body
    assert book_state(board) == before  # nothing was written by any refusal


def test_a_rename_from_a_later_chapter_and_its_undo(board: Running) -> None:
    """血衣堂主 is revealed as 厉沉 in chapter 9; the author names him 厉堂主 from chapter 11:
    the page as of 10 still says 厉沉, as of 13 厉堂主; the undo takes it back."""
    token = token_of(board.get("/characters/lichen").body)
    rename = {"action": "rename", "new_name": "厉堂主", "from_chapter": "11", "token": token}
    answer = post(board, "lichen", {**rename, "as_of": "10"})
    assert "as_of=11" in answer.headers["location"]  # shown where the new name holds
    assert heading(follow(board, answer)) == "厉堂主"
    assert heading(board.get("/characters/lichen?as_of=10").body) == "厉沉"
    latest = board.get("/characters/lichen").body
    assert heading(latest) == "厉堂主" and "撤销改名「厉沉」→「厉堂主」（自第11章起）" in latest
    undone = post(board, "lichen", {"action": "undo", "token": token, "as_of": "13"})
    shown = follow(board, undone)
    assert heading(shown) == "厉沉"
    assert "已撤销改名「厉沉」→「厉堂主」，名字恢复为「厉沉」" in shown
    assert 'value="undo"' not in shown  # nothing left to undo
    with webnovel.open_project(board.root) as book:
        assert book.entity("lichen").name == "厉沉"
        assert "厉堂主" not in book.entity("lichen").aliases
    again = post(board, "lichen", {"action": "undo", "token": token})
    assert again.status == 400 and "「厉沉」没有可撤销的改名" in again.body


def test_the_rename_control_speaks_english_under_webnovel_lang_en(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    page = board.get("/characters/zhoubo").body
    assert "<h2>Rename</h2>" in page and 'placeholder="new name"' in page
    assert "blank: where introduced" in page
    token = token_of(page)
    taken = post(board, "zhoubo", {"action": "rename", "new_name": "林砚", "token": token})
    assert taken.status == 400
    assert "nothing was renamed: cannot rename to 「林砚」" in taken.body
    done = follow(
        board, post(board, "zhoubo", {"action": "rename", "new_name": "铁伯", "token": token})
    )
    assert "renamed 「周伯」 to 「铁伯」 from chapter 1; 「周伯」 stays an alias" in done
    assert "Undo the rename 「周伯」 → 「铁伯」 (from chapter 1)" in done


def test_beyond_this_machine_a_rename_needs_the_login_token_too(tmp_path: Path) -> None:
    root = build_sample_book(tmp_path / "book")
    with running_dashboard(root, login_token="t0ken") as board:
        assert board.get("/characters/linyan").status == 401
        entered = board.get("/characters/linyan?login=t0ken")
        cookie = {"Cookie": entered.headers["set-cookie"].split(";")[0]}
        page = board.get("/characters/linyan", cookie).body
        rename = {"action": "rename", "new_name": "林砚之", "token": token_of(page)}
        assert post(board, "linyan", rename).status == 401  # the page's token alone is not enough
        assert book_state(board)[1] == "林砚"
        assert post(board, "linyan", rename, cookie).status == 303
        assert book_state(board)[1] == "林砚之"


def test_an_entity_whose_id_holds_url_syntax_is_renamed_through_its_form(tmp_path: Path) -> None:
    odd = ["a/b", "x?y=1", "h#1", "../up", "百分%20号", "sp ace", "c/rename"]
    root = tmp_path / "odd"
    with webnovel.init_project(root, title="怪名") as book:
        book.commit(
            {"chapter": 1, "entities_new": [{"id": i, "name": f"人{n}"} for n, i in enumerate(odd)]}
        )
    with running_dashboard(root) as board:
        for n, entity_id in enumerate(odd):
            page = board.get(f"/characters/{urllib.parse.quote(entity_id, safe='')}").body
            action = re.search(r'<form class="resolve" method="post" action="([^"]+)"', page)
            assert action is not None, (entity_id, page[-1500:])
            fields = {"action": "rename", "new_name": f"新{n}", "token": token_of(page)}
            body = urllib.parse.urlencode(fields).encode()
            answer = board.request("POST", html.unescape(action[1]), body, FORM)
            assert heading(follow(board, answer)) == f"新{n}", entity_id
    with webnovel.open_project(root) as book:
        assert [book.entity(i).name for i in odd] == [f"新{n}" for n in range(len(odd))]


def test_a_received_books_odd_rename_record_still_shows_the_page(tmp_path: Path) -> None:
    """The author's layer is the book's meta: a received book's rename record whose chapters
    are not numbers still gives the page, its undo without a chapter."""
    import json

    from webnovel.book import author_layer

    root = build_sample_book(tmp_path / "book")
    with webnovel.open_project(root) as book:
        book.rename_entity("zhoubo", "铁伯")
        kept = author_layer.decisions(book.store)
        odd = [{**d, "chapters": ["一"]} for d in kept]
        with book.storage.writing() as store:
            store.commits.set_meta(author_layer.DECISIONS_KEY, json.dumps(odd, ensure_ascii=False))
    with running_dashboard(root) as board:
        page = board.get("/characters/zhoubo")
        assert page.status == 200, page.body[-800:]
        assert ">撤销改名「周伯」→「铁伯」</button>" in page.body
