"""A chunk's folded text is kept when it is cut, so a search does not fold every candidate
again; a book cut before that was kept gets it once, without a re-cut (its vectors stay)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.retrieval.scoring import query_terms, score_passage

TRADITIONAL = "鲁庄公与齐师战于乾時，鲁师败绩。"
SIMPLIFIED = "齐桓公会诸侯于北杏，宋人背盟。"


def _chunks(root: Path) -> dict[str, tuple[int, str | None]]:
    """text → (rowid, folded column) of every chunk of the book."""
    with sqlite3.connect(root / ".webnovel" / "vectors.db") as conn:
        rows = conn.execute("SELECT text, id, folded FROM chunks").fetchall()
    return {text: (rowid, folded) for text, rowid, folded in rows}


def _book(root: Path) -> None:
    with webnovel.init_project(root, title="东周") as book:
        book.commit({"chapter": 1}, text=TRADITIONAL)
        book.commit({"chapter": 2}, text=SIMPLIFIED)
        assert book.search("干时", top_k=1)[0].chapter == 1


def test_the_folded_text_is_kept_when_a_chapter_is_cut(tmp_path: Path) -> None:
    pytest.importorskip("opencc")
    _book(tmp_path / "b")
    chunks = _chunks(tmp_path / "b")
    assert chunks[TRADITIONAL][1] == "鲁庄公与齐师战于干时，鲁师败绩。"
    assert chunks[SIMPLIFIED][1] == ""  # folding leaves it as it is


def test_a_book_cut_without_folded_text_gets_it_once_and_answers_the_same(tmp_path: Path) -> None:
    pytest.importorskip("opencc")
    root = tmp_path / "b"
    _book(root)
    before = _chunks(root)
    with sqlite3.connect(root / ".webnovel" / "vectors.db") as conn:  # as an older version cut it
        conn.execute("UPDATE chunks SET folded = NULL")
        conn.execute("DELETE FROM vectors_meta WHERE key = 'folded_kept'")
    with webnovel.open_project(root) as book:
        hit = book.search("乾時", top_k=1)[0]
        assert hit.chapter == 1 and "乾時" in hit.matched
    assert _chunks(root) == before  # the same chunks (not cut again), their folded text kept


def test_a_passage_scored_without_its_marks_scores_the_same(tmp_path: Path) -> None:
    chapters = list(sample_chapters())
    question = "韩啸被执法长老带走"
    bigrams = [question[i : i + 2] for i in range(len(question) - 1)]
    query = query_terms(bigrams, [], lambda column, term: 1, 12, question)
    for chapter in chapters:
        full = score_passage(query, chapter.text)
        bare = score_passage(query, chapter.text, marked=False)
        assert (bare.score, bare.raw, bare.words_matched) == (
            full.score,
            full.raw,
            full.words_matched,
        )
        assert not bare.spans and (full.spans or not full.words_matched)
