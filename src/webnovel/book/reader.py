"""A book open for reading: what memory holds as of any chapter, and what the book's commits and
packs cost. It reads through the store and the read layer only, and loads none of the write path,
packs, retrieval or review, so a one-question process (an agent's `webnovel fact`) starts fast.
`Project` is a reader that also writes, builds packs and searches."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import BookConfig, load_config
from ..errors import InvalidInput, UnknownChapter, UnknownEntity
from ..memory.read.aliases import traditional_folder
from ..memory.read.reading import Reading
from ..memory.schema import (
    MAX_CHAPTER,
    THREAD_FILTERS,
    Entity,
    MemoryItem,
)
from ..memory.store.location import StoreLocation, find_store_location
from ..memory.store.storage import CONFIG, MEMORY_DIR, Storage
from ..memory.vocabulary import ENTITY_TYPES, THREAD_FILTER_WORDS, Terms, field_terms
from ..messages import say
from ..untrusted.safe_paths import refuse_links_in_memory

if TYPE_CHECKING:
    from ..memory.clock import Stamp
    from ..memory.clock.answer import StoryClock
    from ..memory.read.chapter_report import ChapterReport  # loaded when one is asked for
    from ..memory.records import (
        CommitEntry,
        Conflict,
        Knowledge,
        RelationEdge,
        Secret,
        Thread,
        ThreadStep,
        TimelineEvent,
        Together,
        WorldRule,
    )
    from .reports import BookStats


class BookReader:
    def __init__(
        self,
        root: Path,
        create: bool = False,
        title: str | None = None,
        location: StoreLocation | None = None,
        created_meta: dict[str, str] | None = None,
    ) -> None:
        """Open the book at `root` (or `create` it): in its folder's SQLite file, or in the
        PostgreSQL store its config.toml (or `location`) names; a book created in a store
        holds `created_meta` from the moment it exists."""
        self.root = root
        # before anything in .webnovel/ is opened: a link there reads or writes elsewhere
        refuse_links_in_memory(root / MEMORY_DIR)
        config_path = root / MEMORY_DIR / CONFIG
        self.config: BookConfig = load_config(config_path)
        if location is None:
            location = find_store_location(config_path)
        self.storage = Storage(
            root / MEMORY_DIR, location, create=create, title=title, created_meta=created_meta
        )
        self._reading: Reading | None = None
        self._set_up()

    def _set_up(self) -> None:
        """Each layer's own state, once the book is open (searching.py, writing.py,
        project.py add theirs, each calling the layer below first): one constructor for all."""

    @property
    def store(self) -> Reading:
        """The book's memory, read family by family (entities, chains, commits, records,
        observability, time): the one way this facade reads it (memory/read/reading.py)."""
        if self._reading is None:
            self._reading = Reading(self.storage.conn)
        return self._reading

    @property
    def book(self) -> dict[str, Any]:
        meta = self.store.commits.meta
        book = {"title": meta("title"), "genre": meta("genre") or None, "root": str(self.root)}
        if self.storage.location is not None:  # a shared store's book: where it lives
            book["store"] = self.storage.location.shown()
        return book

    def entity(self, reference: str) -> Entity:
        """The entity a reference names. Names are not bound to a chapter: asked as of a chapter
        before it appears, an entity answers like one with no facts and no relations."""
        if not isinstance(reference, str):
            raise InvalidInput.of("entity_by_string", got=type(reference).__name__)
        try:
            return self.store.entities.resolve(reference)
        except UnknownEntity:
            folded = traditional_folder()(reference)  # 林硯 finds 林砚, as search does
            try:
                if folded == reference:
                    raise
                return self.store.entities.resolve(folded)
            except UnknownEntity:
                raise UnknownEntity(reference, self.store.entities.names_like(reference)) from None

    def entities(self, as_of: int | None = None, entity_type: str | None = None) -> list[Entity]:
        """The book's cast (and places, factions, items), first seen by chapter `as_of`; a type
        is named as in a chapter result, in any of its words (人物 is 角色). The items (`物品`)
        include the things held in someone's 物品 that no chapter introduced."""
        as_of = chapter_number(as_of)
        if entity_type is not None:
            entity_type = ENTITY_TYPES.find(entity_type) or entity_type
        found = self.store.entities.listed(as_of, entity_type)
        if (
            not found
            and entity_type is not None
            and entity_type not in ENTITY_TYPES.values
            and not self.store.entities.listed(None, entity_type)  # nor a type of the book's own
        ):
            choices = ENTITY_TYPES.described()
            raise InvalidInput.of("entity_type_unknown", choices=choices, got=entity_type)
        if entity_type != "物品":
            return found
        every = self.store.entities.listed(as_of, None)
        return found + self.store.entities.unintroduced(as_of, every)

    @property
    def fields(self) -> Terms:
        """The book's fields: the built-in ones with their Chinese names, and its own
        (config.toml `[fields]`)."""
        if not hasattr(self, "_fields"):
            self._fields = field_terms(self.config.fields, self.config.ladders)
        return self._fields

    def field_key(self, written: str) -> str:
        """A field as memory keys it, however a person names it: 「境界」 is `realm`."""
        return self.fields.find(written) or written

    def field_use(self) -> dict[str, int]:
        """Each field memory holds, with how many entities have had a value for it."""
        return self.store.chains.field_use()

    def holders(self, item: str, as_of: int | None = None) -> list[str]:
        """Who holds a named item (an entity of type 物品) as of chapter `as_of`: the ids of
        the entities whose `items` hold its name or an alias."""
        entity = self.thing(item)
        names = {entity.id, entity.name, *entity.aliases}
        return self.store.chains.item_holders(names, chapter_number(as_of))

    def fact(self, subject: str, field: str, as_of: int | None = None) -> MemoryItem | None:
        key, as_of = self.field_key(field), chapter_number(as_of)
        if key == "holder":  # an item's holder is read from everyone's 物品
            return self._holder(subject, as_of)
        return self.store.chains.fact(self.entity(subject), key, as_of)

    def _holder(self, subject: str, as_of: int | None) -> MemoryItem | None:
        """Who holds an item as of a chapter: an item introduced as an entity, or any thing
        ever added to someone's 物品, asked for by its name."""
        entity = self.thing(subject)
        names = {entity.id, entity.name, *entity.aliases}
        shown = self.names([entity.id], as_of).get(entity.id, entity.name)  # as then named
        held = self.store.chains.holder(names, shown, as_of)
        return held or self.store.chains.fact(entity, "holder", as_of)

    def thing(self, reference: str) -> Entity:
        """The entity a reference names or, failing one, a thing that was once in someone's
        物品: an item known by its name alone (its id is its name)."""
        try:
            return self.entity(reference)
        except UnknownEntity:
            first = self.store.entities.carried(None).get(reference)
            if first is None:
                raise
            return Entity(id=reference, name=reference, type="物品", first_chapter=first)

    def facts(self, subject: str, as_of: int | None = None) -> list[MemoryItem]:
        return self.store.chains.facts_of(self.entity(subject), chapter_number(as_of))

    def history(
        self, subject: str, field: str | None = None, as_of: int | None = None
    ) -> list[MemoryItem]:
        """Every version, oldest first; as of chapter `as_of`, as that chapter knew them. An item
        (introduced, or a thing once in someone's 物品) has its holders among them, field
        `holder` (持有者): who held it from when to when, read from everyone's 物品."""
        key = self.field_key(field) if field is not None else None
        as_of = chapter_number(as_of)
        entity = self.thing(subject)
        found = self.store.chains.history(entity, key, as_of)
        if entity.type != "物品" or key not in (None, "holder"):
            return found
        names = {entity.id, entity.name, *entity.aliases}
        shown = self.names([entity.id], as_of).get(entity.id, entity.name)
        held = self.store.chains.holder_history(entity.id, names, shown, as_of)
        if not held:  # a holder the book wrote as the item's own field, if any
            return found
        # in `history`'s order, by field and then chapter; the holders read from 物品 stand for
        # any written as the item's own field
        rest = [i for i in found if i.field != "holder"]
        return sorted([*rest, *held], key=lambda i: (i.field, i.valid_from))

    def relations(self, subject: str, as_of: int | None = None) -> list[RelationEdge]:
        return self.store.chains.relations(self.entity(subject), chapter_number(as_of))

    def threads(self, status: str = "open", as_of: int | None = None) -> list[Thread]:
        """The threads of one status (`open`, `resolved`, `abandoned`, `overdue`, `all`, or
        its Chinese: 未回收, 已回收, 已放弃, 逾期, 全部), as of a chapter."""
        wanted = THREAD_FILTER_WORDS.find(status) if isinstance(status, str) else None
        if wanted is None:
            choices = say("argument_list_separator").join(THREAD_FILTERS)
            raise InvalidInput.of("unknown_thread_status", status=status, choices=choices)
        as_of = chapter_number(as_of)
        listed = "open" if wanted == "overdue" else wanted
        found = self.store.chains.threads(listed, as_of, self.latest_chapter())
        if any(t.due_time and t.status == "open" for t in found):
            # overdue in story time too: the clock has passed its due_time's day
            late = {d.thread_id for d in self.clock(as_of).deadlines if d.overdue}
            found = [replace(t, overdue=True) if t.id in late else t for t in found]
        return [t for t in found if t.overdue] if wanted == "overdue" else found

    def relation_graph(
        self,
        as_of: int | None = None,
        touching: Iterable[str] | None = None,
        among: Iterable[str] | None = None,
    ) -> list[RelationEdge]:
        """Every relation that holds as of a chapter, named as that chapter knew the entities;
        only those from or to one of `touching`, or with both ends `among`, when given."""
        as_of = chapter_number(as_of)
        return self.store.chains.relation_graph(
            as_of,
            None if touching is None else sorted(set(touching)),
            None if among is None else sorted(set(among)),
        )

    def names(self, entity_ids: Iterable[str], as_of: int | None = None) -> dict[str, str]:
        """Entity id → name, as chapter `as_of` knew it (a name revealed later is not used)."""
        return self.store.entities.names_as_of(entity_ids, chapter_number(as_of))

    def best_connected(self, as_of: int | None = None, limit: int = 60) -> list[tuple[str, int]]:
        """The entities with the most relations holding as of a chapter, with their count."""
        return self.store.chains.best_connected(chapter_number(as_of), max(1, limit))

    def states(
        self, entity_ids: Iterable[str], as_of: int | None = None
    ) -> dict[str, list[MemoryItem]]:
        """`facts` of many entities in one read: entity id → the fields that hold."""
        return self.store.chains.facts_of_many(list(entity_ids), chapter_number(as_of))

    def progress(self, as_of: int | None = None) -> dict[str, int]:
        """How far the book is as of a chapter: chapters committed, their words, entities known."""
        as_of = chapter_number(as_of)
        chapters, words = self.store.commits.chapter_totals(as_of)
        return {
            "chapters": chapters,
            "words": words,
            "entities": self.store.entities.count_known_at(as_of),
        }

    def appearances(self, subject: str, as_of: int | None = None) -> list[int]:
        """The chapters in which an entity appears or acts, up to `as_of`."""
        return self.store.entities.appearances(self.entity(subject), chapter_number(as_of))

    def cooccurrence(
        self, subject: str, as_of: int | None = None, limit: int = 20
    ) -> list[Together]:
        """Who shares chapters and scenes with an entity, up to `as_of`, most shared first.
        Marked `kind: co-occurrence`: being in the same chapter is not a relation fact."""
        from ..memory import records

        as_of = chapter_number(as_of)
        entity = self.entity(subject)
        chapters = self.store.entities.cooccurring(entity.id, as_of, max(1, limit))
        scenes = self.store.records.scene_partners(entity.id, as_of)
        names = self.store.entities.names_as_of([c[0] for c in chapters], as_of)
        return [
            records.Together(
                entity_id=other,
                name=names.get(other, other),
                chapters=shared,
                scenes=scenes.get(other, 0),
                last_chapter=last,
            )
            for other, shared, last in chapters
        ]

    def thread_history(self, thread_id: str, as_of: int | None = None) -> list[ThreadStep]:
        """A thread's states, oldest first, each with its evidence, as known at `as_of`;
        empty for an id the book (as of then) does not know."""
        return self.store.chains.thread_history(thread_id, chapter_number(as_of))

    def rules(self, as_of: int | None = None, domain: str | None = None) -> list[WorldRule]:
        return self.store.chains.rules(chapter_number(as_of), domain)

    def knows(self, subject: str, as_of: int | None = None) -> list[Knowledge]:
        """What a character knows or suspects, as of chapter `as_of`: since when, how, from whom."""
        return self.store.chains.knows(self.entity(subject), chapter_number(as_of))

    def secrets(self, as_of: int | None = None) -> list[Secret]:
        """The story's secrets as of a chapter: who knows them, whether the reader does, and
        when each is due to be revealed."""
        return self.store.chains.secrets(chapter_number(as_of))

    def timeline(
        self,
        start: int | None = None,
        end: int | None = None,
        entity: str | None = None,
        as_of: int | None = None,
        limit: int | None = None,
        story: bool = False,
    ) -> list[TimelineEvent]:
        """Events in the order told, chapters `start`..`end`, never past `as_of`; with `limit`,
        the latest `limit` of them. With `story`, in the order they happen on the story clock
        (a flashback's event in the past), each with its day and part of day."""
        as_of = chapter_number(as_of)
        start, end = chapter_number(start, "start"), chapter_number(end, "end")
        if start is not None and end is not None and start > end:
            raise InvalidInput.of("range_backwards", start=start, end=end)
        found = self.entity(entity) if entity else None
        if as_of is not None:
            end = as_of if end is None else min(end, as_of)
        if limit is not None and limit < 1:
            raise InvalidInput.of("limit_positive", got=limit)
        events = self.store.records.timeline(start, end, found, limit)
        if story:
            return self.store.time.story_timeline(events, as_of, self.config.calendar)
        return events

    def aged(self, item: MemoryItem, as_of: int | None = None) -> Any:
        """An `age` fact as the story clock has moved it by chapter `as_of`: 「十六岁」 said on
        day 1 is 「十九岁」 three story years on; None when it has not moved (or is no age)."""
        if item.field != "age":
            return None
        return self.store.time.aged_value(
            item.value, item.valid_from, chapter_number(as_of), self.config.calendar
        )

    def track(self, subject: str, as_of: int | None = None, limit: int = 60) -> list[Stamp]:
        """Where a character was on which day: each scene they are in, in the latest `limit`
        chapters up to `as_of` that have one, with its day, part of day, place and whether it
        is a memory (`mode`), in the order told."""
        entity = self.entity(subject)
        return self.store.time.track(
            entity.id, chapter_number(as_of), self.config.calendar, max(1, limit)
        )

    def clock(self, as_of: int | None = None) -> StoryClock:
        """The story clock as of chapter `as_of`: the day (day 1 is the book's first scene) and
        part of day, the scene that set it, the days since the start and since the chapter
        before, and the threads due in story time (`due_time`) with the days left to each."""
        return self.store.time.clock(chapter_number(as_of), self.config.calendar)

    def conflicts(self, include_settled: bool = False, as_of: int | None = None) -> list[Conflict]:
        """Open conflicts (all with `include_settled`); as of N, those written by chapter N."""
        return self.store.records.conflicts(
            include_settled=include_settled, up_to=chapter_number(as_of)
        )

    def commit_log(self, limit: int = 20, as_of: int | None = None) -> list[CommitEntry]:
        """The latest commits and retractions of chapters up to `as_of`, newest first, with
        what each changed and cost."""
        return self.store.observability.commit_log(chapter_number(as_of), max(1, limit))

    def commits_with_before(self, seqs: list[int]) -> dict[int, dict[str, Any]]:
        """For commits of the log (by `seq`): each one's result, its chapter's result before it
        (None for a chapter's first commit) and whether the text stayed the same."""
        return self.store.commits.commits_with_before(seqs)

    def chapter_costs(self, as_of: int | None = None) -> list[dict[str, Any]]:
        """Per chapter up to `as_of`: the current commit's time and the index size after it,
        and the tokens of the latest pack built for the chapter."""
        as_of = chapter_number(as_of)
        from ..memory.packs import pack_log

        packs = pack_log.latest_by_chapter(self.storage.pack_log_path, as_of)
        return [
            {
                "chapter": chapter,
                "elapsed_ms": elapsed_ms,
                "index_bytes": index_bytes,
                "pack_tokens": packs.get(chapter, {}).get("used_tokens"),
                "pack_task": packs.get(chapter, {}).get("task"),
            }
            for chapter, elapsed_ms, index_bytes in self.store.observability.chapter_costs(as_of)
        ]

    def wait_for_commit(self, seconds: float) -> bool:
        """Pause up to `seconds`, ending early when the book's store says a commit came (on
        PostgreSQL: LISTEN/NOTIFY, from any machine); then compare `commit_seq`."""
        return self.storage.index.wait_for_commit(seconds)

    def commit_seq(self) -> int:
        """The book's commit sequence number: it moves on with every commit or retraction, by
        any process, so a watcher compares it to know memory changed."""
        return int(self.store.commits.meta("commit_seq") or 0)

    def book_id(self) -> str:
        """Who this book is, apart from its name: made with the book ("" for a book made
        before 2026-12). A shared store's book deleted and made anew under the same name is
        another book: each machine's projections of the old one are then dropped."""
        return self.store.commits.meta("book_id") or ""

    def sizes(self) -> dict[str, int]:
        """The size in bytes of each of the book's stores and projections."""
        return self.storage.sizes()

    def stats(self) -> BookStats:
        """Counts, sizes, schema and gaps: the book's health at a glance."""
        from .coverage import as_ranges, text_only
        from .reports import BookStats

        commits = self.store.commits
        return BookStats(
            book=self.book,
            latest_chapter=self.latest_chapter(),
            missing_chapters=self.missing_chapters(),
            published_through=commits.published_through(),
            counts=commits.counts(),
            open_conflicts=len(self.store.records.conflicts()),
            open_threads=len(self.threads("open")),
            sizes_bytes=self.sizes(),
            schema=commits.schema_names(),
            text_only_chapters=as_ranges(text_only(self.store.commits)),
        )

    def missing_chapters(self) -> list[int]:
        """Chapters from 1 to the latest that have no commit: the book's gaps."""
        return self.store.commits.missing_chapters()

    def latest_chapter(self) -> int | None:
        return self.store.commits.latest_chapter()

    def chapter(self, chapter: int) -> ChapterReport:
        """What happened in one chapter: its summary, scenes with people and places, events,
        what it changed, the threads and secrets it touched and the conflicts it raised."""
        number = chapter_number(chapter, "chapter")
        if not number:  # chapters count from 1; 0 is only ever "before the book"
            raise InvalidInput.of("chapter_from_one", got=chapter)
        report = self.store.records.chapter(number)
        if report is None:
            raise UnknownChapter(chapter)
        return report

    def chapters(self) -> list[dict[str, Any]]:
        return [
            {
                "chapter": r.chapter,
                "title": r.title,
                "summary": r.summary,
                "word_count": r.word_count,
                "commit_id": r.commit_id,
            }
            for r in self.store.commits.chapter_rows()
        ]


def chapter_number(as_of: int | None, what: str = "as_of") -> int | None:
    """`as_of` (or another chapter argument) checked to be a chapter number, or None."""
    if as_of is not None and (
        isinstance(as_of, bool) or not isinstance(as_of, int) or not 0 <= as_of <= MAX_CHAPTER
    ):
        raise InvalidInput.of("not_a_chapter", what=what, high=f"{MAX_CHAPTER:,}", got=repr(as_of))
    return as_of
