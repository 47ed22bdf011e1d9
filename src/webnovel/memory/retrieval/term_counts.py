"""How many chunks hold a term up to a chapter, kept across searches while the index is the same.

BM25 weighs a question's terms by how many chunks hold them as of the chapter asked (a book of
chapters 1..N only), and tantivy counts that by walking the term's chunks through the chapter
filter: 1–3 ms for a common character at 10,000 chapters, dozens of terms a pack. The common
terms come back pack after pack at other chapters, so a count is kept by chapter and the next
one is made from the nearest kept: the chunks between the two chapters are counted and added
(or taken away). Exact, as the counts are of one state of the index (its generation), and
cheaper, as the filter then passes only the chapters between.
"""

from __future__ import annotations

from collections.abc import Callable

# (column, terms a chunk must all hold, up to chapter, after chapter) → chunks
CountBetween = Callable[[str, tuple[str, ...], int | None, int | None], int]


class HeldCounts:
    TERMS_KEPT = 1 << 14  # terms (or phrases) before starting over
    CHAPTERS_KEPT = 64  # chapters kept of one term: the nearest is then rarely far

    def __init__(self, count_between: CountBetween) -> None:
        self._count_between = count_between
        self._generation: str | None = None
        # (column, terms) → {chapter: chunks}; dicts of ints, which the collector leaves alone
        self._held: dict[tuple[str, tuple[str, ...]], dict[int, int]] = {}

    def count(self, generation: str, column: str, terms: tuple[str, ...], as_of: int) -> int:
        """Chunks holding every one of `terms` in `column`, of chapters up to `as_of`, in the
        index as it is at `generation`."""
        if generation != self._generation:
            self._generation, self._held = generation, {}
        known = self._held.get((column, terms))
        if known is None:
            if len(self._held) >= self.TERMS_KEPT:
                self._held.clear()
            known = self._held[(column, terms)] = {}
        found = known.get(as_of)
        if found is not None:
            return found
        if known:
            near = min(known, key=lambda chapter: (abs(chapter - as_of), chapter))
            if near < as_of:
                found = known[near] + self._count_between(column, terms, as_of, near)
            else:
                found = known[near] - self._count_between(column, terms, near, as_of)
        else:
            found = self._count_between(column, terms, as_of, None)
        if len(known) < self.CHAPTERS_KEPT:
            known[as_of] = found
        return found
