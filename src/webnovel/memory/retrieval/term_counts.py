"""How many chunks hold a term up to a chapter, kept across searches while the index is the same.

BM25 weighs a question's terms by how many chunks hold them as of the chapter asked (a book of
chapters 1..N only), and tantivy counts that by walking the term's chunks through the chapter
filter: 1–3 ms for a common character at 10,000 chapters, dozens of terms a pack. The common
terms come back pack after pack at other chapters, so the first count of a term counts its
chunks by stretches of `STRETCH` chapters, in one walk that costs what a count as of one
chapter does, and keeps the running totals; a count as of any chapter is then the total at the
nearest stretch's edge and the chunks of the few chapters between (or taken away): a query led
by those chapters' chunks, not a walk of the term's. Exact, as the counts are of one state of
the index (its generation).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

# (column, terms a chunk must all hold, up to chapter, after chapter) → chunks
CountBetween = Callable[[str, tuple[str, ...], int | None, int | None], int]
# (column, terms, stretch) → {first chapter of a stretch: chunks of its chapters}
CountByStretch = Callable[[str, tuple[str, ...], int], dict[int, int]]


class HeldCounts:
    TERMS_KEPT = 1 << 13  # terms (or phrases) before starting over
    STRETCH = 64  # chapters; a count then looks at most half of it past the totals kept

    def __init__(self, count_between: CountBetween, count_by_stretch: CountByStretch) -> None:
        self._count_between = count_between
        self._count_by_stretch = count_by_stretch
        self._generation: str | None = None
        # (column, terms) → chunks of chapters before each stretch's first chapter (the i-th
        # total: chapters before i × STRETCH), up to the stretch after the last holding one;
        # arrays of ints, which the collector leaves alone
        self._held: dict[tuple[str, tuple[str, ...]], array[int]] = {}

    def count(self, generation: str, column: str, terms: tuple[str, ...], as_of: int) -> int:
        """Chunks holding every one of `terms` in `column`, of chapters up to `as_of`, in the
        index as it is at `generation`."""
        if generation != self._generation:
            self._generation, self._held = generation, {}
        before = self._held.get((column, terms))
        if before is None:
            if len(self._held) >= self.TERMS_KEPT:
                self._held.clear()
            before = self._held[(column, terms)] = self._totals(column, terms)
        # the stretch edge nearest to the chapter after `as_of`: chapters before it are counted
        edge = min(round((as_of + 1) / self.STRETCH), len(before) - 1)
        last_counted = edge * self.STRETCH - 1
        if last_counted < as_of:
            return before[edge] + self._count_between(column, terms, as_of, last_counted)
        if last_counted > as_of:
            return before[edge] - self._count_between(column, terms, last_counted, as_of)
        return before[edge]

    def _totals(self, column: str, terms: tuple[str, ...]) -> array[int]:
        by_stretch = self._count_by_stretch(column, terms, self.STRETCH)
        stretches = max(by_stretch, default=0) // self.STRETCH + 1
        totals = array("q", [0])
        for stretch in range(stretches):
            totals.append(totals[-1] + by_stretch.get(stretch * self.STRETCH, 0))
        return totals
