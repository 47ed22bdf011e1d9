"""Search's term counts as of a chapter, kept by a handle across searches
(`retrieval.term_counts.HeldCounts`): each equals the count made afresh on the index, whichever
chapters were asked before and in whatever order, and a write that changes the chunks (a
revision, a new chapter) is seen by the next count."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.memory.retrieval.term_counts import HeldCounts
from webnovel.memory.store.lexical_index import FEW_CHAPTERS

from library_nights import night
from stores import BACKENDS, init_book

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)

TERMS = [
    ("chars", ("阁",)),
    ("chars", ("灵",)),
    ("bigrams", ("残经",)),
    ("bigrams", ("灵气", "充盈")),
]
QUESTION = "藏经阁里灵气充盈"


def _text(chapter: int) -> str:
    """Terms in some chapters and not others, so that every count moves with the chapter."""
    parts = ["林砚夜读残经。" if chapter % 2 else "林砚静坐。"]
    if chapter % 3 == 0:
        parts.append("藏经阁灯火未熄。")
    if chapter % 5 in (1, 2):
        parts.append("灵气充盈。" * (chapter % 4 + 1))
    return "".join(parts)


def _commit(book: webnovel.Project, chapters: range) -> None:
    for chapter in chapters:
        book.commit(night(chapter), text=_text(chapter))


def _scores(book: webnovel.Project, as_of: int) -> list[tuple[str, float]]:
    return [(h.chunk_id, round(h.score, 9)) for h in book.search(QUESTION, 10, as_of)]


def test_a_held_count_equals_the_count_made_afresh(tmp_path: Path, backend: str) -> None:
    with init_book(backend, tmp_path / "book") as book:
        _commit(book, range(1, 61))
        book.search(QUESTION, 10, 30)  # indexes the chapters
        lexicon = book.retrieval().lexicon
        held = HeldCounts(lexicon.count_holding)
        # near and far from the chapters already counted, above and below them
        asked = [30, 31, 29, 30 + FEW_CHAPTERS, 31 + FEW_CHAPTERS, 2, 59, 45, 44, 1, 60, 17]
        moved = set()
        for chapter in asked:
            for column, terms in TERMS:
                afresh = lexicon.count_holding(column, terms, chapter)
                assert held.count("g1", column, terms, chapter) == afresh, (terms, chapter)
                moved.add((terms, afresh))
        assert len(moved) > 3 * len(TERMS)  # the counts do move with the chapter
        # another generation of the index: nothing held from the last one is used
        assert held.count("g2", "chars", ("阁",), 30) == lexicon.count_holding("chars", ["阁"], 30)


def test_searches_at_chapters_in_any_order_score_as_a_fresh_handle(
    tmp_path: Path, backend: str
) -> None:
    with init_book(backend, tmp_path / "book") as book:
        _commit(book, range(1, 41))
        for chapter in [20, 21, 23, 18, 5, 39, 22, 30, 31, 10, 9, 40]:
            held = _scores(book, chapter)
            with webnovel.open_project(tmp_path / "book") as fresh:
                assert held == _scores(fresh, chapter), chapter


def test_a_revision_is_seen_by_the_next_count(tmp_path: Path, backend: str) -> None:
    with init_book(backend, tmp_path / "book") as book:
        _commit(book, range(1, 31))
        before = _scores(book, 20)
        _scores(book, 21)
        # chapter 5 told again, every term in it: the counts as of 20 and 22 change
        book.commit(night(5), text="藏经阁里灵气充盈，残经成灰。" * 3)
        after = _scores(book, 22)
        with webnovel.open_project(tmp_path / "book") as fresh:
            assert after == _scores(fresh, 22)
            assert _scores(book, 20) == _scores(fresh, 20) != before
