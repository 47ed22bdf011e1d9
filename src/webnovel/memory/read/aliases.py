"""Which entities a piece of text names: the alias automaton over every id, name and alias of
the book. It scans text once, taking the longest name that starts at each position, so 萧炎 inside
萧炎之父 is not shadowed by a shorter alias and 炎 alone never matches. Traditional characters are
folded to simplified with OpenCC (a default dependency; without it, text is matched as written).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

MIN_ALIAS_CHARS = 2


@cache
def traditional_folder() -> Callable[[str], str]:
    """Traditional → simplified if OpenCC is installed, otherwise the identity."""
    try:
        import opencc
    except ImportError:
        return lambda text: text
    converter = opencc.OpenCC("t2s")
    fold: Callable[[str], str] = converter.convert
    return fold


@lru_cache(maxsize=1 << 17)
def folded_name(name: str) -> str:
    """A name folded once: the automaton is rebuilt after every commit, and OpenCC's pure-Python
    fold of 20,000 names would cost 200 ms each time at 10,000 chapters."""
    return traditional_folder()(name.strip())


@dataclass(frozen=True)
class Mention:
    entity_id: str
    text: str
    start: int
    ambiguous: bool = False


class AliasIndex:
    def __init__(self, pairs: Iterable[tuple[str, str]], fold: Callable[[str], str] | None = None):
        self.fold = fold or traditional_folder()
        self._fold_name = folded_name if fold is None else (lambda name: self.fold(name.strip()))
        # Tuples of strings and dicts of strings, never sets: a handle keeps the index for the
        # process, and the garbage collector walks every set (20,000 of them at 10,000
        # chapters, ~15 ms a full collection) but stops tracking these.
        self._table: dict[str, tuple[str, ...]] = {}  # folded name → entity ids
        self._keys_of: dict[str, tuple[str, ...]] = {}  # entity id → its folded names
        self._keys_by_first: dict[str, dict[str, None]] = {}  # first character → folded names
        self.names: set[str] = set()  # every name as written, for the word segmenter
        self.version = 0  # moves on with every change
        self.by_first: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        for first in self._add(pairs):
            self._index_first(first)

    def replace(self, entity_ids: Iterable[str], pairs: Iterable[tuple[str, str]]) -> None:
        """These entities' names are now `pairs` (none: the entity is gone). Only the first
        characters they touch are re-sorted, so a commit costs what it changed."""
        touched: set[str] = set()
        for entity_id in entity_ids:
            for key in self._keys_of.pop(entity_id, ()):
                ids = self._table.get(key)
                if ids is not None:
                    ids = tuple(i for i in ids if i != entity_id)
                    if ids:
                        self._table[key] = ids
                    else:
                        del self._table[key]
                        self._keys_by_first[key[0]].pop(key, None)
                    touched.add(key[0])
        touched |= self._add(pairs)
        for first in touched:
            self._index_first(first)
        self.version += 1

    def _add(self, pairs: Iterable[tuple[str, str]]) -> set[str]:
        firsts = set()
        for alias, entity_id in pairs:
            self.names.add(alias)
            key = self._fold_name(alias)
            if len(key) >= MIN_ALIAS_CHARS:
                ids = self._table.get(key, ())
                if entity_id not in ids:
                    self._table[key] = (*ids, entity_id)
                keys = self._keys_of.get(entity_id, ())
                if key not in keys:
                    self._keys_of[entity_id] = (*keys, key)
                self._keys_by_first.setdefault(key[0], {})[key] = None
                firsts.add(key[0])
        return firsts

    def _index_first(self, first: str) -> None:
        """The candidates starting with `first`, longest first (the automaton's one step)."""
        keys = self._keys_by_first.get(first)
        if keys:
            self.by_first[first] = tuple(
                sorted(
                    ((key, tuple(sorted(self._table[key]))) for key in keys),
                    key=lambda pair: len(pair[0]),
                    reverse=True,
                )
            )
        else:
            self.by_first.pop(first, None)

    def find(self, text: str, fold: bool = True) -> list[Mention]:
        """Entities named in `text`. Fold queries and outlines (short, maybe traditional);
        bulk book text is indexed as written, since OpenCC's pure-Python fold is slow."""
        return list(self._each_mention(self.fold(text) if fold else text, text))

    def _each_mention(self, folded: str, text: str) -> Iterator[Mention]:
        i = 0
        while i < len(folded):
            match = self._longest_at(folded, i)
            if match is None:
                i += 1
                continue
            key, ids = match
            yield from (Mention(e, text[i : i + len(key)], i, len(ids) > 1) for e in ids)
            i += len(key)

    def mentions(self, text: str) -> dict[str, list[str]]:
        """entity id → the distinct names `text` calls it by, in id order (book text as
        written, not folded)."""
        found: dict[str, set[str]] = {}
        for mention in self._each_mention(text, text):  # one at a time: a chapter may be huge
            found.setdefault(mention.entity_id, set()).add(mention.text)
        return {entity_id: sorted(names) for entity_id, names in sorted(found.items())}

    def _longest_at(self, text: str, i: int) -> tuple[str, tuple[str, ...]] | None:
        for key, ids in self.by_first.get(text[i], ()):
            if text.startswith(key, i) and (not key.isascii() or _word_edges(text, i, len(key))):
                return key, ids
        return None


def _word_edges(text: str, start: int, length: int) -> bool:
    """ASCII ids only match as whole words: `e1` must not match inside `e12`."""
    before = text[start - 1] if start > 0 else " "
    after = text[start + length] if start + length < len(text) else " "
    return not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum())
