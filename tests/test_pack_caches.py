"""What a pack keeps between packs (a rule's terms and its parsed row, by content; search's term
counts, by store generation and chapter) never serves a stale wording or a later chapter's: a
rule revised, retracted or re-committed in place (SQLite may then reuse the row's id) shows as
it now reads, and search counts as of a chapter do not move when later chapters come."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel

from library_nights import OUTLINE, night
from stores import BACKENDS, init_book

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)


def _rules(book: webnovel.Project, chapter: int) -> list[str]:
    pack = book.build_memory_pack("chapter_write", chapter, outline=OUTLINE, record=False)
    return [i.value for s in pack.sections if s.name == "world_rules" for i in s.items]


def test_a_rule_reads_as_its_latest_wording_through_revise_retract_and_recommit(
    tmp_path: Path, backend: str
) -> None:
    with init_book(backend, tmp_path / "book") as book:
        book.commit(
            night(1, world_rules=[{"id": "qi", "rule": "灵气只在子时充盈", "domain": "修炼"}])
        )
        book.commit(night(2))
        assert _rules(book, 3) == ["灵气只在子时充盈"]
        revised = {"id": "qi", "rule": "灵气只在子时与午时充盈", "action": "revise"}
        book.commit(night(3, world_rules=[revised]))
        # the revision is chapter 3's: a pack for chapter 3 still reads the old wording
        assert _rules(book, 3) == ["灵气只在子时充盈"]
        assert _rules(book, 4) == ["灵气只在子时与午时充盈"]
        book.retract(3)
        assert _rules(book, 4) == ["灵气只在子时充盈"]
        # chapter 3 again, worded otherwise: the latest rows are new (SQLite may give them the
        # ids the retracted ones had), the pack reads what they say now
        again = {"id": "qi", "rule": "灵气只在子夜充盈，午时全无", "action": "revise"}
        book.commit(night(3, world_rules=[again]))
        assert _rules(book, 4) == ["灵气只在子夜充盈，午时全无"]
        book.commit(night(3, world_rules=[{**again, "rule": "灵气终日充盈"}]))
        assert _rules(book, 4) == ["灵气终日充盈"]
        assert _rules(book, 3) == ["灵气只在子时充盈"]


def _scores(book: webnovel.Project, text: str, as_of: int) -> list[tuple[str, float]]:
    return [(h.chunk_id, round(h.score, 9)) for h in book.search(text, 10, as_of)]


def test_search_as_of_a_chapter_counts_the_same_before_and_after_later_chapters(
    tmp_path: Path, backend: str
) -> None:
    with init_book(backend, tmp_path / "book") as book:
        for chapter in (1, 2, 3):
            book.commit(night(chapter), text=f"林砚在藏经阁读残经。灵气第{chapter}回充盈。")
        # as of the last chapter the counts need no chapter filter; as of an earlier one they do
        latest = _scores(book, "藏经阁残经灵气", 3)
        assert latest == _scores(book, "藏经阁残经灵气", 30)
        earlier = _scores(book, "藏经阁残经灵气", 2)
        for chapter in (4, 5):
            book.commit(night(chapter), text="藏经阁里灵气充盈，残经成灰。" * 3)
        assert _scores(book, "藏经阁残经灵气", 3) == latest
        assert _scores(book, "藏经阁残经灵气", 2) == earlier
        assert _scores(book, "藏经阁残经灵气", 5) != latest  # later chapters count as of 5
