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
from collections.abc import Iterable
from functools import cache
from typing import Any, Protocol

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\U00020000-\U0002fa1f]+")
ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
WORD_CHARS = re.compile(r"[\w\u3400-\u4dbf\u4e00-\u9fff]")
CJK_NAME = re.compile(CJK_RUN.pattern)  # fullmatch: a name made of CJK characters only


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


class Segmenter(Protocol):
    def words(self, text: str) -> list[str]: ...

    def add_words(self, names: Iterable[str]) -> None: ...


class NoSegmenter:
    """Stands in when no Chinese word segmenter is installed."""

    def words(self, text: str) -> list[str]:
        return []

    def add_words(self, names: Iterable[str]) -> None:
        return None


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
    names (longest first), the stretches between are cut by the dictionary, and a name stands
    as one word, preceded like any long word of jieba's search mode by its two- and
    three-character parts that are words (of the dictionary or of the book). A book's names
    never change another book's words, and a book opens without loading a dictionary."""

    def __init__(self, dictionary: Dictionary) -> None:
        self._dictionary = dictionary
        self._names: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        self._name_words: dict[str, list[str]] = {}

    def add_words(self, names: Iterable[str]) -> None:
        """Register names not registered yet. A name of one character is left to the
        dictionary, and one that is not all CJK too (jieba never makes a word across the
        punctuation of 亚瑟·潘 or the space of a Latin name)."""
        new = {n for n in names if len(n) >= 2 and n not in self._names and CJK_NAME.fullmatch(n)}
        if new:
            self._names |= new
            self._pattern = re.compile(trie_pattern(self._names))
            self._name_words = {}  # a new name may be a part of an older one

    def words(self, text: str) -> list[str]:
        cut = self._dictionary.cut_for_search
        if self._pattern is None:
            return _kept(cut(text))
        tokens: list[str] = []
        start = 0
        for found in self._pattern.finditer(text):
            if found.start() > start:
                tokens += cut(text[start : found.start()])
            tokens += self._words_of_name(found.group())
            start = found.end()
        if start < len(text):
            tokens += cut(text[start:])
        return _kept(tokens)

    def _words_of_name(self, name: str) -> list[str]:
        words = self._name_words.get(name)
        if words is None:
            is_word = self._dictionary.has_word
            parts = [
                name[i : i + n] for n in (2, 3) if len(name) > n for i in range(len(name) - n + 1)
            ]
            words = [p for p in parts if p in self._names or is_word(p)] + [name]
            self._name_words[name] = words
        return words


def _kept(tokens: list[str]) -> list[str]:
    return [w.lower() for w in tokens if WORD_CHARS.search(w)]


def trie_pattern(words: Iterable[str]) -> str:
    """A regular expression matching any of `words`, the longest at each position, shaped as a
    trie: one alternative per next character, so a scan costs what the text holds and not a
    try of every name (a book may know thousands)."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(c) + pattern(child) for c, child in node.items() if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:  # a name ends here: a longer one is tried first
            return body + "?" if len(branches) == 1 and len(body) == 1 else "(?:" + body + ")?"
        return body

    return pattern(trie)


def load_segmenter(names: Iterable[str]) -> Segmenter:
    """The process's dictionary with `names` laid over it (loaded only when first needed)."""
    dictionary = shared_dictionary()
    if dictionary is None:
        return NoSegmenter()
    segmenter = NamesOverDictionary(dictionary)
    segmenter.add_words(names)
    return segmenter
