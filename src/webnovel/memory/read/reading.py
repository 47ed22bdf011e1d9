"""What the facade reads of memory as of a chapter, bound to the book's store like the store's
own parts (`memory/store/parts.py`): `reading.fact(entity, "realm", 12)`, no connection held."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.parts import Part, bound
from . import as_of_reads

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..clock import Stamp
    from ..clock.answer import StoryClock
    from ..records import TimelineEvent
    from .chapter_report import ChapterReport


class Reading(Part):
    resolve_entity = bound(as_of_reads.resolve_entity)
    fact = bound(as_of_reads.fact)
    facts_of = bound(as_of_reads.facts_of)
    facts_of_many = bound(as_of_reads.facts_of_many)
    history = bound(as_of_reads.history)
    relations = bound(as_of_reads.relations)
    relation_graph = bound(as_of_reads.relation_graph)
    names_as_of = bound(as_of_reads.names_as_of)
    best_connected = bound(as_of_reads.best_connected)
    appearances = bound(as_of_reads.appearances)
    thread_history = bound(as_of_reads.thread_history)
    threads = bound(as_of_reads.threads)
    thread_at = staticmethod(as_of_reads.thread_at)  # a version seen from a chapter: no read
    rules = bound(as_of_reads.rules)
    timeline = bound(as_of_reads.timeline)
    secrets = bound(as_of_reads.secrets)
    knows = bound(as_of_reads.knows)

    # Loaded when first asked for: a fresh `webnovel fact` needs none of these.
    def clock(self, as_of: int | None, calendar: Mapping[str, int] | None = None) -> StoryClock:
        """The story clock as of chapter `as_of` (read/story_clock.py)."""
        from .story_clock import story_clock

        return story_clock(self._conn, as_of, calendar)

    def story_timeline(
        self,
        events: Iterable[TimelineEvent],
        as_of: int | None,
        calendar: Mapping[str, int] | None = None,
    ) -> list[TimelineEvent]:
        """`events` placed on the story clock and ordered by it (read/story_clock.py)."""
        from .story_clock import story_timeline

        return story_timeline(self._conn, events, as_of, calendar)

    def chapter(self, chapter: int) -> ChapterReport | None:
        """What chapter `chapter` holds as committed, or None when it is not in memory."""
        from .chapter_report import chapter_report

        return chapter_report(self._conn, chapter)

    def names_like(self, written: str) -> list[str]:
        """The book's names an unknown name likely meant (林言 → 林砚), best first: an unknown
        entity's error suggests them."""
        from ..write.name_suggestions import suggest_names

        return suggest_names(self._conn, written)

    # More of story time, loaded alike.
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
