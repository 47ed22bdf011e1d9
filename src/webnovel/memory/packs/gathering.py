"""The shared state of gathering a pack's candidates, and how one becomes an item."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from ...config import BookConfig
from ..chains import Version
from ..clock.answer import StoryClock
from ..read import as_of_reads, story_clock
from ..store import chain_ops, ranking_scans
from ..store.connection import Connection
from ..vocabulary import field_terms
from .memory_pack import PackItem, PackRequest
from .reasons import Reason
from .recipes import Recipe
from .relevance_filter import InPlay, bigrams, freshness

T = TypeVar("T")
W = TypeVar("W")  # why the thing scored: a Reason, or what one is made of for the winners
SCENE_FIELDS = ("items", "location")  # a realm's words are in half of all rules
SCENE_RELEVANCE = 0.85  # named, in the last scene, the point of view: not a passing companion
CANDIDATES_PER_SECTION = 80


def best(
    scored: list[tuple[float, W, T]], k: int = CANDIDATES_PER_SECTION
) -> list[tuple[float, W, T]]:
    """The k best (score, why, thing) triples, in order of score and then of `scored`: sections
    that grow with the book (rules, threads, the dead) are cut to a few screens of candidates
    before items are built and costed."""
    return sorted(scored, key=lambda triple: -triple[0])[:k]


def best_of(scores: list[float], k: int = CANDIDATES_PER_SECTION) -> list[int]:
    """The positions of the k best scores, in the order `best` gives their triples."""
    return sorted(range(len(scores)), key=lambda i: -scores[i])[:k]


def scene_terms(state: list[PackItem], in_play: InPlay) -> frozenset[str]:
    """The bigrams of what the people at the centre of the scene hold and where they are."""
    terms: set[str] = set()
    for item in state:
        if item.field in SCENE_FIELDS and in_play.relevance.get(item.subject, 0) >= SCENE_RELEVANCE:
            values = item.value if isinstance(item.value, list) else [item.value]
            for value in values:
                terms |= bigrams(str(value))
    return frozenset(terms)


class Gathering:
    """What every section reads: the request, memory as of the chapter before, the entities in
    play and their names, and the recipe's scores; and how one scored candidate becomes an item."""

    def __init__(
        self,
        conn: Connection,
        config: BookConfig,
        recipe: Recipe,
        request: PackRequest,
        as_of: int,
        in_play: InPlay,
        names: dict[str, str],
        near: frozenset[str] = frozenset(),
        open_threads: ranking_scans.OpenThreads | None = None,
    ) -> None:
        self.scores = recipe.scoring
        self.conn = conn
        self.config = config
        self.recipe = recipe
        self.request = request
        self.as_of = as_of
        self.in_play = in_play
        self.names = names
        self.near = near  # people around the cast in recent scenes, not themselves in play
        self._open_threads = open_threads
        self._dead: list[Version] | None = None
        self.context_terms = bigrams((request.outline or "") + (request.query or ""))
        self.fields = field_terms(config.fields, config.ladders)
        self.scene_terms: frozenset[str] = frozenset()  # of the cast's items, places, realms
        # the book's rules and dead held in memory between packs (None: scan them)
        self.snapshot: ranking_scans.RankingSnapshot | None = None
        self.pov: str | None = None  # whose eyes the scene is seen through, when recorded
        self._clock: StoryClock | None = None

    def clock(self) -> StoryClock:
        """The story clock as of the chapter before, read once per pack."""
        if self._clock is None:
            self._clock = story_clock.story_clock(self.conn, self.as_of, self.config.calendar)
        return self._clock

    def field_label(self, key: str) -> str:
        """A field's Chinese name (the book's own where it declares one)."""
        return self.fields.label(key)

    def open_threads(self) -> ranking_scans.OpenThreads:
        """`ranking_scans.thread_rows` as of the chapter before, read once per pack."""
        if self._open_threads is None:
            self._open_threads = ranking_scans.thread_rows(self.conn, self.as_of)
        return self._open_threads

    def dead(self) -> list[Version]:
        """The dead as of the chapter before, read once per pack (three sections ask)."""
        if self._dead is None and self.snapshot is not None:
            self._dead = self.snapshot.dead(self.as_of)
        elif self._dead is None:
            self._dead = chain_ops.versions_in_state(self.conn, "fact", "dead", self.as_of)
        return self._dead

    def name(self, entity_id: str) -> str:
        """An entity's name as the chapter before knew it: an agent writing chapter 3 after a
        rename from chapter 5 on reads the old name, and a name revealed later is not told."""
        if entity_id not in self.names:
            found = as_of_reads.names_as_of(self.conn, [entity_id], self.as_of)
            self.names[entity_id] = found.get(entity_id, entity_id)
        return self.names[entity_id]

    def name_all(self, entity_ids: Iterable[str]) -> None:
        """`name` of many at once: one read for those not named yet."""
        missing = [e for e in dict.fromkeys(entity_ids) if e not in self.names]
        if missing:
            found = as_of_reads.names_as_of(self.conn, missing, self.as_of)
            self.names.update((e, found.get(e, e)) for e in missing)

    def rule_score(self, shared: int) -> float:
        """A world rule's score from how many terms it shares with the outline or scene."""
        base, step = self.scores.rule_shared
        return min(1.0, base + step * shared)

    def fresh(self, chapter: int | None) -> float:
        return freshness(chapter, self.as_of, self.recipe.recency_window)

    def item(
        self,
        *,
        layer: str,
        category: str,
        subject: str,
        field_name: str,
        value: Any,
        chapter: int | None,
        source_type: str,
        evidence: list[dict[str, Any]],
        score: float,
        why: Reason,
        line: str,
        status: str = "active",
    ) -> PackItem:
        return PackItem(
            id=f"{category}:{subject}:{field_name}:{chapter}",
            layer=layer,
            category=category,
            subject=subject,
            field=field_name,
            value=value,
            status=status,
            source_chapter=chapter,
            source_type=source_type,
            evidence=[e for e in evidence if (e.get("chapter") or 0) <= self.as_of],
            score=score,
            why=why,
            subject_name=self.names.get(subject, ""),
            line=line,
        )
