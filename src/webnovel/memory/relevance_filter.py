"""Entity-centred relevance: which entities a piece of text names, and how much an item matters.

`AliasIndex` is the alias automaton over every id, name and alias of the book: it scans text once,
taking the longest name that starts at each position, so 萧炎 inside 萧炎之父 is not shadowed by a
shorter alias and 炎 alone never matches. Traditional characters are folded to simplified with
OpenCC (a default dependency; without it, text is matched as written).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from . import graph_memory
from .budget_manager import SECTION_OVERHEAD_TOKENS
from .schema import Conflict, Entity, RelationEdge
from .store import entity_ops, record_ops

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
        self._table: dict[str, set[str]] = {}  # folded name → entity ids
        self._keys_of: dict[str, set[str]] = {}  # entity id → its folded names
        self._keys_by_first: dict[str, set[str]] = {}  # first character → folded names
        self.names: set[str] = set()  # every name as written, for the word segmenter
        self.version = 0  # moves on with every change
        self.by_first: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
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
                    ids.discard(entity_id)
                    if not ids:
                        del self._table[key]
                        self._keys_by_first[key[0]].discard(key)
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
                self._table.setdefault(key, set()).add(entity_id)
                self._keys_of.setdefault(entity_id, set()).add(key)
                self._keys_by_first.setdefault(key[0], set()).add(key)
                firsts.add(key[0])
        return firsts

    def _index_first(self, first: str) -> None:
        """The candidates starting with `first`, longest first (the automaton's one step)."""
        keys = self._keys_by_first.get(first, set())
        if keys:
            self.by_first[first] = sorted(
                ((key, tuple(sorted(self._table[key]))) for key in keys),
                key=lambda pair: len(pair[0]),
                reverse=True,
            )
        else:
            self.by_first.pop(first, None)

    def find(self, text: str, fold: bool = True) -> list[Mention]:
        """Entities named in `text`. Fold queries and outlines (short, maybe traditional);
        bulk book text is indexed as written, since OpenCC's pure-Python fold is slow."""
        folded = self.fold(text) if fold else text
        found: list[Mention] = []
        i = 0
        while i < len(folded):
            match = self._longest_at(folded, i)
            if match is None:
                i += 1
                continue
            key, ids = match
            found += [Mention(e, text[i : i + len(key)], i, len(ids) > 1) for e in ids]
            i += len(key)
        return found

    def mentions(self, text: str) -> dict[str, list[str]]:
        """entity id → the distinct names `text` calls it by, in id order (book text as
        written, not folded)."""
        found: dict[str, set[str]] = {}
        for mention in self.find(text, fold=False):
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


# -- the entities in play ------------------------------------------------------------------------

MAX_ACTIVE_WITHOUT_TEXT = 8
MAX_CONFLICTS = 10


@dataclass
class InPlay:
    """Entities the pack is about, each with its relevance and the reason it is here."""

    entities: dict[str, Entity] = field(default_factory=dict)
    relevance: dict[str, float] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)
    new_names: list[str] = field(default_factory=list)

    def add(self, entity: Entity, relevance: float, why: str) -> None:
        if relevance > self.relevance.get(entity.id, 0.0):
            self.entities[entity.id] = entity
            self.relevance[entity.id] = relevance
            self.why[entity.id] = why

    def name(self, entity_id: str) -> str:
        entity = self.entities.get(entity_id)
        return entity.name if entity else entity_id


def find_in_play(
    conn: sqlite3.Connection,
    aliases: AliasIndex,
    texts: dict[str, str | None],
    focus: tuple[str, ...],
    as_of: int,
) -> InPlay:
    """The entities a pack is about, as of chapter `as_of`: those the texts (outline, query)
    name, the `focus` ids (a draft's references), the protagonist, and without any of these
    the most active of the last chapters. Entities first seen after `as_of` are new, not
    memory: they are noted and left out."""
    in_play = InPlay()
    for source, text in texts.items():
        for mention in aliases.find(text or ""):
            entity = entity_ops.get_entity(conn, mention.entity_id)
            if entity is None:
                continue
            if entity.first_chapter is None or entity.first_chapter > as_of:
                in_play.new_names.append(mention.text)
                continue
            shown = "" if mention.text == entity.name else f" as {mention.text}"
            relevance = 0.7 if mention.ambiguous else 1.0
            in_play.add(entity, relevance, f"named in {source}{shown}")
    for entity_id in focus:
        entity = entity_ops.get_entity(conn, entity_id)
        if (
            entity is not None
            and entity.first_chapter is not None
            and entity.first_chapter <= as_of
        ):
            in_play.add(entity, 1.0, "touched by the draft")
    protagonist = entity_ops.find_protagonist(conn)
    if protagonist and protagonist.first_chapter is not None and protagonist.first_chapter <= as_of:
        in_play.add(protagonist, 0.9, "protagonist")
    if not any(texts.values()) and not focus:
        for entity_id in entity_ops.active_between(
            conn, max(1, as_of - 2), as_of, MAX_ACTIVE_WITHOUT_TEXT
        ):
            entity = entity_ops.get_entity(conn, entity_id)
            if entity and not entity.tentative:
                in_play.add(entity, 0.7, "active in the last chapters")
    return in_play


def conflicts_in_play(
    conn: sqlite3.Connection,
    in_play: InPlay,
    as_of: int,
    budget: int,
    count_tokens: Callable[[str], int],
) -> tuple[list[Conflict], int]:
    """Open conflicts about the entities in play (and thread or rule conflicts), written up to
    chapter `as_of`, newest first: they are rendered with the pack, so they are paid for from
    its budget, and at most a quarter of it goes to them."""
    found = record_ops.list_conflicts(conn, entity_ids=list(in_play.entities), up_to=as_of)
    chosen, spent = [], SECTION_OVERHEAD_TOKENS
    for conflict in sorted(found, key=lambda c: -c.chapter)[:MAX_CONFLICTS]:
        cost = count_tokens(conflict.message) + 1
        if spent + cost > budget // 4:
            break
        chosen.append(conflict)
        spent += cost
    return chosen, spent if chosen else 0


# -- scoring ------------------------------------------------------------------------------------

FIELD_IMPORTANCE = {
    "status": 1.0,
    "realm": 1.0,
    "location": 0.95,
    "items": 0.85,
    "faction": 0.8,
    "identity": 0.8,
    "health": 0.8,
    "skill": 0.75,
}
DEFAULT_FIELD_IMPORTANCE = 0.6


def field_importance(field: str) -> float:
    return FIELD_IMPORTANCE.get(field, DEFAULT_FIELD_IMPORTANCE)


def freshness(chapter: int | None, now: int, window: int) -> float:
    """1.0 for this chapter, halving every `window` chapters back; never below 0.1."""
    if chapter is None:
        return 0.5
    age = max(0, now - chapter)
    return max(0.1, 0.5 ** (age / max(1, window)))


@lru_cache(maxsize=65536)
def bigrams(text: str) -> frozenset[str]:
    """Character bigrams, memoised: rule texts are scored against every outline."""
    compact = "".join(text.split())
    return frozenset(compact[i : i + 2] for i in range(len(compact) - 1))


def shared_terms(text: str, context: frozenset[str]) -> list[str]:
    """Character bigrams `text` shares with the context: crude, fast, good enough for Chinese.
    Thousands of rules are scored per pack at 10,000 chapters; most share nothing, and
    `isdisjoint` says so without building a set."""
    terms = bigrams(text)
    return [] if terms.isdisjoint(context) else sorted(terms & context)


# -- the graph around the entities in play --------------------------------------------------------

HOP_DECAY = 0.5  # a neighbour's relations weigh half as much as its own link to the story
NEIGHBOURS_PER_HOP = 10  # far more than a 4k-token pack can show of one section


def relations_around(
    conn: sqlite3.Connection,
    in_play: InPlay,
    as_of: int,
    depth: int,
    fresh: Callable[[int | None], float],
) -> list[tuple[float, str, RelationEdge]]:
    """(score, why, edge) of the relations `depth` hops out from the entities in play: the first
    hop from each of them, further hops from the strongest neighbours found so far, each hop
    weighing less. A relation between two entities in play weighs most."""
    scored: list[tuple[float, str, RelationEdge]] = []
    seen: set[tuple[str, str, str]] = set()
    frontier = {e: (in_play.relevance[e], in_play.why[e]) for e in in_play.entities}
    visited = set(frontier)
    for hop in range(1, depth + 1):
        reached: dict[str, tuple[float, str]] = {}
        for entity_id, (relevance, reason) in frontier.items():
            entity = entity_ops.get_entity(conn, entity_id)
            if entity is None:
                continue
            for edge in graph_memory.relations(conn, entity, as_of):
                if (edge.source, edge.target, edge.type) in seen:
                    continue
                seen.add((edge.source, edge.target, edge.type))
                other = edge.target if edge.source == entity_id else edge.source
                both = other in in_play.entities
                score = relevance * (1.0 if both else 0.7) * (0.6 + 0.4 * fresh(edge.valid_from))
                if both:
                    why = "between two entities in play"
                elif hop == 1:
                    why = f"relation of {entity.name} ({reason})"
                else:
                    why = f"{hop} hops out, via {entity.name}"
                scored.append((score, why, edge))
                if other not in visited and score > reached.get(other, (0.0, ""))[0]:
                    reached[other] = (score * HOP_DECAY, why)
        frontier = dict(sorted(reached.items(), key=lambda kv: -kv[1][0])[:NEIGHBOURS_PER_HOP])
        visited |= set(frontier)
    return scored
