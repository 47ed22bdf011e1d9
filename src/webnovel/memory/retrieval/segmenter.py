"""Text → index tokens for Chinese lexical search.

Three columns, space-joined for the lexical index's whitespace tokenizer:
- character bigrams of every CJK run (a lone CJK character stands as itself), plus lower-cased
  ASCII words. A two-character name is one bigram, so it is always found; SQLite's `trigram`
  tokenizer cannot match two-character terms at all.
- words from rjieba (jieba's Rust port; `jieba` as a pure-Python fallback) with the book's entity
  names and aliases registered, which ranks better on longer queries. Without a segmenter
  installed the column stays empty and search runs on bigrams alone.
- the distinct CJK characters, for passages that share a question's characters but none of its
  words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
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


class Segmenter(Protocol):
    def words(self, text: str) -> list[str]: ...

    def add_words(self, names: Iterable[str]) -> None: ...


class NoSegmenter:
    """Stands in when no Chinese word segmenter is installed."""

    def words(self, text: str) -> list[str]:
        return []

    def add_words(self, names: Iterable[str]) -> None:
        return None


class JiebaSegmenter:
    """rjieba when installed, else jieba; the book's names are added as words."""

    def __init__(self, cut: Callable[[str], list[str]], add: Callable[[str], object]) -> None:
        self._cut = cut
        self._add = add
        self._added: set[str] = set()

    def words(self, text: str) -> list[str]:
        return [w.lower() for w in self._cut(text) if WORD_CHARS.search(w)]

    def add_words(self, names: Iterable[str]) -> None:
        """Register names not registered yet (a name of one character is left to jieba)."""
        for name in names:
            if len(name) >= 2 and name not in self._added:
                self._add(name)
                self._added.add(name)


def load_segmenter(names: Iterable[str]) -> Segmenter:
    """The best segmenter installed, with `names` registered (imported only when first needed)."""
    segmenter: Segmenter
    try:
        import rjieba

        engine = rjieba.Jieba()
        segmenter = JiebaSegmenter(
            engine.cut_for_search, lambda name: engine.add_word(name, None, None)
        )
    except ImportError:
        try:
            import jieba
        except ImportError:
            return NoSegmenter()
        tokenizer = jieba.Tokenizer()
        segmenter = JiebaSegmenter(
            lambda text: list(tokenizer.cut_for_search(text)), tokenizer.add_word
        )
    segmenter.add_words(names)
    return segmenter
