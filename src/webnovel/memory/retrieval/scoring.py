"""How well a passage answers a question, on a 0–1 scale that means the same in every query.

tantivy proposes candidates; this module scores them again, from the book's content alone:
- every term is looked for in the passage's folded text itself (`str.count`), so a name matches
  however the word segmenter cut the passage (洪义 inside 刘洪义), and the scores do not depend on
  how the index's segments happen to be laid out or merged;
- a term's weight is its BM25 idf over the chunks up to the chapter asked about that hold it
  (counted live: deleted ones excluded), so as of N a score is what a book of chapters 1..N
  would give;
- the question's terms are its character bigrams, plus the words of three characters or more its
  segmenter finds (a two-character word is already a bigram: counting it twice let common words
  outrank a rare name);
- the question's characters are terms too, of a lower order: together they weigh CHAR_WEIGHT
  of what its bigrams and words weigh. They rank a passage that shares a question's rare
  characters but not its words (a poem asked for by its title, a name written with one
  character changed) above one that shares neither. They never make a question "found": a
  question none of whose bigrams or words occur in the book finds nothing, and a passage that
  matches characters only is weak evidence (marked as such);
- the lexical score is BM25 divided by what a passage holding every term once would score: 1.0
  means the passage holds all of the question's evidence, 0.3 a third of it.

The same matches mark the passage: `matched` lists the question's terms found in it and `snippet`
is the window holding the most of their weight, with where they stand in it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

K1 = 1.2
B = 0.75
# BM25's length pivot: a fixed passage length rather than the book's average, which would let
# chapters after N change scores as of N (between a summary's length and a slice's)
PIVOT_CHARS = 200.0
PHRASE_CHARS = 3  # words at least this long count as terms of their own
STRADDLE = 0.5  # a question's bigram that straddles two of its words (的桥, 里生) weighs half
# what the question's characters weigh together, against its bigrams and words together
# (measured on our own sets, benchmarks/retrieval_quality.py: 0.6–1.0 alike)
CHAR_WEIGHT = 0.8
# a passage sharing characters only is shown when it holds CHAR_MINIMUM of the question's
# distinct characters (a lone 刀 does not answer 断刀), and when none of the question's bigrams
# or words occurs in the book, also CHAR_SHARE of them (a stray 计 and 机 do not answer
# 量子计算机); such hits are always weak
CHAR_MINIMUM = 2
CHAR_SHARE = 0.5
SNIPPET_CHARS = 120
SNIPPET_LEAD = 24  # characters shown before the first match of the chosen window


@dataclass(frozen=True)
class Term:
    text: str  # folded, lower-case
    column: str  # "bigrams", "phrase" or "chars"
    idf: float
    doc_freq: int


@dataclass(frozen=True)
class QueryTerms:
    terms: tuple[Term, ...]
    ideal: float  # the BM25 of a passage of average length holding every term once

    @property
    def found_anywhere(self) -> bool:
        """Whether any of the question's bigrams or words occurs in the book (its characters
        alone do not count: nearly every character occurs somewhere)."""
        return any(t.doc_freq for t in self.terms if t.column != "chars")


@dataclass(frozen=True)
class LexicalMatch:
    score: float  # 0–1
    raw: float  # BM25, for ordering within one query
    spans: tuple[tuple[int, int], ...]  # matched stretches of the passage, merged, in order
    weights: tuple[float, ...]  # the idf each span carries
    words_matched: bool = True  # False: the passage shares only characters with the question


def idf(doc_freq: int, documents: int) -> float:
    return math.log(1 + (documents - doc_freq + 0.5) / (doc_freq + 0.5))


def query_terms(
    bigrams: Iterable[str],
    words: Iterable[str],
    doc_freq: Callable[[str, str], int],
    documents: int,
    characters: Iterable[str] = (),
) -> QueryTerms:
    """The question's terms (its bigrams, `bigram_tokens` of the folded question, its words
    and its characters) with their weights; `doc_freq(column, term)` counts live chunks."""
    words = list(words)
    texts: dict[str, str] = {}
    for bigram in bigrams:
        texts.setdefault(bigram, "bigrams")
    for word in words:
        if len(word) >= PHRASE_CHARS and word not in texts:
            texts[word] = "phrase"
    inside = [w for w in words if len(w) >= 2]
    terms = []
    for text, column in texts.items():
        count = doc_freq(column, text)
        # a bigram the book holds but never as (part of) a word straddles two of the question's
        # words; one the book never holds is missing evidence and keeps its full weight
        straddles = count and inside and not any(text in w for w in inside)
        weight = STRADDLE if straddles else 1.0
        terms.append(Term(text, column, weight * idf(count, max(documents, 1)), count))
    ideal = sum(t.idf for t in terms)
    chars = [(c, doc_freq("chars", c)) for c in dict.fromkeys(characters)]
    char_ideal = sum(idf(count, max(documents, 1)) for _, count in chars)
    if ideal > 0 and char_ideal > 0:
        # scaled so that the characters together weigh CHAR_WEIGHT of the rest together
        scale = CHAR_WEIGHT * ideal / char_ideal
        for c, count in chars:
            terms.append(Term(c, "chars", scale * idf(count, max(documents, 1)), count))
        ideal *= 1 + CHAR_WEIGHT
    return QueryTerms(tuple(terms), ideal)


def _characters_needed(query: QueryTerms) -> int:
    chars = sum(1 for t in query.terms if t.column == "chars")
    if query.found_anywhere:
        return min(CHAR_MINIMUM, chars)
    return max(CHAR_MINIMUM, math.ceil(CHAR_SHARE * chars))


def can_stand_on_characters(query: QueryTerms) -> bool:
    """Whether enough of the question's characters occur in the book for a passage to hold
    what `holds_enough_characters` asks."""
    found = sum(1 for t in query.terms if t.column == "chars" and t.doc_freq)
    return found >= _characters_needed(query)


def holds_enough_characters(query: QueryTerms, folded_text: str) -> bool:
    """Whether a passage that shares no bigram or word with the question shares enough of its
    characters to be shown: CHAR_MINIMUM of them, and when none of the question's words
    occurs anywhere, CHAR_SHARE of them too."""
    held = sum(1 for t in query.terms if t.column == "chars" and t.text in folded_text)
    return held >= _characters_needed(query)


def score_passage(query: QueryTerms, folded_text: str, marked: bool = True) -> LexicalMatch:
    """BM25 of the terms counted in the passage itself, calibrated to 0–1, and its matches.
    `marked=False` leaves the matches out (no spans): ranking needs only the score, and finding
    every match costs as much again, so a search marks only the passages it shows."""
    haystack = folded_text
    norm = K1 * (1 - B + B * len(haystack) / PIVOT_CHARS)
    raw = 0.0
    marks: list[tuple[int, int, float]] = []
    held_chars: list[Term] = []
    words_matched = False
    for term in query.terms:
        tf = haystack.count(term.text)
        if not tf:
            continue
        raw += term.idf * tf * (K1 + 1) / (tf + norm)
        if term.column == "chars":
            held_chars.append(term)
        else:
            words_matched = True
            if marked:
                _mark(haystack, term, marks)
    score = min(1.0, raw / query.ideal) if query.ideal > 0 else 0.0
    if not marked:
        return LexicalMatch(score, raw, (), (), words_matched=words_matched)
    # characters are marked only where nothing longer matched: a mark on every 的 says nothing
    for term in held_chars if not words_matched else ():
        _mark(haystack, term, marks)
    spans, weights = _merge(marks)
    return LexicalMatch(score, raw, spans, weights, words_matched=words_matched)


def _mark(haystack: str, term: Term, marks: list[tuple[int, int, float]]) -> None:
    start = haystack.find(term.text)
    while start >= 0:
        marks.append((start, start + len(term.text), term.idf))
        start = haystack.find(term.text, start + 1)


def _merge(
    marks: list[tuple[int, int, float]],
) -> tuple[tuple[tuple[int, int], ...], tuple[float, ...]]:
    """Overlapping or touching matches become one span; its weight is its best term's idf plus
    a share of the others' (a span of three bigrams outweighs one bigram)."""
    spans: list[list[float]] = []
    for start, end, weight in sorted(marks):
        if spans and start <= spans[-1][1]:
            last = spans[-1]
            last[1] = max(last[1], end)
            last[2] = max(last[2], weight) + 0.5 * min(last[2], weight)
        else:
            spans.append([start, end, weight])
    return tuple((int(s), int(e)) for s, e, _ in spans), tuple(w for _, _, w in spans)


@dataclass(frozen=True)
class Snippet:
    text: str
    marks: tuple[tuple[int, int], ...]  # into `text`


def snippet(text: str, match: LexicalMatch, width: int = SNIPPET_CHARS) -> Snippet:
    """The stretch of the passage (as written) holding the most matched weight, with its marks;
    the passage's opening when nothing matched."""
    flat = text.replace("\n", " ")
    if not match.spans:
        cut = flat[:width]
        return Snippet(cut + ("…" if len(flat) > width else ""), ())
    best_start = _heaviest_window(match, width - SNIPPET_LEAD)
    start = max(0, best_start - SNIPPET_LEAD)
    end = min(len(flat), start + width)
    start = max(0, min(start, end - width))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(flat) else ""
    offset = len(prefix) - start
    marks = tuple(
        (max(s, start) + offset, min(e, end) + offset)
        for s, e in match.spans
        if s < end and e > start
    )
    return Snippet(prefix + flat[start:end] + suffix, marks)


def _heaviest_window(match: LexicalMatch, reach: int) -> int:
    """Where the window of `reach` characters starting at a span holds the most matched weight
    (the first such span on a tie). One pass: the spans are merged, so in order of start they
    are in order of end too, and the window's last span only moves forward. A passage with
    thousands of matches (a long paragraph naming its hero on every line) costs thousands of
    steps, not millions."""
    spans, weights = match.spans, match.weights
    best_start, best_weight = spans[0][0], -1.0
    held, end_index = 0.0, 0  # the weight of spans[i:end_index], those inside the window
    for i, (first, _) in enumerate(spans):
        if end_index < i:  # the span before was longer than the window: start empty here
            end_index, held = i, 0.0
        while end_index < len(spans) and spans[end_index][1] <= first + reach:
            held += weights[end_index]
            end_index += 1
        # compared with a margin: a sum kept by adding and taking away drifts by a few ulps,
        # and two windows of equal weight must still resolve to the first
        if held > best_weight + 1e-9:
            best_start, best_weight = first, held
        if end_index > i:
            held -= weights[i]
    return best_start


def matched_terms(text: str, match: LexicalMatch, limit: int = 8) -> tuple[str, ...]:
    """The distinct stretches of the passage (as written) that matched, heaviest first."""
    ranked = sorted(zip(match.spans, match.weights, strict=True), key=lambda p: (-p[1], p[0][0]))
    out: dict[str, None] = {}
    for (s, e), _ in ranked:
        out.setdefault(text[s:e], None)
        if len(out) == limit:
            break
    return tuple(out)


def semantic_scores(cosines: Mapping[int, float], mean: float, spread: float) -> dict[int, float]:
    """Cosines calibrated to 0–1 against this book: how many standard deviations a passage
    stands above the book's typical passage for this question (Z_FLOOR and below: 0)."""
    spread = spread or 1.0
    return {
        rowid: max(0.0, min(1.0, ((c - mean) / spread - Z_FLOOR) / (Z_CEILING - Z_FLOOR)))
        for rowid, c in cosines.items()
    }


Z_FLOOR = 2.0
Z_CEILING = 6.0
