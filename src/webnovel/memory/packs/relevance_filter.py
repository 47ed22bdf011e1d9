"""Entity-centred relevance for packs: which entities are in play for a chapter, how much an item
matters (field importance, freshness, shared terms), and the relation neighbourhood around the
entities in play. Which entities a text names is `aliases.AliasIndex`'s.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from ..read.aliases import AliasIndex
from ..schema import Entity
from ..store import chain_ops, entity_ops
from ..store.connection import Connection
from ..store.index_store import loads
from .reasons import Reason, because

# -- the entities in play ------------------------------------------------------------------------

MAX_ACTIVE_WITHOUT_TEXT = 8


@dataclass
class InPlay:
    """Entities the pack is about, each with its relevance and the reason it is here."""

    entities: dict[str, Entity] = field(default_factory=dict)
    relevance: dict[str, float] = field(default_factory=dict)
    why: dict[str, Reason] = field(default_factory=dict)
    new_names: list[str] = field(default_factory=list)

    def add(self, entity: Entity, relevance: float, why: Reason) -> None:
        if relevance > self.relevance.get(entity.id, 0.0):
            self.entities[entity.id] = entity
            self.relevance[entity.id] = relevance
            self.why[entity.id] = why

    def name(self, entity_id: str) -> str:
        entity = self.entities.get(entity_id)
        return entity.name if entity else entity_id


def find_in_play(
    conn: Connection,
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
    mentions = {source: aliases.find(text or "") for source, text in texts.items()}
    # every entity in play goes by the name the chapter before knew it by, not by a later one
    named = entity_ops.named_as_known_at(
        conn,
        entity_ops.get_entities(conn, [m.entity_id for ms in mentions.values() for m in ms]),
        as_of,
    )
    for source, found in mentions.items():
        for mention in found:
            entity = named.get(mention.entity_id)
            if entity is None:
                continue
            if entity.first_chapter is None or entity.first_chapter > as_of:
                in_play.new_names.append(mention.text)
                continue
            relevance = 0.7 if mention.ambiguous else 1.0
            why = (
                because("named", source)
                if mention.text == entity.name
                else because("named_as", source, mention.text)
            )
            in_play.add(entity, relevance, why)
    for entity_id in focus:
        entity = entity_ops.get_entity(conn, entity_id)
        if (
            entity is not None
            and entity.first_chapter is not None
            and entity.first_chapter <= as_of
        ):
            in_play.add(entity, 1.0, because("in_draft"))
    protagonist = entity_ops.find_protagonist(conn)
    if protagonist and protagonist.first_chapter is not None and protagonist.first_chapter <= as_of:
        in_play.add(protagonist, 0.9, because("protagonist"))
    if not any(texts.values()) and not focus:
        for entity_id in entity_ops.active_between(
            conn, max(1, as_of - 2), as_of, MAX_ACTIVE_WITHOUT_TEXT
        ):
            entity = entity_ops.get_entity(conn, entity_id)
            if entity and not entity.tentative:
                in_play.add(entity, 0.7, because("recently_active"))
    # whatever path brought an entity in, it goes by the name the chapter knew it by: a draft's
    # reference or the protagonist may have replaced an ambiguous mention's renamed entity
    # with the entity as named now, so every object not the renamed one is renamed here
    unnamed = {i: e for i, e in in_play.entities.items() if named.get(i) is not e}
    in_play.entities.update(entity_ops.named_as_known_at(conn, unnamed, as_of))
    return in_play


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
    return max(0.1, float(0.5 ** (age / max(1, window))))


@lru_cache(maxsize=65536)
def bigrams(text: str) -> frozenset[str]:
    """Character bigrams, memoised: rule texts are scored against every outline. Interned, so
    that comparing two texts' sets finds a shared bigram by identity: thousands of rules are
    tested per pack at 10,000 chapters, five times faster so."""
    return frozenset(_interned_bigrams(text))


def _interned_bigrams(text: str) -> Iterator[str]:
    compact = "".join(text.split())
    return (sys.intern(compact[i : i + 2]) for i in range(len(compact) - 1))


def shared_terms(text: str, context: frozenset[str]) -> list[str]:
    """Character bigrams `text` shares with the context: crude, fast, good enough for Chinese."""
    terms = bigrams(text)
    return [] if terms.isdisjoint(context) else sorted(terms & context)


# a text's distinct bigrams, interned, as a tuple: a set is a container the garbage collector
# walks at every full collection, a tuple of strings one it stops tracking
Terms = tuple[str, ...]


def bigram_tuple(text: str) -> Terms:
    """`bigrams(text)` as a tuple (in the text's order), not memoised."""
    return tuple(dict.fromkeys(_interned_bigrams(text)))


@lru_cache(maxsize=1 << 14)
def rule_terms(text: str, domain: str | None) -> tuple[Terms, Terms]:
    """A rule's bigrams with its domain's, and of its text alone. Thousands of rules are scored
    per pack at 10,000 chapters and a wording never changes (a revision is a new text), so
    they are worked out once per text; `chain_ops` hands the same text object back for the
    same stored value, whose hash Python keeps. Tuples, not sets: held for the process, sets
    made every full garbage collection cost a pack ~15 ms more at 10,000 chapters. Test them
    against a set of terms (`context.isdisjoint(every)`, `context.intersection(every)`)."""
    return bigram_tuple(text + (domain or "")), bigram_tuple(text)


# -- the graph around the entities in play --------------------------------------------------------

HOP_DECAY = 0.5  # a neighbour's relations weigh half as much as its own link to the story
NEIGHBOURS_PER_HOP = 10  # far more than a 4k-token pack can show of one section


class Link(NamedTuple):
    """A relation as a pack ranks it: its ends, its type and first chapter, and its evidence
    as stored (decoded only for the relations shown: `chain_ops.evidence_known_at`)."""

    source: str
    target: str
    type: Any
    valid_from: int
    evidence_json: str


def relations_around(
    conn: Connection,
    in_play: InPlay,
    as_of: int,
    depth: int,
    fresh: Callable[[int | None], float],
    sources: int | None = None,
) -> list[tuple[float, Reason, Link]]:
    """(score, why, link) of the relations `depth` hops out from the entities in play: the first
    hop from each of them, further hops from the strongest neighbours found so far, each hop
    weighing less. A relation between two entities in play weighs most. Each entity's relations
    are one read, so `sources` bounds the cost of a large cast."""
    scored: list[tuple[float, Reason, Link]] = []
    seen: set[tuple[str, str, str]] = set()
    # the first hop from the `sources` most relevant entities in play (all, when None)
    first = sorted(in_play.entities, key=lambda e: -in_play.relevance[e])[:sources]
    frontier = {e: (in_play.relevance[e], in_play.why[e]) for e in first}
    visited = set(frontier)
    for hop in range(1, depth + 1):
        reached: dict[str, tuple[float, Reason]] = {}
        # the hop's entities and their relations read at once, not entity by entity
        entities = entity_ops.named_as_known_at(
            conn, entity_ops.get_entities(conn, frontier), as_of
        )
        links = _links_of_many(conn, [e for e in frontier if e in entities], as_of)
        for entity_id, (relevance, reason) in frontier.items():
            entity = entities.get(entity_id)
            if entity is None:
                continue
            for link in links[entity_id]:
                if (link.source, link.target, link.type) in seen:
                    continue
                seen.add((link.source, link.target, link.type))
                other = link.target if link.source == entity_id else link.source
                both = other in in_play.entities
                score = relevance * (1.0 if both else 0.7) * (0.6 + 0.4 * fresh(link.valid_from))
                if both:
                    why = because("between_in_play")
                elif hop == 1:
                    why = because("relation_of", entity.name, reason)
                else:
                    why = because("hops_out", hop, entity.name)
                scored.append((score, why, link))
                best_yet = reached[other][0] if other in reached else 0.0
                if other not in visited and score > best_yet:
                    reached[other] = (score * HOP_DECAY, why)
        frontier = dict(sorted(reached.items(), key=lambda kv: -kv[1][0])[:NEIGHBOURS_PER_HOP])
        visited |= set(frontier)
    return scored


def _links_of_many(conn: Connection, entity_ids: list[str], as_of: int) -> dict[str, list[Link]]:
    """Each entity's relations holding at `as_of`, from it and then to it, in two statements
    for all of them."""
    found: dict[str, list[Link]] = {i: [] for i in entity_ids}
    if not entity_ids:
        return found
    types: dict[str, Any] = {}  # a book has a few dozen relation types: each decoded once
    for _, subject, _, obj, value_json, since, evidence in chain_ops.relation_rows_at(
        conn, as_of, subjects=entity_ids
    ):
        if value_json not in types:
            types[value_json] = loads(value_json)
        found[subject].append(Link(subject, obj or "", types[value_json], since, evidence))
    for _, subject, _, obj, value_json, since, evidence in chain_ops.relation_rows_at(
        conn, as_of, objects=entity_ids
    ):
        if subject != obj:
            if value_json not in types:
                types[value_json] = loads(value_json)
            found[obj or ""].append(Link(subject, obj or "", types[value_json], since, evidence))
    return found
