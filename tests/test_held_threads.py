"""The threads open at a chapter, as a book handle's snapshot keeps them between packs
(`ranking_scans.RankingSnapshot.open_threads`): picked from every thread version's span
(`ThreadSpans`, by blocks of chapters), they are those the state index gives, in its order,
whatever chapters were asked before and however long a block; and a commit is seen by the next
pack."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.memory.store.ranking_scans import (
    RankingSnapshot,
    ThreadSpans,
    Wordings,
    thread_rows,
)

from library_nights import OUTLINE, night
from stores import BACKENDS, init_book


@pytest.mark.parametrize("block", [ThreadSpans.BLOCK, 7, 1])
def test_threads_kept_for_chapters_asked_in_any_order_equal_the_state_index(
    saga_book: webnovel.Project, block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ThreadSpans, "BLOCK", block)
    conn = saga_book.storage.conn
    snapshot = RankingSnapshot(conn, Wordings(lambda text, domain: ((), ())))
    # later chapters first, then earlier ones made from them, more than are kept at once
    asked = [300, 150, 149, 151, 20, 299, 1, 75, 76, 74, 200, 120, 121, 10, 250, 260, 30, 0]
    asked += [31, 5, 127, 128, 129, 5000]  # at blocks' ends, and past the book's last chapter
    assert len(asked) > RankingSnapshot.CHAPTERS_KEPT
    sizes = set()
    for as_of in asked:
        kept = list(snapshot.open_threads(conn, as_of))
        assert kept == list(thread_rows(conn, as_of)), as_of
        sizes.add(len(kept))
    assert len(sizes) > 5  # the threads open do change with the chapter


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_a_thread_planted_after_packs_at_later_chapters_shows_at_earlier_ones(
    tmp_path: Path, backend: str
) -> None:
    def threads(book: webnovel.Project, chapter: int) -> list[str]:
        pack = book.build_memory_pack("chapter_write", chapter, outline=OUTLINE, record=False)
        return [i.value for s in pack.sections if s.name == "threads" for i in s.items]

    plant = {"id": "jing", "action": "plant", "content": "残经的下落", "related": ["linyan"]}
    with init_book(backend, tmp_path / "book") as book:
        for chapter in range(1, 9):
            book.commit(night(chapter))
        for chapter in (9, 9, 6, 4):  # the second pack at 9 keeps a snapshot; 6 and 4 from 9
            assert threads(book, chapter) == []
        book.commit(night(3, plot_threads=[plant]))  # a revision plants a thread at 3
        for chapter in (9, 9, 6, 4, 3):
            assert threads(book, chapter) == ([] if chapter == 3 else ["残经的下落"])
