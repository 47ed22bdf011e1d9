"""The facade's work for bringing an existing book in: committing a novel's text chapter by
chapter, or a webnovel-writer project's records; the names a text suggests; and a chapter-result
skeleton from a stored text. Reading files is `text_import`'s and `upstream_import`'s; this module
commits through the book's own `commit`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InvalidInput, UnknownChapter
from ..extraction.merge import with_author_layer
from ..ingest.doubled_headings import Doubled, set_apart_doubles
from ..ingest.name_finder import Candidate
from ..ingest.name_finder import candidate_names as names_in
from ..ingest.text_import import ImportedChapter, chapter_result, read_chapters
from ..ingest.text_summary import ending_passage, extractive_summary
from ..ingest.time_openings import timed_parts
from ..ingest.upstream_import import UpstreamBook, read_upstream
from ..memory.read.aliases import AliasIndex, Mention
from ..memory.store.revision_ops import text_hash
from ..memory.write.import_shape import IMPORT_ORIGIN, import_made, is_minimal
from ..messages import say
from ..prose.measure import char_count
from . import author_layer, source_marks
from .handles import Rewriting
from .heading_numbers import imported_title, renumbering
from .kept_results import commit_guarded, guarded
from .reports import (
    ChapterFound,
    DoubledChapter,
    FrontMatter,
    Summarized,
    TextImport,
    UpstreamImport,
)
from .retracted_in_import import fate
from .source_marks import source_name

if TYPE_CHECKING:
    from ..memory.write.write_pipeline import WritePipeline

SCENE_SUMMARY_CHARS = 120
RESUME_PROBES = 5  # an import's first texts looked for in the book: one may have been corrected


class Importing(Rewriting, Protocol):
    """What bringing chapters in uses of a book, besides rewriting: its folder (named in an
    error), its names (to find who a text names) and its last chapter (where an import goes)."""

    @property
    def root(self) -> Path: ...

    def aliases(self) -> AliasIndex: ...

    def latest_chapter(self) -> int | None: ...

    @property
    def pipeline(self) -> WritePipeline: ...


def import_text(
    book: Importing,
    path: str | Path,
    start: int | None,
    cast: list[dict[str, Any]] | None,
    dry_run: bool,
    progress: Callable[[int, int], None] | None,
    keep_doubled: bool = False,
    append: bool = False,
    force: bool = False,
) -> TextImport:
    path = Path(path)
    stamp = None if path.is_dir() else source_marks.file_stamp(path)  # before it is read
    chapters, warnings, encodings = read_chapters(path)
    doubled: list[Doubled] = []
    if not keep_doubled:
        chapters, doubled, renumbered = set_apart_doubles(chapters)
    first = start
    if first is None:
        first, resumed = _resume_point(book, chapters)
        if not resumed and first > 1:  # after the book's last chapter
            warnings += _numbering_warnings(path, chapters, first, dry_run, append)
    if not keep_doubled:
        warnings += _doubling_warnings(chapters, doubled, renumbered, first)
    titles = [imported_title(c.heading, first + i) for i, c in enumerate(chapters)]
    found = _found(chapters, doubled, first, titles, warnings, encodings)
    if dry_run:  # which chapters keep a result an agent, the author or `extract` committed
        fates = [fate(book.store, first + i, c.text, force) for i, c in enumerate(chapters)]
        return replace(
            found,
            kept=_kept(book, first, len(chapters)),
            retracted_kept_out=[first + i for i, f in enumerate(fates) if f == "kept_out"],
            retracted_back=[first + i for i, f in enumerate(fates) if f == "back"],
        )
    plan = _Plan(path, chapters, first, titles, cast or [], keep_doubled, force)
    done = _commit_chapters(book, plan, progress)
    with book.storage.writing() as store:
        for number, source, hashed in done.learnt:
            store.commits.remember_text_source(number, source, hashed)
        if stamp is not None:  # `status` cuts the file again only once it changes
            name = source_marks.FILE_READ_KEY + source_name(book, path)
            store.commits.set_meta(name, stamp)
    line = book.store.commits.published_through()  # a published text changed: said and logged
    return replace(
        found,
        published_revised=[n for n in done.text_changed if line is not None and n <= line],
        published_through=line,
        committed=len(chapters) - done.unchanged - len(done.retracted_kept_out),
        unchanged=done.unchanged,
        added=done.added,
        text_changed=done.text_changed,
        result_changed=done.result_changed,
        kept=done.kept,
        retracted_kept_out=done.retracted_kept_out,
        retracted_back=done.retracted_back,
    )


def _kept(book: Importing, first: int, count: int) -> list[int]:
    """The chapters an import of `count` chapters from `first` would leave their results."""
    current_commit = book.store.commits.current_commit
    return [
        number
        for number in range(first, first + count)
        if (stored := current_commit(number)) is not None and not import_made(stored["result"])
    ]


def _found(
    chapters: list[ImportedChapter],
    doubled: list[Doubled],
    first: int,
    titles: list[str],
    warnings: list[str],
    encodings: dict[str, int],
) -> TextImport:
    """What a file holds, as a dry run reports it: each chapter's number, title and 字数, the
    front matter before chapters, the chapters set apart as doubled."""
    return TextImport(
        chapters=[
            ChapterFound(
                chapter=first + i, title=titles[i], volume=c.volume, chars=char_count(c.text)
            )
            for i, c in enumerate(chapters)
        ],
        warnings=warnings,
        committed=0,
        encodings=encodings,
        front_matter=[
            FrontMatter.of(first + i, titles[i], c)
            for i, c in enumerate(chapters)
            if c.front_matter
        ],
        doubled=[
            DoubledChapter(
                title=d.heading,
                chars=char_count(d.text),
                same_as=first + d.repeats,
                similarity=d.similarity,
                text=d.text,
            )
            for d in doubled
        ],
    )


@dataclass(frozen=True)
class _Plan:
    """What an import commits: the chapters read, from which number, titled how, with which
    cast; `force` rewrites published chapters too (the log says so)."""

    path: Path
    chapters: list[ImportedChapter]
    first: int
    titles: list[str]
    cast: list[dict[str, Any]]
    keep_doubled: bool
    force: bool


@dataclass
class _Committed:
    """What the commits did: the chapters unchanged (and the files they were not yet
    remembered by), added, whose text changed, whose result alone changed."""

    unchanged: int = 0
    learnt: list[tuple[int, str, str]] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    text_changed: list[int] = field(default_factory=list)
    result_changed: list[int] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)  # results not the import's: see kept_results
    retracted_kept_out: list[int] = field(default_factory=list)  # see retracted_in_import
    retracted_back: list[int] = field(default_factory=list)


def _commit_chapters(
    book: Importing, plan: _Plan, progress: Callable[[int, int], None] | None
) -> _Committed:
    chapters, first = plan.chapters, plan.first
    names = AliasIndex(
        [(n, e["id"]) for e in plan.cast for n in (e["id"], e["name"], *e["aliases"])]
        + book.store.entities.alias_pairs()
    )
    named = [names.find(chapter.text, fold=False) for chapter in chapters]
    mentioned = [_by_entity(mentions) for mentions in named]
    intro_at = _introductions(book, first, plan.cast, mentioned)
    decided = author_layer.decisions(book.store)  # the author's own layer: it outlives imports
    current_commit = book.store.commits.current_commit
    sources = _sources(book, plan.path, chapters, plan.keep_doubled)
    remembered = {s.chapter: s.path for s in book.store.commits.text_sources()}
    done = _Committed()
    for i, chapter in enumerate(chapters):
        number = first + i
        before = current_commit(number)  # to name what a re-import changed
        retracted = (
            None if before is not None else fate(book.store, number, chapter.text, plan.force)
        )
        if retracted == "kept_out":  # the author's retraction stands
            done.retracted_kept_out.append(number)
        elif before is not None and not import_made(before["result"]):
            known = remembered.get(number)
            _keep_result(book, plan, (number, chapter.text, sources[i], known), before, done)
        else:
            result = _imported_result(
                number, chapter, plan.titles[i], named[i], intro_at.get(i), decided
            )
            committed = book.commit(
                result, text=chapter.text, text_source=sources[i], force=plan.force
            )
            if committed.status == "unchanged":
                done.unchanged += 1
                if remembered.get(number) != sources[i]:
                    done.learnt.append((number, sources[i], text_hash(chapter.text)))
            elif retracted == "back":
                done.retracted_back.append(number)
            elif before is None:
                done.added.append(number)
            elif (before.get("text") or "") != chapter.text:
                done.text_changed.append(number)
            else:  # the same text, a new result: a cast, a title
                done.result_changed.append(number)
        if progress:
            progress(i + 1, len(chapters))
    return done


def _keep_result(
    book: Importing,
    plan: _Plan,
    read: tuple[int, str, str, str | None],
    before: dict[str, Any],
    done: _Committed,
) -> None:
    """A chapter whose result an agent, the author or `extract` committed keeps it
    (`kept_results`): the same text changes nothing (the file is learnt as its source); a new
    one replaces the text and marks the chapter stale, guarded as any import of a published
    chapter is. `read`: the chapter's number, its text, its file and the file the book knew."""
    number, text, source, known = read
    done.kept.append(number)
    if (before.get("text") or "") == text:
        done.unchanged += 1
        if known != source:
            done.learnt.append((number, source, text_hash(text)))
        return
    crossing = guarded(book, before["result"], number, text, plan.force)
    commit_guarded(book, before["result"], number, text, source, True, crossing)
    done.text_changed.append(number)


def _sources(
    book: Importing, path: Path, chapters: list[ImportedChapter], keep_doubled: bool
) -> list[str]:
    """Where each imported chapter's text lives, as the book remembers it (`imported_sources`):
    its own file in a folder, or its place in the novel's file."""
    if path.is_dir():
        return [source_marks.folder_file(source_name(book, Path(c.source))) for c in chapters]
    name = source_name(book, path)
    return [
        source_marks.novel_chapter(name, place, keep_doubled)
        for place in range(1, len(chapters) + 1)
    ]


def _imported_result(
    number: int,
    chapter: ImportedChapter,
    title: str,
    named: list[Mention],
    introduced: list[dict[str, Any]] | None,
    decided: list[dict[str, Any]],
) -> dict[str, Any]:
    """The result an import commits a chapter with: its title, volume and front matter, whom
    it introduces and names, what its text says (`with_text_memory`), and the author's layer."""
    result = chapter_result(number, chapter, title, char_count(chapter.text))
    if introduced:
        result["entities_new"] = introduced
    result["entities_appeared"] = [  # names found in the text: mentions, not acting
        {"id": entity_id, "mentions": found[:5], "role": "mentioned"}
        for entity_id, found in _by_entity(named).items()
    ]
    with_text_memory(result, chapter.text, named)
    return with_author_layer(result, author_layer.for_chapter(decided, number))


def reimported_result(book: Importing, number: int, chapter: ImportedChapter) -> dict[str, Any]:
    """What importing the chapter's file again would commit it with (`sync` of an imported
    chapter edited by hand): the entities it introduced are kept."""
    introduced = book.store.commits.introductions(number, number).get(number)
    named = book.aliases().find(chapter.text, fold=False)
    title = imported_title(chapter.heading, number)
    return _imported_result(
        number, chapter, title, named, introduced, author_layer.decisions(book.store)
    )


def _doubling_warnings(
    chapters: list[ImportedChapter],
    doubled: list[Doubled],
    renumbered: list[tuple[int, int]],
    first: int,
) -> list[str]:
    """Each repeat left out, and each heading number that stands over two different texts."""
    out = [
        say(
            "doubled_chapter_left_out",
            title=d.heading,
            chapter=first + d.repeats,
            kept=chapters[d.repeats].heading,
            percent=round(d.similarity * 100, 1),
        )
        for d in doubled
    ]
    out += [
        say(
            "heading_number_repeated",
            title=chapters[later].heading,
            chapter=first + later,
            earlier_chapter=first + earlier,
            earlier_title=chapters[earlier].heading,
        )
        for earlier, later in renumbered
    ]
    return out


def _by_entity(mentions: list[Mention]) -> dict[str, list[str]]:
    """entity id → the distinct names a text calls it by (AliasIndex.mentions, from one scan)."""
    found: dict[str, set[str]] = {}
    for mention in mentions:
        found.setdefault(mention.entity_id, set()).add(mention.text)
    return {entity_id: sorted(names) for entity_id, names in sorted(found.items())}


def with_text_memory(result: dict[str, Any], text: str, mentions: list[Mention]) -> dict[str, Any]:
    """What the text itself says, added to an imported chapter's result: an extractive summary,
    the passage it ends on, and its scenes where the text shows breaks or a paragraph opens
    with a time (次日清晨，…: the scene's `time`), with who is in each, from `mentions`, the
    book's names found in the text. Marked `chapter_meta.origin =
    "text_import"`, so that `extract` knows a model has not read it yet."""
    if not text.strip():
        return result
    title = result.get("title")
    summary = extractive_summary(
        text, [m.start for m in mentions], title=title if isinstance(title, str) else ""
    )
    if summary:
        result["summary"] = summary
    meta = result.get("chapter_meta")
    meta = dict(meta) if isinstance(meta, dict) else {}
    meta["origin"] = IMPORT_ORIGIN
    meta["ending"] = {"passage": ending_passage(text)}
    result["chapter_meta"] = meta
    parts = timed_parts(text)  # at scene breaks, and at paragraphs opening with a time (次日，…)
    if len(parts) > 1 or parts and parts[0][2]:
        scenes = []
        for index, (start, part, time) in enumerate(parts, start=1):
            inside = [m for m in mentions if start <= m.start < start + len(part)]
            scene: dict[str, Any] = {
                "index": index,
                "characters": list(_by_entity(inside)),
            }
            summary = extractive_summary(part, [m.start - start for m in inside])
            if summary:
                scene["summary"] = summary[:SCENE_SUMMARY_CHARS]
            if time:
                scene["time"] = time
            scenes.append(scene)
        result["scenes"] = scenes
    return result


def summarize(book: Importing, progress: Callable[[int, int], None] | None) -> Summarized:
    """Give every chapter that stands only on a text import's result (an import made before
    imports summarized) its summary, ending and scenes; chapters a model or an agent wrote are
    left alone. Running it again changes nothing."""
    current_commit = book.store.commits.current_commit
    names = book.aliases()
    chapters = [c["chapter"] for c in book.chapters()]
    done = unchanged = skipped = 0
    for count, number in enumerate(chapters, start=1):
        stored = current_commit(number) or {}
        result, text = stored.get("result"), stored.get("text") or ""
        if not text.strip() or not is_minimal(result):
            skipped += 1
        else:
            mentions = names.find(text, fold=False)
            enriched = with_text_memory(dict(result or {"chapter": number}), text, mentions)
            status = book.commit(enriched, text=text).status
            done += status == "committed"
            unchanged += status == "unchanged"
        if progress:
            progress(count, len(chapters))
    return Summarized(chapters=len(chapters), summarized=done, unchanged=unchanged, skipped=skipped)


def _introductions(
    book: Importing, first: int, cast: list[dict[str, Any]], mentioned: list[dict[str, list[str]]]
) -> dict[int, list[dict[str, Any]]]:
    """Who each chapter introduces (by index in the import). Running an import again, or
    resuming one, re-commits its first chapters: each keeps the entities it introduced before
    (updated from the cast when it lists them), so the cast is never lost. An entity new to
    the book is introduced in the first chapter that names it, or where the import begins."""
    before = book.store.commits.introductions(first, first + len(mentioned) - 1)
    by_id = {entity["id"]: entity for entity in cast}
    intro_at: dict[int, list[dict[str, Any]]] = {}
    for chapter, items in before.items():
        intro_at[chapter - first] = [  # a reveal (a rename, a merge) is not the cast's to undo
            by_id.get(item.get("id"), item)
            if isinstance(item, dict) and not item.get("revealed")
            else item
            for item in items
        ]
    known = {e.id for e in book.entities()}
    for entity in cast:
        if entity["id"] not in known:
            at = next((i for i, m in enumerate(mentioned) if entity["id"] in m), 0)
            intro_at.setdefault(at, []).append(entity)
    return intro_at


def _resume_point(book: Importing, chapters: list[ImportedChapter]) -> tuple[int, bool]:
    """Where an import begins, and whether an earlier run of it began there: the chapter that
    holds its first text, or where two of its first texts say it began (so running it again
    changes nothing, an interrupted one resumes, and an edition whose first chapter was
    corrected replaces chapters by number; one later text alone may be a short chapter said
    twice, a 请假 note), else after the book's last chapter."""
    said: dict[int, int] = {}  # where it began → how many of its first texts say so
    for place, chapter in enumerate(chapters[:RESUME_PROBES]):
        again = book.store.commits.chapter_with_text(chapter.text) if chapter.text else None
        if again is None or int(again) <= place:
            continue
        began = int(again) - place
        said[began] = said.get(began, 0) + 1
        if place == 0 or said[began] == 2:
            return began, True
    return (book.latest_chapter() or 0) + 1, False


def _numbering_warnings(
    path: Path, chapters: list[ImportedChapter], first: int, dry_run: bool, append: bool
) -> list[str]:
    """An import after the book's last chapter whose file numbers its chapters otherwise: a
    file that starts over (its 第一章 would be 第13章) is refused, naming what it saw, unless
    `append` asked for it (a warning then says so) or this is a dry run (which warns with the
    refusal's words); one that skips ahead (its 第15章 would be 第13章) is a warning."""
    found = renumbering(chapters, first)
    if found is None:
        return []
    facts = {
        "path": path.name,
        "heading": found.heading,
        "says": found.says,
        "becomes": found.becomes,
        "latest": first - 1,
    }
    if not found.starts_over:
        return [say("import_numbering_skips", **facts)]
    if append:
        return [say("import_numbering_appended", **facts)]
    if dry_run:
        return [say("import_numbering_starts_over", **facts)]
    raise InvalidInput.of("import_numbering_starts_over", **facts)


def candidate_names(
    book: Importing, min_count: int, limit: int, as_of: int | None = None
) -> list[Candidate]:
    current_commit = book.store.commits.current_commit
    texts = (
        (c["chapter"], (current_commit(c["chapter"]) or {}).get("text"))
        for c in book.chapters()
        if as_of is None or c["chapter"] <= as_of
    )
    return names_in(((n, t) for n, t in texts if t), book.aliases().names, min_count, limit)


def prefill(book: Importing, chapter: int) -> dict[str, Any]:
    commit = book.store.commits.current_commit(chapter)
    if commit is None:
        raise UnknownChapter(chapter)
    text = commit["text"] or ""
    if not text:
        raise InvalidInput.of("no_text_to_prefill", chapter=chapter)
    from .candidate_queue import rejected  # a name the author rejected stays out for good

    aliases = book.aliases()
    skip = set(rejected(book.store))
    rows = book.store.commits.chapter_rows(start=chapter - 1, end=chapter - 1)
    meta = rows[0].meta if rows else {}
    return {
        "chapter": chapter,
        "title": (commit["result"] or {}).get("title"),
        "entities_appeared": [  # found in the text: mentions, until the agent says who acts
            {"id": entity_id, "mentions": found, "role": "mentioned"}
            for entity_id, found in aliases.mentions(text).items()
        ],
        "candidate_new_entities": [
            c.to_dict()
            for c in names_in([(chapter, text)], aliases.names, min_count=2)
            if c.name not in skip
        ],
        "previous_ending": (meta or {}).get("ending"),
        "state_changes": [],
        "relationships_new": [],
        "plot_threads": [],
    }


def import_upstream(
    book: Importing,
    root: Path,
    dry_run: bool,
    progress: Callable[[int, int], None] | None,
) -> UpstreamImport:
    """Commit a webnovel-writer project chapter by chapter. Only into an empty book or one
    made by an earlier run of the same import, which then resumes (committed chapters are
    unchanged)."""
    upstream = read_upstream(root)
    results = upstream.results
    planned = upstream_plan(upstream, root)
    if dry_run:
        return planned
    source = str(root.resolve())
    imported_from = book.store.commits.meta("imported_from")
    if book.latest_chapter() is not None and imported_from != source:
        raise InvalidInput.of("upstream_into_used_book", root=book.root)
    with book.storage.writing() as store:
        store.commits.set_meta("imported_from", source)
    committed = conflicts = 0
    for done, result in enumerate(results, start=1):
        report = book.commit(result, text=upstream.texts.get(result["chapter"]))
        committed += report.status == "committed"
        conflicts += len(report.conflicts)
        if progress:
            progress(done, len(results))
    return replace(
        planned, committed=committed, unchanged=len(results) - committed, conflicts=conflicts
    )


def upstream_plan(upstream: UpstreamBook, root: Path) -> UpstreamImport:
    """What an import of a webnovel-writer project would bring in (the answer of a dry run)."""
    return UpstreamImport(
        source=str(root),
        title=upstream.title,
        genre=upstream.genre,
        chapters=len(upstream.results),
        texts=len(upstream.texts),
        counts=_upstream_counts(upstream.results),
        unmapped=upstream.unmapped,
        warnings=upstream.warnings,
    )


def _upstream_counts(results: list[dict[str, Any]]) -> dict[str, int]:
    keys = (
        "entities_new",
        "state_changes",
        "relationships_new",
        "plot_threads",
        "world_rules",
        "scenes",
        "entities_appeared",
        "timeline_events",
    )
    return {key: sum(len(r.get(key, ())) for r in results) for key in keys}
