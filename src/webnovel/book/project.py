"""The facade: one book, opened. Adapters (CLI, MCP, dashboard) call these methods and nothing
below them; each method's answer has a `to_dict()` that is the CONTRACT's JSON shape.

`Project` is built in layers, each a module: a reader (reader.py) that searches (searching.py)
and writes (writing.py); here, what stands on all three: packs, bringing a book in, the
author's decisions on names, extraction and the handle's lifetime."""

from __future__ import annotations

import warnings
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from .reader import chapter_number
from .searching import Progress
from .writing import WritingBook

if TYPE_CHECKING:
    # Imported where used: a fresh `webnovel fact` process need not load packs, retrieval,
    # review or import code (agents call the CLI once per tool call).
    from ..extraction.report import ExtractionReport
    from ..ingest.name_finder import Candidate
    from ..memory.packs.memory_pack import MemoryPack
    from ..memory.packs.orchestrator import RankingCache
    from .candidate_queue import Settled
    from .long_reads import LongReads
    from .renaming import Renamed
    from .reports import Summarized, TextImport, UpstreamImport
    from .resume import Resume


class Project(WritingBook):
    """One book, opened for everything: the reader's answers, and writing, packs, search,
    import and lifetime."""

    def _set_up(self) -> None:
        super()._set_up()
        self._ranking: RankingCache | None = None  # the book's rules and dead between packs
        self._long_reads: LongReads[Project] | None = None

    # -- packs ----------------------------------------------------------------------------------

    def build_memory_pack(
        self,
        task: str = "chapter_write",
        chapter: int | None = None,
        outline: str | None = None,
        query: str | None = None,
        budget_tokens: int | None = None,
        weights: dict[str, float] | None = None,
        draft: Any = None,
        record: bool = True,
        template: str | None = None,
    ) -> MemoryPack:
        """The memory pack for writing, checking, asking about or reviewing `chapter`
        (default: the next one). Without an outline, the book's outline file is used; with a
        `draft` chapter result, the pack centres on exactly the entities the draft touches.
        The pack's size is recorded for the dashboard unless `record` is False (an inspection
        rather than a pack given to an agent). A chapter `template` (battle, dialogue,
        transition) reweights the recipe's sections, and `weights` on top of it."""
        from ..memory.packs.orchestrator import ranking_cache
        from .packing import build_pack

        if self._ranking is None:
            self._ranking = ranking_cache()
        parsed = None if draft is None else self.pipeline.read(draft, chapter)[0]
        return build_pack(
            self,
            self.aliases(),
            self.retriever,
            self._ranking,
            task=task,
            chapter=chapter,
            outline=outline,
            query=query,
            budget_tokens=budget_tokens,
            weights=weights,
            draft=parsed,
            record=record,
            template=template,
        )

    def find_outline(self, chapter: int) -> str | None:
        """The book's outline for a chapter, by convention `outlines/NNN.md` (also `N.md`,
        `NNNN.md`, `第N章.md`, or `.txt`) under the book's folder."""
        from .book_texts import find_outline

        return find_outline(self.root, chapter)

    def resume(self) -> Resume:
        """Where the book stands: a brief for picking the work up again."""
        from .resume import where_it_stands

        return where_it_stands(self, self.aliases)

    # -- bringing a book in (importing.py) -----------------------------------------------------

    def import_text(
        self,
        path: str | Path,
        start: int | None = None,
        cast: list[dict[str, Any]] | None = None,
        dry_run: bool = False,
        progress: Progress | None = None,
        keep_doubled: bool = False,
        append: bool = False,
        force: bool = False,
    ) -> TextImport:
        """Commit a novel's chapters (a file cut at its headings, or a folder of chapter files)
        with their texts and a minimal result each, numbered from `start` (default: where an
        earlier run of it began, so a rerun changes nothing and an interrupted one resumes, else
        after the last chapter, where a file numbered from 第一章 again is refused unless
        `append`). A `cast` is introduced where first named, each chapter records who appears;
        a chapter the source holds twice is left out (in `doubled`) unless `keep_doubled`;
        a published chapter the import would change is refused unless `force`."""
        if start is not None and (chapter_number(start, "start") is None or start < 1):
            raise InvalidInput.of("start_range", got=start)
        from .importing import import_text

        return import_text(self, path, start, cast, dry_run, progress, keep_doubled, append, force)

    def summarize(self, progress: Progress | None = None) -> Summarized:
        """Give every chapter that stands only on a text import's result an extractive summary
        (its central sentences, in its own words), its ending passage and its scenes, so that a
        pack for the next chapter has something to carry without any model. Chapters a model or
        an agent wrote are left alone; running it again changes nothing."""
        from . import importing

        return importing.summarize(self, progress)

    def import_upstream(
        self, root: str | Path, dry_run: bool = False, progress: Progress | None = None
    ) -> UpstreamImport:
        """Bring a webnovel-writer (v5/v6) project in: each chapter's records become that
        chapter's result, committed with its text. Into an empty book (or to resume an
        interrupted import of the same project); reports what it could not map."""
        from . import importing

        return importing.import_upstream(self, Path(root), dry_run, progress)

    def candidate_names(
        self, min_count: int = 3, limit: int = 50, as_of: int | None = None
    ) -> list[Candidate]:
        """Frequent person names in the stored chapter texts (up to `as_of`) that no entity
        has yet."""
        from . import importing

        return importing.candidate_names(self, min_count, limit, chapter_number(as_of))

    # -- the candidate queue (candidate_queue.py) --------------------------------------------------

    def candidates(
        self, min_count: int = 3, limit: int = 50, as_of: int | None = None
    ) -> list[Candidate]:
        """Candidate names (in the texts up to `as_of`) the author has not yet accepted,
        merged or rejected."""
        from . import candidate_queue

        return candidate_queue.queue(self.store, self.candidate_names, min_count, limit, as_of)

    def accept_candidate(
        self,
        name: str,
        entity_type: str = "角色",
        entity_id: str | None = None,
        confirmed: bool = False,
    ) -> Settled:
        """Introduce a candidate name as an entity where the text first names it, and record
        its appearances (through `commit`). A name that looks like a known entity's is refused
        unless `confirmed`."""
        from . import candidate_queue

        return candidate_queue.accept(self, name, entity_type, entity_id, confirmed)

    def undo_candidate(self, name: str) -> Settled:
        """Take back the last accept, merge or rejection of `name` (each chapter it rewrote
        committed again as it was)."""
        from . import candidate_queue

        return candidate_queue.undo(self, name)

    def merge_candidate(self, name: str, into: str) -> Settled:
        """Make a candidate name an alias of a known entity, from the first chapter naming it."""
        from . import candidate_queue

        return candidate_queue.merge(self, name, into)

    def settle_candidate(
        self, action: str, name: str, entity_type: str = "角色", into: str | None = None
    ) -> Settled:
        """accept, merge or reject a candidate: the one call the CLI and the dashboard share."""
        from . import candidate_queue

        return candidate_queue.settle(self, action, name, entity_type, into)

    def reject_candidate(self, name: str) -> Settled:
        """Never offer this name as a candidate again (kept in the book; rebuild keeps it)."""
        from . import candidate_queue

        return candidate_queue.reject(self, name)

    def rename_entity(
        self, entity: str, new_name: str, from_chapter: int | None = None, undo: bool = False
    ) -> Renamed:
        """Give an entity (id, name or alias) a new name from a chapter on (default: the one
        introducing it), its old name kept as an alias: an author's decision, kept through
        extraction and imports. Refused when another entity has the name. `undo` takes the
        entity's latest rename back."""
        from . import renaming

        if undo:
            return renaming.undo(self, entity)
        start = chapter_number(from_chapter, "from_chapter")
        return renaming.rename(self, entity, new_name, start)

    def prefill(self, chapter: int) -> dict[str, Any]:
        """A chapter-result skeleton for a committed chapter from its stored text: who appears
        (with the mentions found), names that may be new characters, and where the chapter
        before ended. An agent completes it instead of extracting from scratch."""
        chapter_number(chapter, "chapter")
        from . import importing

        return importing.prefill(self, chapter)

    def stored_commit(self, chapter: int) -> dict[str, Any] | None:
        """The chapter result and text a chapter currently stands on, as stored (None: not
        committed). A number no chapter can have is refused, as every chapter argument is."""
        chapter_number(chapter, "chapter")
        return self.store.commits.current_commit(chapter)

    def extract(
        self,
        start: int | None = None,
        end: int | None = None,
        dry_run: bool = False,
        force: bool = False,
        concurrency: int | None = None,
        progress: Progress | None = None,
        chapter: int | None = None,
    ) -> ExtractionReport:
        """Have a model read the stored chapters `start`..`end` that stand only on a text
        import's result (all of them with `force`) and commit what it found, in chapter order;
        answers are kept in the book, so nothing is paid for twice. `dry_run` estimates the
        requests, tokens and cost and sends nothing. `chapter`: that one chapter alone, instead
        of a range (a refusal then names `chapter`, the argument given)."""
        bounds: tuple[tuple[int | None, str], ...] = ((start, "start"), (end, "end"))
        if chapter is not None:
            if start is not None or end is not None:
                raise InvalidInput.of("chapter_or_range")
            bounds = ((chapter, "chapter"),)
            start = end = chapter
        for value, what in bounds:
            if value is not None and (chapter_number(value, what) is None or value < 1):
                raise InvalidInput.of("extract_bound", what=what, value=value)
        from ..extraction.extract import extract_chapters

        return extract_chapters(self, start, end, dry_run, force, concurrency, progress)

    # -- lifetime -------------------------------------------------------------------------------

    def long_reads(self) -> LongReads[Project]:
        """A second handle on this book for a server's answers that may take long (search,
        packs), run in a worker thread while the server answers the rest; closed with it."""
        from .long_reads import LongReads  # a server's (asyncio): a fresh `fact` never loads it

        if self._long_reads is None:
            location = self.storage.location
            self._long_reads = LongReads(lambda: Project(self.root, location=location))
        return self._long_reads

    def close(self) -> None:
        if self._long_reads is not None:
            self._long_reads.close()
        try:
            self.flush()
        except (OSError, ValueError) as exc:
            # The commits are stored; the projections are derived and are rebuilt on the next
            # open (they record the commit sequence they were built from).
            warnings.warn(f"state.json and the scratchpad were not rewritten: {exc}", stacklevel=2)
        self.storage.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
