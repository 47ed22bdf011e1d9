"""The dashboard and the reader wiki speak the language asked for (issue 41): every word of a
template is the catalogue's, said when the page renders, so a board started with
WEBNOVEL_LANG=en has English chrome (navigation, headings, buttons, labels, table heads,
placeholders, `<html lang="en">`) around the book's own Chinese, and the default is the Chinese
it always was."""

from __future__ import annotations

import html.parser
import json
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402
from webnovel.dashboard.templating import TEMPLATES  # noqa: E402
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters  # noqa: E402

from dashboard_server import PAGES, Running, build_sample_book, running_dashboard  # noqa: E402

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
# where a page's own words are: its frame and headings, table heads, buttons, form labels
CHROME_TAGS = {"title", "nav", "h1", "h2", "h3", "h4", "th", "button", "label", "summary"}
CHROME_ATTRIBUTES = {"placeholder", "aria-label"}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = build_sample_book(tmp_path_factory.mktemp("language") / "book")
    with running_dashboard(root) as running:
        yield running


class Chrome(html.parser.HTMLParser):
    """The text a page's chrome shows: inside CHROME_TAGS, and the CHROME_ATTRIBUTES of any
    element."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in CHROME_TAGS:
            self._inside.append(tag)
        self.parts += [v for k, v in attrs if k in CHROME_ATTRIBUTES and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in CHROME_TAGS and tag in self._inside:
            while self._inside.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.parts.append(data)


def chrome_of(body: str) -> list[str]:
    reader = Chrome()
    reader.feed(body)
    return reader.parts


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    """Every string held in `value`, down into mappings, sequences and objects' attributes."""
    if isinstance(value, str):
        yield value
    elif depth > 4 or callable(value) and not hasattr(value, "__dict__"):
        return
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key, depth + 1)
            yield from _strings(item, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _strings(item, depth + 1)
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        yield from _strings(vars(value), depth + 1)


def book_words(root: Path) -> set[str]:
    """The Chinese a page may show under any language: the sample book's own (its title, its
    chapter results and texts: names, summaries, quoted text, relation types; the names its
    texts suggest; its conflicts, each said with the book's words in it) and the words the
    vocabulary takes in any language (memory/vocabulary.py's synonyms: their own subject, not
    the templates'; its labels are said in the page's language)."""
    from webnovel.memory import vocabulary

    with webnovel.open_project(root) as book:
        held = [c.message for c in book.conflicts(include_settled=True)]
        held += [c.name for c in book.candidates(as_of=book.latest_chapter())]
    held += ["青灯照剑", "仙侠"]
    for chapter in sample_chapters():
        held += [json.dumps(chapter.result, ensure_ascii=False), chapter.text or ""]
    held.append((sample_book_dir() / "drafts" / "013-draft-with-mistakes.json").read_text("utf-8"))
    for name, value in vars(vocabulary).items():
        if name.isupper():
            held += _strings(value)
    return {run for text in held for run in HAN.findall(text)}


def foreign(parts: Iterable[str], allowed: set[str]) -> set[str]:
    """The runs of Chinese in `parts` that are not the book's own or the vocabulary's."""
    return {run for part in parts for run in HAN.findall(part) if run not in allowed}


def every_page(root: Path) -> list[str]:
    """Every page a person can open on the sample book: each kind, each chapter, entity,
    thread and task, a page that cannot be shown, and the revision editor."""
    from webnovel.memory.packs.recipes import RECIPES

    with webnovel.open_project(root) as book:
        latest = book.latest_chapter() or 0
        entities = [e.id for e in book.entities()]
        threads = [t.id for t in book.threads("all")]
    return sorted(
        {
            *PAGES,
            "/candidates",
            "/revise?chapter=3",
            "/chapters/99",
            *(f"/chapters/{n}" for n in range(1, latest + 1)),
            *(f"/characters/{urllib.parse.quote(e, safe='')}" for e in entities),
            *(f"/threads/{urllib.parse.quote(t, safe='')}" for t in threads),
            *(f"/pack?task={task}" for task in RECIPES),
        }
    )


def _get(board: Running, path: str, as_of: int) -> str:
    glue = "&" if "?" in path else "?"
    answer = board.get(urllib.parse.quote(f"{path}{glue}as_of={as_of}", safe="/?=&"))
    assert answer.status in (200, 404), (path, answer.status, answer.body[:300])
    return answer.body


def test_no_template_holds_a_chinese_word() -> None:
    """Every word a template shows is said from the catalogue: none is written in place."""
    written = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        source = re.sub(r"\{#.*?#\}", "", path.read_text("utf-8"), flags=re.S)
        if found := HAN.findall(source):
            written[path.relative_to(TEMPLATES).as_posix()] = found
    assert written == {}


def test_every_page_has_english_chrome_under_webnovel_lang_en(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    allowed = book_words(board.root)
    found = {}
    for as_of in (9, 13):
        for path in every_page(board.root):
            body = _get(board, path, as_of)
            assert '<html lang="en">' in body, path
            if chinese := foreign(chrome_of(body), allowed):
                found[f"{path} as of {as_of}"] = chinese
    assert found == {}
    overview = _get(board, "/", 13)
    for english in ("memory board", "as of chapter", "recent commits", "open conflicts"):
        assert english in overview, english
    assert "记忆面板" not in overview and "截至第" not in overview


def test_every_page_keeps_its_chinese_chrome_by_default(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    for path in every_page(board.root):
        body = _get(board, path, 13)
        assert '<html lang="zh-CN">' in body, path
        assert "截至第" in body and "记忆面板" in body and "memory board" not in body, path
    overview = " ".join(chrome_of(_get(board, "/", 13)))
    for chinese in ("总览", "主角快照", "最近提交", "未决矛盾", "逾期线索", "全书观测", "提交于"):
        assert chinese in overview, chinese
    chapter = _get(board, "/chapters/2", 13)
    assert "<th>谁</th><th>什么</th><th>之前</th><th>之后</th><th>原因</th>" in chapter


def test_the_language_is_read_when_a_page_renders(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One running board, asked in turn: each page speaks the language of its moment."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert "<h2>recent commits</h2>" in _get(board, "/", 13)
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert "<h2>最近提交</h2>" in _get(board, "/", 13)


def test_the_passage_loader_says_its_words_in_the_pages_language(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The script writes no words of its own: the page hands them over."""
    script = (TEMPLATES.parent / "static" / "dashboard.js").read_text("utf-8")
    assert not HAN.search(script)
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    body = _get(board, "/conflicts", 13)
    assert 'data-passage-failed="(the passage could not be loaded)"' in body


def test_an_empty_book_and_the_reader_wiki_speak_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, board: Running
) -> None:
    from webnovel.dashboard.wiki import write_wiki

    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    webnovel.init_project(tmp_path / "empty", title="空书").close()
    with running_dashboard(tmp_path / "empty") as running:
        empty = running.get("/").body
    assert "No chapter of this book is committed yet" in empty
    assert foreign(chrome_of(empty), {"空书"}) == set()
    with webnovel.open_project(board.root) as book:
        write_wiki(book, tmp_path / "wiki", 9)
    allowed = book_words(board.root)
    pages = sorted((tmp_path / "wiki").glob("*.html"))
    assert len(pages) > 5
    for page in pages:
        body = page.read_text("utf-8")
        assert '<html lang="en">' in body and "no spoilers" in body, page.name
        assert foreign(chrome_of(body), allowed) == set(), page.name


def test_a_foreign_host_is_refused_in_the_language_asked_for(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    answer = board.get("/", headers={"Host": "evil.example"})
    assert answer.status == 400
    assert answer.body.startswith("the Host is not this machine") and not HAN.search(answer.body)
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert board.get("/", headers={"Host": "evil.example"}).body.startswith("Host 不是本机")


def test_entity_types_are_labelled_and_whole_numbers_drop_their_point(
    board: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The type a book stores (角色) is shown in the reader's words, the value a form sends stays
    the stored one; a chart's whole numbers read 444, not 444.0."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    character = _get(board, "/characters/linyan", 13)
    assert '<span class="tag">character</span>' in character
    candidates = _get(board, "/candidates", 13)
    if "<select" in candidates:  # the sample book has names waiting
        assert '<option value="角色">character</option>' in candidates
    overview = _get(board, "/", 13)
    assert not re.search(r"\d\.0 (KB|token)", overview), re.findall(r"\S+\.0 \w+", overview)
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert '<span class="tag">角色</span>' in _get(board, "/characters/linyan", 13)


def test_tiers_are_shown_in_the_readers_words(
    board: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tier a book stores (重要, 反派, 装饰) is a tag in the reader's language on the cards, a
    character's page and the reader wiki; Chinese stays Chinese."""
    from webnovel.dashboard.wiki import write_wiki

    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    cards = _get(board, "/characters", 13)
    tags = set(re.findall(r'<span class="tag">([^<]*)</span>', cards))
    assert {"important", "villain", "extra"} <= tags, tags
    assert not {"重要", "反派", "装饰"} & tags, tags
    assert '<span class="tag good">protagonist</span>' in cards  # the one tier said as a flag
    with webnovel.open_project(board.root) as book:
        important = next(e for e in book.entities(13) if e.tier == "重要")
        write_wiki(book, tmp_path / "wiki", 13)
    assert '<span class="tag">important</span>' in _get(board, f"/characters/{important.id}", 13)
    wiki = (tmp_path / "wiki" / "index.html").read_text("utf-8")
    assert '<span class="muted">important</span>' in wiki and "重要</span>" not in wiki
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert '<span class="tag">重要</span>' in _get(board, "/characters", 13)
