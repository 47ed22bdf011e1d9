"""The in-memory vector matrix on a real `vectors.db`: the sign codes that narrow a large book
find what the full scan finds, and a search as of chapter N reads nothing after it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.memory.retrieval.dense_matrix import DenseMatrix
from webnovel.memory.store import vector_store

np = pytest.importorskip("numpy")

DIM = 384
MODEL = "test-clusters-384"


def _vectors(rows: int, seed: int) -> tuple[Any, Any]:
    """Passages around 50 topics sharing one common direction (as a real model's do), and the
    topics themselves as questions."""
    rng = np.random.default_rng(seed)
    common = rng.standard_normal(DIM)
    topics = rng.standard_normal((50, DIM)) + 2 * common
    vectors = topics[rng.integers(0, 50, rows)] + 1.2 * rng.standard_normal((rows, DIM))
    questions = topics + 0.8 * rng.standard_normal((50, DIM))
    return vectors.astype(np.float32), questions.astype(np.float32)


def _store(root: Path, vectors: Any, chapters: list[int]) -> webnovel.Project:
    """A book whose vectors.db holds one chunk and one vector per row, chapters written in a
    shuffled order (rowids do not follow chapters, as after revisions)."""
    book = webnovel.init_project(root, title="向量")
    conn = book.retrieval().store.conn
    order = list(range(len(vectors)))
    random.Random(3).shuffle(order)
    with book.retrieval().store.atomic() as write:
        rows = []
        for i in order:
            rowid = vector_store.insert_chunk(
                write, chapters[i], f"c{i}", "scene_slice", i, f"第{i}段", []
            )
            rows.append((rowid, DIM, vectors[i].tobytes()))
        vector_store.put_vectors(write, MODEL, rows)
    assert vector_store.counts(conn)["vectors"] == len(vectors)
    return book


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    vectors, questions = _vectors(3000, seed=11)
    chapters = [1 + i // 50 for i in range(len(vectors))]  # 60 chapters of 50 passages
    project = _store(tmp_path_factory.mktemp("dense") / "b", vectors, chapters)
    yield project, questions
    project.close()


def _loaded(project: webnovel.Project) -> DenseMatrix:
    matrix = DenseMatrix()
    assert matrix.load(project.retrieval().store.conn, MODEL, DIM)
    return matrix


def test_sign_codes_find_what_the_full_scan_finds(book: Any) -> None:
    project, questions = book
    matrix = _loaded(project)
    rng = random.Random(5)
    for question in questions:
        as_of = rng.choice([None, rng.randint(10, 60)])
        exact = matrix.nearest(question, as_of, 10, exact=True)
        fast = matrix.nearest(question, as_of, 10, exact=False, keep=len(matrix.rowids) // 16)
        assert list(fast.cosines) == list(exact.cosines)  # same passages, same order
        assert list(fast.cosines.values()) == pytest.approx(list(exact.cosines.values()))
        assert (fast.mean, fast.spread, fast.rows) == pytest.approx(
            (exact.mean, exact.spread, exact.rows)
        )


def test_the_spread_of_a_large_book_comes_from_a_sample_within_a_few_percent() -> None:
    vectors, questions = _vectors(40_000, seed=2)
    matrix = DenseMatrix()
    matrix.matrix = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    matrix.rowids = np.arange(1, len(vectors) + 1)
    matrix.chapters = matrix.rowids // 10
    matrix._by_rowid = np.arange(len(vectors))
    for question in questions[:10]:
        exact = matrix.nearest(question, None, 10, exact=True)
        fast = matrix.nearest(question, None, 10, exact=False)
        # 4,096 rows of a book whose questions each stand near one topic in fifty: the few
        # close rows weigh on the spread, so a sample misses it by a few percent at most
        assert fast.spread == pytest.approx(exact.spread, rel=0.06)
        assert fast.mean == pytest.approx(exact.mean, abs=0.06 * exact.spread)
        assert list(fast.cosines)[:5] == list(exact.cosines)[:5]


@pytest.mark.parametrize("exact", [True, False])
def test_as_of_reads_nothing_after_its_chapter(book: Any, tmp_path: Path, exact: bool) -> None:
    """As of chapter 30 the answer is the one a book holding chapters 1–30 alone gives, and no
    later passage is named, not even one asked about by rowid."""
    project, questions = book
    matrix = _loaded(project)
    conn = project.retrieval().store.conn
    chapter_of = dict(conn.execute("SELECT id, chapter FROM chunks").fetchall())
    name_of = dict(conn.execute("SELECT id, chunk_id FROM chunks").fetchall())
    later = [r for r, c in chapter_of.items() if c > 30][:5]
    earlier = [r for r, c in chapter_of.items() if c <= 30][:5]
    vectors, _ = _vectors(3000, seed=11)
    with _store(tmp_path / "alone", vectors[:1500], [1 + i // 50 for i in range(1500)]) as alone:
        alone_matrix = _loaded(alone)
        alone_name_of = dict(
            alone.retrieval().store.conn.execute("SELECT id, chunk_id FROM chunks").fetchall()
        )
    for question in questions[:20]:
        answer = matrix.nearest(question, 30, 10, {*later, *earlier}, exact=exact, keep=200)
        assert answer.rows == 1500
        assert all(chapter_of[r] <= 30 for r in answer.cosines)
        assert set(earlier) <= set(answer.cosines)
        same = alone_matrix.nearest(question, None, 10, exact=exact, keep=200)
        assert [name_of[r] for r in list(answer.cosines)[:10]] == [
            alone_name_of[r] for r in same.cosines
        ]
        assert (answer.mean, answer.spread) == pytest.approx((same.mean, same.spread))
