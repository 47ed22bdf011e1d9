"""A book that writes: commits and retractions (a published chapter's refused unless forced:
revising.py), a rebuild from the commit log, the projections rewritten once a batch, a draft's
review and a revision's impact, the published line and conflicts settled. It keeps the search
index within SEARCH_BEHIND_AT_MOST chapters of its commits, which is why it stands on
`SearchingBook` (searching.py); `Project` (project.py) builds on it."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import (
    InvalidInput,
    ReviewBlocked,
    UnknownChapter,
    UnknownConflict,
    UnknownVersion,
)
from .reader import chapter_number
from .searching import Progress, SearchingBook

if TYPE_CHECKING:
    # Imported where used: a process that only reads never loads the write path or review.
    from ..memory.records import CommitReport, Conflict
    from ..memory.review.draft_review import ReviewReport
    from ..memory.review.impact import Impact
    from ..memory.write.write_pipeline import WritePipeline

# Chapters commits may leave the search index behind: past this, the writer brings it up to
# step itself, so the first search after thousands of commits never waits for them all.
SEARCH_BEHIND_AT_MOST = 200


class WritingBook(SearchingBook):
    """A searching book that also writes: commits, retractions, rebuilds, reviews."""

    def _set_up(self) -> None:
        super()._set_up()
        self._pipeline: WritePipeline | None = None
        # Projections are rewritten once per batch of commits (at flush or close), not per
        # commit: they are whole-book views, and a 10,000-chapter book must commit in ms.
        self._dirty = self._projections_stale()
        self._unindexed = 0  # chapters this handle committed or retracted since the index caught up
        self._index_progress: Progress | None = None
        self._in_one_transaction = 0  # `all_or_nothing` blocks open (nested ones count)

    def on_indexing(self, progress: Progress | None) -> None:
        """Call `progress(done, total)` while a commit brings the search index up to step
        (every SEARCH_BEHIND_AT_MOST chapters written through this handle)."""
        self._index_progress = progress

    def on_wait(self, tell: Callable[[str], None]) -> None:
        """Call `tell(path)` when a write must wait for another process (a commit, rebuild or
        search index catch-up) to finish; the CLI prints a note."""
        self.storage.on_wait(tell)

    @property
    def pipeline(self) -> WritePipeline:
        """The write path, loaded on first use: a process that only reads never imports it."""
        if self._pipeline is None:
            from ..memory.write.write_pipeline import WritePipeline

            self._pipeline = WritePipeline(self.storage.index, self.config)
        return self._pipeline

    def commit(
        self,
        result: Any,
        text: str | None = None,
        chapter: int | None = None,
        check: bool = False,
        force: bool = False,
        text_source: str | None = None,
        weigh: bool = False,
        as_given: bool = False,
    ) -> CommitReport:
        """Write a chapter result. With `check`, review it first and refuse blocking issues
        unless `force`; a result that changes a published chapter is refused unless `force`
        (book/revising.py). A refused commit writes nothing. `text_source`: the file the text
        was read from, remembered with its hash (`webnovel status`).

        A result replacing a chapter before the latest is weighed with `check` or `weigh`: its
        impact is run first, and under `check` a replacement that changes answers is refused
        unless `force` (an agent that wrote the wrong chapter number would erase what that
        chapter recorded); otherwise the report says how many answers it changed.

        `as_given`: the result exactly as given, keeping nothing of the one it replaces (the
        author's decisions rewriting chapters: a merge takes an introduction away on purpose)."""
        from .kept_cast import carried
        from .revising import (
            guard_published,
            logged_as_published,
            replacement_note,
            replacement_refused,
            replacing_earlier,
        )

        kept: list[str] = []
        if not as_given:  # a cast is not un-introduced by a result that leaves it out
            result, kept = carried(self, result, chapter)
        crossing = guard_published(self.store, self.pipeline, result, chapter, text, False, force)
        replacing = None  # weighed first: a wrong chapter number is the first thing to say
        if check or weigh:
            replacing = replacing_earlier(self.store, self.pipeline, result, chapter, text)
        if replacing is not None and check and not force:
            raise replacement_refused(replacing)
        if check and not force:
            review = self.review(result, chapter=chapter)
            if review.blocking:
                raise ReviewBlocked.of_issues(review.chapter, review.blocking)
        with logged_as_published(self.storage, crossing):
            report = self.pipeline.commit(result, text, chapter, text_source=text_source)
        if kept and report.status == "committed":
            report = dataclasses.replace(report, warnings=(*report.warnings, *kept))
        if replacing is not None and report.status == "committed":
            report = dataclasses.replace(
                report,
                answers_changed=replacing.answers_changed,
                warnings=(*report.warnings, replacement_note(replacing)),
            )
        if report.status == "committed":
            self._dirty = True
            self._index_in_step()
        return report

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """Many commits as one transaction (an accepted name rewriting 400 chapters, and the
        decision recorded with them): an error, Ctrl-C or a kill part way leaves the book as it
        was, never half rewritten. The search index waits until the end: caught up inside, it
        would keep commits that a rollback takes back."""
        self._in_one_transaction += 1
        try:
            with self.storage.writing():
                yield
        except BaseException:
            self._aliases = None  # it may hold names of commits taken back
            raise
        finally:
            self._in_one_transaction -= 1

    def restore(
        self, chapter: int, commit_id: str | None = None, force: bool = False
    ) -> CommitReport:
        """Bring back a version of the chapter from the commit log: the one `commit_id` names
        (its id, or the start of it), else the latest it no longer stands on (the version a
        replacement took the place of, or a retracted one). It is committed again, result and
        text, as any commit is (a published chapter only with `force`); the report says how many
        answers it changed."""
        number = chapter_number(chapter, "chapter")
        if number is None:
            raise InvalidInput.of("restore_needs_chapter")
        version = self.store.commits.earlier_version(number, commit_id)
        if version is None and not self.store.commits.logged_results(number):
            raise UnknownChapter(number)  # never committed: no version at all, not "no other"
        if version is None:
            raise UnknownVersion(number, commit_id)
        return self.commit(  # as it was: nothing of the version it replaces is kept
            version["result"],
            text=version["text"],
            chapter=number,
            force=force,
            weigh=True,
            as_given=True,
        )

    def _index_in_step(self) -> None:
        """Count a chapter written; at SEARCH_BEHIND_AT_MOST of them, index what is pending
        (the CLI does the same for its runs), telling `on_indexing`'s progress; not inside
        `all_or_nothing`."""
        self._unindexed += 1
        if self._unindexed >= SEARCH_BEHIND_AT_MOST and not self._in_one_transaction:
            self._unindexed = 0
            if self.search_pending() >= SEARCH_BEHIND_AT_MOST:
                self.catch_up_search(self._index_progress)

    def retract(self, chapter: int, force: bool = False) -> CommitReport:
        """Take a committed chapter back: the book then answers as if it had never been
        committed, and later chapters are re-evaluated. The commit stays in the log, marked
        retracted; committing the chapter again brings it back. A published chapter only
        with `force`."""
        from .revising import guard_published, logged_as_published

        if chapter_number(chapter, "chapter") is None:
            raise InvalidInput.of("retract_needs_chapter")
        crossing = guard_published(self.store, self.pipeline, None, chapter, None, True, force)
        with logged_as_published(self.storage, crossing):
            report = self.pipeline.retract(chapter)
        self._dirty = True
        self._index_in_step()
        return report

    def rebuild(
        self, progress: Progress | None = None, search_progress: Progress | None = None
    ) -> dict[str, Any]:
        """Re-derive every store from the commit log: memory in one transaction, then the
        search index, every chapter again."""
        from ..memory.write.write_pipeline import replay_all

        started = time.perf_counter()
        index = self.storage.index
        with self.storage.writing() as store:
            commits = store.commits.current_commits()
            store.commits.clear_derived()
            for done, _ in enumerate(replay_all(index, self.config, commits), start=1):
                if progress:
                    progress(done, len(commits))
        index.checkpoint()
        self._dirty = True
        self._aliases = None
        memory_seconds = time.perf_counter() - started
        indexed = self.retrieval().reindex(search_progress)
        return {
            "chapters": len(commits),
            "indexed_chapters": indexed,
            "memory_seconds": round(memory_seconds, 3),
            "seconds": round(time.perf_counter() - started, 3),
        }

    def flush(self) -> None:
        """Rewrite state.json and the scratchpad if commits have changed memory since."""
        if self._dirty:
            self.refresh_projections()

    def refresh_projections(self) -> None:
        """Rewrite state.json and the scratchpad from memory now (`projections.py`)."""
        from .projections import write_projections

        self._dirty = False
        write_projections(self)

    def _projections_stale(self) -> bool:
        from .projections import projections_stale

        return projections_stale(self)

    def review(self, draft: Any, chapter: int | None = None) -> ReviewReport:
        """Check a draft chapter result against memory as of the chapter before; writes
        nothing. A malformed draft raises InvalidChapterResult like a commit would."""
        from ..memory.review.draft_review import review_draft
        from .kept_cast import carried

        parsed, intake = self.pipeline.read(carried(self, draft, chapter)[0], chapter)
        report = review_draft(self.pipeline, parsed, self.store.commits.published_through())
        report.normalized = list(intake.normalized)
        report.own_words = list(intake.own_words)
        return report

    def impact(
        self,
        result: Any = None,
        chapter: int | None = None,
        text: str | None = None,
        retract: bool = False,
    ) -> Impact:
        """What committing `result` as chapter `chapter` (or retracting it) would do to the
        rest of the book, by the commit's own write path rolled back; writes nothing."""
        from . import revising
        from .kept_cast import carried

        if not retract:  # what committing it would do: with the import's cast it keeps
            result = carried(self, result, chapter)[0]
        return revising.impact(self.store, self.pipeline, result, chapter, text, retract)

    def publish(self, through: int) -> int | None:
        """Mark chapters 1..`through` as published (0 clears the line)."""
        from . import revising

        return revising.publish(self.storage, through)

    def resolve_conflict(
        self, conflict_id: str, intentional: bool = False, note: str | None = None
    ) -> Conflict:
        """Settle a conflict: `accepted` when the contradiction is intentional (kept, with the
        note, no longer raised), otherwise `resolved`."""
        return self.resolve_conflicts([conflict_id], intentional, note)[0]

    def resolve_conflicts(
        self, conflict_ids: list[str], intentional: bool = False, note: str | None = None
    ) -> list[Conflict]:
        """Settle several conflicts at once, as `resolve_conflict` does one (a death in a long
        book leaves one per chapter): all of them, or, one id unknown, none."""
        status = "accepted" if intentional else "resolved"
        with self.storage.writing() as store:
            for conflict_id in conflict_ids:
                if not store.records.settle_conflict(conflict_id, status, note):
                    raise UnknownConflict(conflict_id)
        self._dirty = True
        found = {c.id: c for c in self.conflicts(include_settled=True)}
        return [found[conflict_id] for conflict_id in dict.fromkeys(conflict_ids)]

    def scratchpad(self) -> str:
        """The semantic cache (memory_scratchpad.json), brought up to date, as JSON text."""
        self.flush()
        return self.storage.scratchpad_path.read_text(encoding="utf-8")
