"""A chapter's title is searchable as its own passage: a question made of a 回目's words, or of
either half-line, finds that chapter first (on 《西游记》's first twenty 回, public domain;
before, a 回目's own words found another chapter for two thirds of the half-lines)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

import webnovel
from webnovel.memory.retrieval.chunker import chapter_title_words

XIYOUJI = Path(__file__).parents[1] / "benchmarks" / "data" / "xiyouji.txt.gz"


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    whole = gzip.decompress(XIYOUJI.read_bytes()).decode("utf-8")
    first_twenty = whole[: whole.index("第二十一回")]
    folder = tmp_path_factory.mktemp("titles")
    source = folder / "西游记.txt"
    source.write_text(first_twenty, encoding="utf-8")
    with webnovel.init_project(folder / "book", title="西游记") as made:
        made.import_text(source)
    return folder / "book"


def test_the_number_is_not_part_of_the_words() -> None:
    assert chapter_title_words("第十二回　夺状元枪挑小梁王") == "夺状元枪挑小梁王"
    assert chapter_title_words("第3章：斗之气") == "斗之气"
    assert chapter_title_words("楔子") == "楔子"
    assert chapter_title_words(None) == ""


def test_a_title_and_each_half_line_find_their_chapter_first(book: Path) -> None:
    with webnovel.open_project(book) as opened:
        chapters = opened.chapters()
        assert len(chapters) == 20
        for chapter in chapters:
            words = chapter_title_words(chapter["title"])
            for question in [words, *re.split(r"[\s\u3000]+", words)]:
                hits = opened.search(question, top_k=3)
                assert hits and hits[0].chapter == chapter["chapter"], (question, hits)
                assert hits[0].kind == "chapter_title"


def test_a_title_never_leaks_past_as_of(book: Path) -> None:
    with webnovel.open_project(book) as opened:
        hits = opened.search("官封弼马心何足", top_k=5, as_of=3)
        assert all(hit.chapter <= 3 for hit in hits)
