"""The one reader of memory the facade asks: the store's parts (`memory/store/parts.py`), each
family with its reads as of a chapter beside its rows as they stand, so that a read is found in
one place: `reading.chains.fact(entity, "realm", 12)`, `reading.commits.meta("title")`,
`reading.time.clock(12)`. Bound to the book's connection like the parts; no connection held.

Families: `entities` (who is in the book, by any name), `chains` (the versioned memory: facts,
relations, threads, rules, secrets, knowledge), `commits`, `records` (conflicts, scenes, the
timeline, a chapter's report), `observability`, and `time` (the story clock)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store import parts
from ..store.connection import Connection
from ..store.parts import Part, StoreParts, bound
from . import as_of_reads, items

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..clock import Stamp
    from ..clock.answer import StoryClock
    from ..records import TimelineEvent
    from .chapter_report import ChapterReport


class EntityReads(parts.Entities):
    resolve = bound(as_of_reads.resolve_entity)
    names_as_of = bound(as_of_reads.names_as_of)
    appearances = bound(as_of_reads.appearances)
    carried = bound(items.carried)  # things once in someone's 物品, by name
    unintroduced = bound(items.unintroduced)

    def names_like(self, written: str) -> list[str]:
        """The book's names an unknown name likely meant (林言 → 林砚), best first: an unknown
        entity's error suggests them. Loaded when first asked for."""
        from ..write.name_suggestions import suggest_names

        return suggest_names(self._conn, written)


class ChainReads(parts.Chains):
    fact = bound(as_of_reads.fact)
    facts_of = bound(as_of_reads.facts_of)
    facts_of_many = bound(as_of_reads.facts_of_many)
    history = bound(as_of_reads.history)
    holder = bound(items.holder)  # an item's holder, from everyone's 物品
    holder_history = bound(items.holder_history)  # and who held it from when to when
    relations = bound(as_of_reads.relations)
    relation_graph = bound(as_of_reads.relation_graph)
    best_connected = bound(as_of_reads.best_connected)
    threads = bound(as_of_reads.threads)
    thread_history = bound(as_of_reads.thread_history)
    thread_at = staticmethod(as_of_reads.thread_at)  # a version seen from a chapter: no read
    rules = bound(as_of_reads.rules)
    secrets = bound(as_of_reads.secrets)
    knows = bound(as_of_reads.knows)


class RecordReads(parts.Records):
    timeline = bound(as_of_reads.timeline)

    def chapter(self, chapter: int) -> ChapterReport | None:
        """What chapter `chapter` holds as committed, or None when it is not in memory."""
        from .chapter_report import chapter_report

        return chapter_report(self._conn, chapter)


class StoryTime(Part):
    """The story clock (read/story_clock.py), loaded when first asked for: a fresh `webnovel
    fact` needs none of it."""

    def clock(self, as_of: int | None, calendar: Mapping[str, int] | None = None) -> StoryClock:
        from .story_clock import story_clock

        return story_clock(self._conn, as_of, calendar)

    def story_timeline(
        self,
        events: Iterable[TimelineEvent],
        as_of: int | None,
        calendar: Mapping[str, int] | None = None,
    ) -> list[TimelineEvent]:
        """`events` placed on the story clock and ordered by it."""
        from .story_clock import story_timeline

        return story_timeline(self._conn, events, as_of, calendar)

    def aged_value(
        self, value: Any, said_chapter: int, as_of: int | None, calendar: Mapping[str, int]
    ) -> Any:
        from .story_clock import aged_value

        return aged_value(self._conn, value, said_chapter, as_of, calendar)

    def track(
        self, entity_id: str, as_of: int | None, calendar: Mapping[str, int], limit: int
    ) -> list[Stamp]:
        from .story_clock import track

        return track(self._conn, entity_id, as_of, calendar, limit)


class Reading(StoreParts):
    """The store's parts, each with its reads as of a chapter, and the story clock."""

    entities: EntityReads
    chains: ChainReads
    records: RecordReads

    def __init__(self, conn: Connection) -> None:
        super().__init__(conn)
        self.entities = EntityReads(conn)
        self.chains = ChainReads(conn)
        self.records = RecordReads(conn)
        self.time = StoryTime(conn)
