"""Chapters a source holds twice. Texts passed around as one TXT often repeat a chapter: the same
第三十四回 pasted again, with a character or two changed. Counted as a chapter of its own it
shifts every later chapter by one, and memory then says 第三十五回 where the book says 三十四.

A chapter is a double of an earlier one when its heading has the same number in the same volume
and its text is nearly the same. A heading number repeated over a different text is not a
double (a source may have misnumbered a chapter): both stay, and the import warns.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .text_import import ImportedChapter, heading_parts

NEARLY_THE_SAME = 0.8  # share of the shorter text's character trigrams found in the other


@dataclass(frozen=True)
class Doubled:
    """A chapter left out as a repeat: its heading and text, and which kept chapter it repeats
    (by its place among the chapters kept, counting from 0)."""

    heading: str
    repeats: int
    similarity: float
    text: str


def heading_number(heading: str) -> str | None:
    """「三十四」 for 「第三十四回 …」, as written (full-width digits folded); None for a heading
    with no number (楔子, 序章). A source writes its numbers one way throughout, so the words
    compare as the numbers do."""
    written, _ = heading_parts(heading)
    return unicodedata.normalize("NFKC", written) if written is not None else None


def similarity(a: str, b: str) -> float:
    """How much of the shorter text the longer one holds, by character trigrams: 1.0 for the
    same text, about 0.99 for a copy with a few characters changed. Linear in the texts."""
    grams_a, grams_b = _trigrams(a), _trigrams(b)
    if not grams_a or not grams_b:
        return 1.0 if a.strip() == b.strip() else 0.0
    return len(grams_a & grams_b) / min(len(grams_a), len(grams_b))


def _trigrams(text: str) -> set[str]:
    text = "".join(text.split())
    return {text[i : i + 3] for i in range(len(text) - 2)}


def set_apart_doubles(
    chapters: list[ImportedChapter],
) -> tuple[list[ImportedChapter], list[Doubled], list[tuple[int, int]]]:
    """The chapters to keep, the doubles left out, and the kept chapters (by place, two at a
    time) whose headings share a number over different texts."""
    kept: list[ImportedChapter] = []
    doubled: list[Doubled] = []
    renumbered: list[tuple[int, int]] = []
    seen: dict[tuple[str | None, str], list[int]] = {}  # (volume, number) → places in `kept`
    for chapter in chapters:
        number = heading_number(chapter.heading)
        earlier = seen.get((chapter.volume, number), []) if number is not None else []
        best = max(((similarity(kept[i].text, chapter.text), i) for i in earlier), default=None)
        if best is not None and best[0] >= NEARLY_THE_SAME:
            doubled.append(Doubled(chapter.heading, best[1], round(best[0], 3), chapter.text))
            continue
        if earlier:
            renumbered.append((earlier[-1], len(kept)))
        if number is not None:
            seen.setdefault((chapter.volume, number), []).append(len(kept))
        kept.append(chapter)
    return kept, doubled, renumbered
