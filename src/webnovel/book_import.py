"""The facade's work for bringing an existing book in: committing a novel's text chapter by
chapter, or a webnovel-writer project's records; the names a text suggests; and a chapter-result
skeleton from a stored text. Reading files is `text_import`'s and `upstream_import`'s; this module
commits through the book's own `commit`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InvalidInput, UnknownChapter
from .memory.read.aliases import AliasIndex
from .memory.store import commit_ops, entity_ops
from .name_finder import Candidate
from .name_finder import candidate_names as names_in
from .text_import import ImportedChapter, chapter_result, read_chapters
from .upstream_import import UpstreamBook, read_upstream

if TYPE_CHECKING:  # the facade calls in; this module never imports it at run time
    from .project import Project


def import_text(
    book: Project,
    path: Path,
    start: int | None,
    cast: list[dict[str, Any]] | None,
    dry_run: bool,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    chapters, warnings = read_chapters(path)
    first = start if start is not None else _resume_point(book, chapters)
    plan = [
        {"chapter": first + i, "title": c.title, "volume": c.volume, "chars": len(c.text)}
        for i, c in enumerate(chapters)
    ]
    out: dict[str, Any] = {"chapters": plan, "warnings": warnings, "committed": 0}
    if dry_run:
        return out
    names = AliasIndex(
        [(n, e["id"]) for e in cast or () for n in (e["id"], e["name"], *e["aliases"])]
        + entity_ops.alias_pairs(book.storage.conn)
    )
    mentioned = [names.mentions(chapter.text) for chapter in chapters]
    intro_at = _introductions(book, first, cast or [], mentioned)
    unchanged = 0
    for i, (chapter, mentions) in enumerate(zip(chapters, mentioned, strict=True)):
        result = chapter_result(first + i, chapter)
        if i in intro_at:
            result["entities_new"] = intro_at[i]
        result["entities_appeared"] = [
            {"id": entity_id, "mentions": found[:5]} for entity_id, found in mentions.items()
        ]
        unchanged += book.commit(result, text=chapter.text).status == "unchanged"
        if progress:
            progress(i + 1, len(chapters))
    out.update(committed=len(chapters) - unchanged, unchanged=unchanged)
    return out


def _introductions(
    book: Project, first: int, cast: list[dict[str, Any]], mentioned: list[dict[str, list[str]]]
) -> dict[int, list[dict[str, Any]]]:
    """Who each chapter introduces (by index in the import). Running an import again, or
    resuming one, re-commits its first chapters: each keeps the entities it introduced before
    (updated from the cast when it lists them), so the cast is never lost. An entity new to
    the book is introduced in the first chapter that names it, or where the import begins."""
    before = commit_ops.introductions(book.storage.conn, first, first + len(mentioned) - 1)
    by_id = {entity["id"]: entity for entity in cast}
    intro_at: dict[int, list[dict[str, Any]]] = {}
    for chapter, items in before.items():
        intro_at[chapter - first] = [
            by_id.get(item.get("id"), item) if isinstance(item, dict) else item for item in items
        ]
    known = {e.id for e in book.entities()}
    for entity in cast:
        if entity["id"] not in known:
            at = next((i for i, m in enumerate(mentioned) if entity["id"] in m), 0)
            intro_at.setdefault(at, []).append(entity)
    return intro_at


def _resume_point(book: Project, chapters: list[ImportedChapter]) -> int:
    """Where an import begins: where an earlier run of it began (so running it again changes
    nothing, and an interrupted one resumes), else after the book's last chapter."""
    if chapters:
        again = commit_ops.chapter_with_text(book.storage.conn, chapters[0].text)
        if again is not None:
            return int(again)
    return (book.latest_chapter() or 0) + 1


def candidate_names(book: Project, min_count: int, limit: int) -> list[Candidate]:
    conn = book.storage.conn
    texts = (
        (c["chapter"], (commit_ops.current_commit(conn, c["chapter"]) or {}).get("text"))
        for c in book.chapters()
    )
    return names_in(((n, t) for n, t in texts if t), book.aliases().names, min_count, limit)


def prefill(book: Project, chapter: int) -> dict[str, Any]:
    conn = book.storage.conn
    commit = commit_ops.current_commit(conn, chapter)
    if commit is None:
        raise UnknownChapter(chapter)
    text = commit["text"] or ""
    if not text:
        raise InvalidInput(f"chapter {chapter} has no stored text to prefill from")
    aliases = book.aliases()
    rows = commit_ops.chapter_rows(conn, start=chapter - 1, end=chapter - 1)
    meta = rows[0].meta if rows else {}
    return {
        "chapter": chapter,
        "title": (commit["result"] or {}).get("title"),
        "entities_appeared": [
            {"id": entity_id, "mentions": found}
            for entity_id, found in aliases.mentions(text).items()
        ],
        "candidate_new_entities": [
            c.to_dict() for c in names_in([(chapter, text)], aliases.names, min_count=2)
        ],
        "previous_ending": (meta or {}).get("ending"),
        "state_changes": [],
        "relationships_new": [],
        "plot_threads": [],
    }


def import_upstream(
    book: Project,
    root: Path,
    dry_run: bool,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    """Commit a webnovel-writer project chapter by chapter. Only into an empty book or one
    made by an earlier run of the same import, which then resumes (committed chapters are
    unchanged)."""
    upstream = read_upstream(root)
    results = upstream.results
    out = upstream_plan(upstream, root)
    if dry_run:
        return out
    source = str(root.resolve())
    conn = book.storage.conn
    if book.latest_chapter() is not None and commit_ops.get_meta(conn, "imported_from") != source:
        raise InvalidInput(
            f"{book.root} already holds chapters: import a webnovel-writer project into a new book"
        )
    with book.storage.index.atomic() as writing:
        commit_ops.set_meta(writing, "imported_from", source)
    for done, result in enumerate(results, start=1):
        report = book.commit(result, text=upstream.texts.get(result["chapter"]))
        out["committed" if report.status == "committed" else "unchanged"] += 1
        out["conflicts"] += len(report.conflicts)
        if progress:
            progress(done, len(results))
    return out


def upstream_plan(upstream: UpstreamBook, root: Path) -> dict[str, Any]:
    """What an import of a webnovel-writer project would bring in (the answer of a dry run)."""
    return {
        "source": str(root),
        "title": upstream.title,
        "genre": upstream.genre,
        "chapters": len(upstream.results),
        "texts": len(upstream.texts),
        "counts": _upstream_counts(upstream.results),
        "unmapped": upstream.unmapped,
        "warnings": upstream.warnings,
        "committed": 0,
        "unchanged": 0,
        "conflicts": 0,
    }


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
