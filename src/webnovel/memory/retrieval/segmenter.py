"""Text → index tokens for Chinese lexical search.

Three columns, space-joined for the lexical index's whitespace tokenizer:
- character bigrams of every CJK run (a lone CJK character stands as itself), plus lower-cased
  ASCII words. A two-character name is one bigram, so it is always found; SQLite's `trigram`
  tokenizer cannot match two-character terms at all.
- words from rjieba (jieba's Rust port; `jieba` as a pure-Python fallback) with the book's entity
  names and aliases laid over its dictionary, which ranks better on longer queries. The
  dictionary is loaded once a process and shared by every book; a book's names are its own.
  Without a segmenter installed the column stays empty and search runs on bigrams alone.
- the distinct CJK characters, for passages that share a question's characters but none of its
  words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Protocol

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\U00020000-\U0002fa1f]+")
ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
WORD_CHARS = re.compile(r"[\w\u3400-\u4dbf\u4e00-\u9fff]")


def bigram_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    for run in CJK_RUN.findall(text):
        if len(run) == 1:
            tokens.append(run)
        else:
            tokens += [run[i : i + 2] for i in range(len(run) - 1)]
    tokens += [w.lower() for w in ASCII_WORD.findall(text)]
    return tokens


def char_tokens(text: str) -> list[str]:
    """The distinct CJK characters of `text`, in order of first appearance."""
    return list(dict.fromkeys("".join(CJK_RUN.findall(text))))


class NamedSpan(Protocol):
    """A name found in a text: where it starts, and the name as the text has it."""

    @property
    def start(self) -> int: ...

    @property
    def text(self) -> str: ...


class NameFinder(Protocol):
    """The book's names (its alias automaton): the longest name at each position of a text."""

    version: int  # moves on with every change of the names

    def find(self, text: str, fold: bool = True) -> Sequence[NamedSpan]: ...


class Segmenter(Protocol):
    def words(
        self, text: str, names: NameFinder, found: Sequence[NamedSpan] | None = None
    ) -> list[str]: ...


class NoSegmenter:
    """Stands in when no Chinese word segmenter is installed."""

    def words(
        self, text: str, names: NameFinder, found: Sequence[NamedSpan] | None = None
    ) -> list[str]:
        return []


class Dictionary(Protocol):
    """A segmenter's shared dictionary: cut for search, and whether a word is in it."""

    def cut_for_search(self, text: str) -> list[str]: ...

    def has_word(self, word: str) -> bool: ...


class _Rjieba:
    """rjieba's module-wide engine: `import rjieba` builds it anyway (0.2 s of the dictionary),
    and nothing here ever adds a word to it, so every book reads the same one."""

    def __init__(self) -> None:
        import rjieba

        self.cut_for_search = rjieba.cut_for_search
        self.has_word = rjieba.has_word


class _Jieba:
    """jieba's own engine, when only the pure-Python port is installed."""

    def __init__(self) -> None:
        import jieba

        self._tokenizer = jieba.Tokenizer()
        self._tokenizer.check_initialized()

    def cut_for_search(self, text: str) -> list[str]:
        return list(self._tokenizer.cut_for_search(text))

    def has_word(self, word: str) -> bool:
        return bool(self._tokenizer.FREQ.get(word))


@cache
def shared_dictionary() -> Dictionary | None:
    """The process's one dictionary (None: no segmenter installed), loaded on first use."""
    try:
        return _Rjieba()
    except ImportError:
        pass
    try:
        return _Jieba()
    except ImportError:
        return None


class NamesOverDictionary:
    """The shared dictionary with one book's names laid over it, the way jieba treats a word
    added to its dictionary, without touching the dictionary: the text is split at the book's
    names (its alias automaton: the longest name at each position), the stretches between are
    cut by the dictionary, and a name stands as one word, preceded like any long word of jieba's
    search mode by its two- and three-character parts that are words (of the dictionary or of
    the book). A book's names never change another book's words, a book opens without loading
    a dictionary, and a new name costs nothing here (the automaton is kept in step anyway).

    Only names made of CJK characters are laid over: jieba never makes a word across the
    punctuation of 亚瑟·潘 or the space of a Latin name, and an id is no word of the text."""

    def __init__(self, dictionary: Dictionary) -> None:
        self._dictionary = dictionary
        # the automaton (held, not its id: a freed one's id may come back with the same
        # version on a new automaton) and its version that `_name_words` were worked out for
        self._parts_for: tuple[NameFinder, int] | None = None
        self._name_words: dict[str, list[str]] = {}

    def words(
        self, text: str, names: NameFinder, found: Sequence[NamedSpan] | None = None
    ) -> list[str]:
        """`text`'s words, with the book's `names` laid over; `found`: what `names` finds in
        `text`, if the caller has it already (indexing finds a chunk's entities so)."""
        held = self._parts_for
        if held is None or held[0] is not names or held[1] != names.version:
            self._parts_for = (names, names.version)
            self._name_words = {}  # a new name may be a part of an older one
        between: list[str] = []
        named: list[str] = []
        start = 0
        for span in names.find(text, fold=False) if found is None else found:
            name = span.text
            if span.start < start or len(name) < 2 or not CJK_RUN.fullmatch(name):
                continue  # another id of the name just taken, a lone character, an id
            between.append(text[start : span.start])
            named += self._words_of_name(name, names)
            start = span.start + len(name)
        between.append(text[start:])
        # one call for the stretches between names: jieba cuts each run of CJK characters on
        # its own, so a space parts them as separate calls would. The index keeps counts, not
        # positions, so the names' words may come last.
        tokens = self._dictionary.cut_for_search(" ".join(between)) + named
        return [w.lower() for w in tokens if WORD_CHARS.search(w)]

    def _words_of_name(self, name: str, names: NameFinder) -> list[str]:
        words = self._name_words.get(name)
        if words is None:
            is_word = self._dictionary.has_word
            parts = [
                name[i : i + n] for n in (2, 3) if len(name) > n for i in range(len(name) - n + 1)
            ]
            words = [p for p in parts if is_word(p) or _is_a_name(p, names)] + [name]
            self._name_words[name] = words
        return words


def _is_a_name(text: str, names: NameFinder) -> bool:
    return any(s.start == 0 and s.text == text for s in names.find(text, fold=False))


def load_segmenter() -> Segmenter:
    """A book's segmenter: the process's dictionary (loaded when first needed), over which
    each call lays the book's names."""
    dictionary = shared_dictionary()
    if dictionary is None:
        return NoSegmenter()
    return NamesOverDictionary(dictionary)
