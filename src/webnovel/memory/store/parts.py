"""The store's handle: its parts (entities, chains, commits, records, observability), each bound
to the book's connection, so that the facade asks `store.commits.current_commit(12)` and never
holds a connection of its own, whichever database the book lives in.

A part names the store functions it offers once, with `bound`: the function keeps its signature
(a type checker sees it without its connection), and its queries stay where they are, in the
`*_ops` modules that the write path calls inside its transactions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from . import (
    chain_ops,
    commit_ops,
    entity_ops,
    observability_ops,
    ranking_scans,
    record_ops,
    revision_ops,
)
from .connection import Connection

P = ParamSpec("P")
R = TypeVar("R")


class Part:
    """One part of the store, over the book's connection (sqlite3's, or a `PgConnection`)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn


class bound(Generic[P, R]):  # noqa: N801 - used as a decorator-like declaration in a class body
    """A store function offered by a part, its connection supplied by the part."""

    def __init__(self, func: Callable[Concatenate[Connection, P], R]) -> None:
        self._func = func
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, part: None, owner: type[Part]) -> bound[P, R]: ...

    @overload
    def __get__(self, part: Part, owner: type[Part]) -> Callable[P, R]: ...

    def __get__(self, part: Part | None, owner: type[Part]) -> Any:
        if part is None:
            return self
        func, conn = self._func, part._conn

        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            return func(conn, *args, **kwargs)

        return call


class Entities(Part):
    listed = bound(entity_ops.list_entities)
    known_at = bound(entity_ops.entities_known_at)
    count_known_at = bound(entity_ops.count_known_at)
    recently_introduced = bound(entity_ops.recently_introduced)
    introduced_in = bound(entity_ops.introduced_in)
    protagonist = bound(entity_ops.find_protagonist)
    alias_pairs = bound(entity_ops.alias_pairs)
    cooccurring = bound(entity_ops.cooccurring)


class Chains(Part):
    versions_at = bound(chain_ops.versions_at)
    pressing_threads = bound(ranking_scans.pressing_threads)
    field_use = bound(chain_ops.field_use)
    item_holders = bound(chain_ops.item_holders)


class Commits(Part):
    current_commit = bound(commit_ops.current_commit)
    logged_result = bound(commit_ops.logged_result)
    earlier_version = bound(commit_ops.earlier_version)
    logged_results = bound(commit_ops.logged_results)
    current_commits = bound(commit_ops.current_commits)
    whole_log = bound(commit_ops.whole_log)
    commits_with_before = bound(commit_ops.commits_with_before)
    chapter_rows = bound(commit_ops.chapter_rows)
    chapter_totals = bound(commit_ops.chapter_totals)
    chapter_commit_ids = bound(commit_ops.chapter_commit_ids)
    chapter_with_text = bound(commit_ops.chapter_with_text)
    chapters_committed_since = bound(commit_ops.chapters_committed_since)
    introductions = bound(commit_ops.introductions)
    latest_chapter = bound(commit_ops.latest_chapter)
    missing_chapters = bound(commit_ops.missing_chapters)
    counts = bound(commit_ops.counts)
    schema_names = bound(commit_ops.schema_names)
    meta = bound(commit_ops.get_meta)
    all_meta = bound(commit_ops.all_meta)
    set_meta = bound(commit_ops.set_meta)  # in a transaction: `Storage.writing()`
    delete_meta = bound(commit_ops.delete_meta)
    clear_derived = bound(commit_ops.clear_derived)
    published_through = bound(revision_ops.published_through)
    set_published_through = bound(revision_ops.set_published_through)  # in a transaction
    mark_published_revision = bound(revision_ops.mark_published_revision)  # in a transaction
    text_sources = bound(revision_ops.text_sources)
    stale_chapters = bound(revision_ops.stale_chapters)
    remember_text_source = bound(revision_ops.remember_text_source)  # in a transaction


class Records(Part):
    conflicts = bound(record_ops.list_conflicts)
    settle_conflict = bound(record_ops.settle_conflict)
    conflict_verdicts = bound(record_ops.conflict_verdicts)
    restore_verdicts = bound(record_ops.restore_verdicts)
    scene_partners = bound(record_ops.scene_partners)


class Observability(Part):
    commit_log = bound(observability_ops.commit_log)
    chapter_costs = bound(observability_ops.chapter_costs)


class StoreParts:
    """The book's store as the facade reads it, part by part."""

    def __init__(self, conn: Connection) -> None:
        self.entities = Entities(conn)
        self.chains = Chains(conn)
        self.commits = Commits(conn)
        self.records = Records(conn)
        self.observability = Observability(conn)
