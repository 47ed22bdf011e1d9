"""A chapter that is one long paragraph costs a search what an ordinary chapter costs: its text
is cut into slices of bounded length, and a passage's snippet is found in one pass over its
matches. The speed itself is measured in benchmarks/big_chapter.py, not here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import webnovel
from webnovel.memory.retrieval.chunker import SLICE_CHARS, slice_text
from webnovel.memory.retrieval.scoring import LexicalMatch, snippet

CLAUSE = "林砚提着断刀走过青石镇的长街，"  # a comma, never a sentence end
MEGABYTE_PARAGRAPH = CLAUSE * (1_000_000 // len(CLAUSE.encode("utf-8")))


def test_a_paragraph_without_sentence_ends_is_cut_at_its_clauses() -> None:
    pieces = slice_text(MEGABYTE_PARAGRAPH)
    assert max(len(p) for p in pieces) <= SLICE_CHARS
    assert all(p.endswith("，") for p in pieces)
    assert "".join(pieces) == MEGABYTE_PARAGRAPH  # nothing lost, nothing added


def test_a_paragraph_without_any_punctuation_is_cut_at_the_bound() -> None:
    text = "林砚提着断刀走过青石镇的长街" * 1000
    pieces = slice_text(text)
    assert [len(p) for p in pieces] == [SLICE_CHARS] * (len(text) // SLICE_CHARS)
    assert "".join(pieces) == text


def test_a_long_sentence_between_short_ones_is_cut_and_the_rest_kept_whole() -> None:
    """Ordinary sentences are never cut; only the one longer than a slice is."""
    short = "周伯叹了口气。"
    text = short * 30 + CLAUSE * 60 + "。" + short * 30
    pieces = slice_text(text)
    assert max(len(p) for p in pieces) <= SLICE_CHARS
    assert "".join(pieces) == text
    assert pieces[0].endswith("。") and pieces[-1].endswith("。")


def test_a_single_line_text_opening_with_a_hash_is_kept() -> None:
    """A short line opening with # is a Markdown heading; a whole novel on one line that
    happens to open with one is text."""
    text = "# 第一章 青石镇 " + MEGABYTE_PARAGRAPH[:5000]
    assert "".join(slice_text(text)) == text
    assert slice_text("# 第一章 青石镇\n\n林砚醒了。") == ["林砚醒了。"]


def test_a_chapter_of_one_megabyte_paragraph_is_stored_in_bounded_slices(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="长段") as book:
        book.commit({"chapter": 1, "summary": "林砚走过长街"}, text=MEGABYTE_PARAGRAPH)
        hits = book.search("断刀", top_k=3)
        assert [h.kind for h in hits] == ["scene_slice"] * 3
        assert all("断刀" in h.snippet for h in hits)
        slices = [
            text
            for (text,) in book.storage.vectors.conn.execute(
                "SELECT text FROM chunks WHERE chapter = 1 AND kind = 'scene_slice' ORDER BY seq"
            )
        ]
    assert max(len(text) for text in slices) <= SLICE_CHARS
    assert "".join(slices) == MEGABYTE_PARAGRAPH


class Counted(tuple[Any, ...]):
    """A match's spans or weights that count how many items a caller reads from them."""

    reads = 0

    def __iter__(self) -> Iterator[Any]:
        for item in super().__iter__():
            Counted.reads += 1
            yield item

    def __getitem__(self, index: Any) -> Any:
        Counted.reads += 1
        return super().__getitem__(index)


def test_the_snippet_reads_each_match_a_few_times_not_once_per_other_match() -> None:
    """A passage naming its hero 3,000 times: the window holding the most matched weight is
    found in one pass (it was a sum over every match for every match: 9 million reads)."""
    matches = 3_000
    text = "林砚挥刀" * matches
    spans = Counted((4 * i, 4 * i + 2) for i in range(matches))
    weights = Counted(1.0 for _ in range(matches))
    Counted.reads = 0
    shown = snippet(text, LexicalMatch(1.0, 1.0, spans, weights))
    assert Counted.reads <= 10 * matches
    assert shown.text.startswith("林砚挥刀") and shown.marks[0] == (0, 2)
