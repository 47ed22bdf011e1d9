"""Chapters edited by hand: a commit with `--text FILE` remembers the file and its text's hash,
so the book can say which chapter files changed since their commit, which are gone, and which
files in its chapter folders were never committed (`status`); and take the edited texts in
again (`sync`). Without a model, a synced chapter's result was made from its old text: the
chapter is marked stale, in the pack and on the dashboard, until a new result is committed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from ..ingest.text_files import read_text
from ..memory.store.revision_ops import TextSource, text_hash
from . import imported_sources, source_marks
from .imported_sources import reimport
from .kept_results import Retake, take_in

if TYPE_CHECKING:
    from ..memory.review.impact import Impact
    from .project import Project

CHAPTER_FOLDER = "chapters"  # a book's own chapter folder, beside outlines/
CHAPTER_SUFFIXES = (".md", ".txt")
_NUMBER = re.compile(r"第\s*(\d+)\s*[章回节]|(\d+)")


@dataclass
class ChapterFiles:
    """What `webnovel status` answers."""

    edited: list[dict[str, Any]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    uncommitted: list[dict[str, Any]] = field(default_factory=list)
    stale: list[int] = field(default_factory=list)
    outside: list[dict[str, Any]] = field(default_factory=list)  # not read: see `located`
    links: list[dict[str, Any]] = field(default_factory=list)  # chapter files leading outside

    def to_dict(self) -> dict[str, Any]:
        found = {
            "edited": self.edited,
            "missing": self.missing,
            "uncommitted": self.uncommitted,
            "stale": self.stale,
        }
        return (
            found
            | ({"outside": self.outside} if self.outside else {})
            | ({"links": self.links} if self.links else {})
        )


def _file_hash(path: Path) -> str | None:
    """The hash of the file's text as a commit would read it; None when it cannot be read. A
    server's overview asks on every render: a file is read again only when its size or its
    modification time has changed since it was last hashed in this process."""
    try:
        found = path.stat()
    except OSError:
        return None
    return _hash_as_it_stands(str(path), found.st_mtime_ns, found.st_size)


@lru_cache(maxsize=8192)
def _hash_as_it_stands(path: str, mtime_ns: int, size: int) -> str | None:
    try:
        return text_hash(read_text(Path(path))[0])
    except (OSError, InvalidInput):
        return None


def chapter_of(path: Path) -> int | None:
    """The chapter a file's name gives: 第12章.md, 0012.md, ch12-标题.txt."""
    found = _NUMBER.search(path.stem)
    if found is None:
        return None
    number = int(found.group(1) or found.group(2))
    return number if number > 0 else None


def status(project: Project) -> ChapterFiles:
    sources = project.store.commits.text_sources()
    return _status(project, sources, imported_sources.check(project, sources))


def _status(
    project: Project, sources: list[TextSource], imported: imported_sources.Found
) -> ChapterFiles:
    """The files committed with `--text` checked here, those an import read by
    `imported_sources`."""
    files = ChapterFiles(stale=project.store.commits.stale_chapters())
    files.edited += [change.to_dict() for change in imported.changed]
    files.missing += imported.missing
    files.outside += imported.outside
    sources = [s for s in sources if source_marks.place_of(s.path) is None]
    folders = {project.root / CHAPTER_FOLDER} | imported.folders
    known = set(imported.known)
    for source in sources:
        path = source_marks.located(project, source.path)
        if path is None:
            files.outside.append({"chapter": source.chapter, "path": source.path})
            continue
        known.add(path.resolve())
        folders.add(path.parent)
        if not path.is_file():
            files.missing.append({"chapter": source.chapter, "path": source.path})
            continue
        now = _file_hash(path)
        if now != source.text_hash:
            files.edited.append(
                {
                    "chapter": source.chapter,
                    "path": source.path,
                    "committed_hash": source.text_hash,
                    "file_hash": now,
                }
            )
    committed = set(project.store.commits.chapter_commit_ids())
    for folder in sorted(folders):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() not in CHAPTER_SUFFIXES or not path.is_file():
                continue
            number = chapter_of(path)
            if source_marks.located(project, str(path)) is None:
                # a link (or a linked folder) a received book planted: offering the file it
                # leads to as a chapter to commit would take it into memory, and on to a model
                files.links.append(_refused_link(project, path, number))
                continue
            if path.resolve() in known or (number is not None and number in committed):
                continue
            files.uncommitted.append(
                {"path": source_marks.source_name(project, path), "chapter": number}
            )
    files.uncommitted += imported.added
    files.edited.sort(key=lambda e: e["chapter"])
    files.missing.sort(key=lambda e: e["chapter"])
    return files


def _refused_link(project: Project, path: Path, number: int | None) -> dict[str, Any]:
    """A chapter folder's file that leads outside the book, by its name in the book (never by
    where it leads, which would read as a file to commit) and the target it points to."""
    return {
        "chapter": number,
        "path": path.relative_to(project.root).as_posix(),
        "target": str(path.resolve()),
    }


@dataclass(frozen=True)
class Proposal:
    """A model's new result for a stale chapter, and what committing it does."""

    chapter: int
    result: dict[str, Any]
    impact: Impact
    committed: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "result": self.result,
            "impact": self.impact.to_dict(),
            "committed": self.committed,
        }


@dataclass
class Synced:
    """What `webnovel sync` did: the chapters whose edited text it took in, those still stale,
    and with `--extract` the model's new results with their impacts."""

    synced: list[int] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    stale: list[int] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    # of `synced`, the imported chapters whose result was the import's own, made again from
    # the new text (so not stale)
    remade: list[int] = field(default_factory=list)
    # of `synced`, the published chapters (readers have read them): logged as their revisions
    published: list[int] = field(default_factory=list)
    published_through: int | None = None

    def to_dict(self) -> dict[str, Any]:
        found = {
            "synced": self.synced,
            "missing": self.missing,
            "stale": self.stale,
            "proposals": [p.to_dict() for p in self.proposals],
        }
        revised = {"published_revised": self.published, "published_through": self.published_through}
        return (
            found
            | ({"remade": self.remade} if self.remade else {})
            | (revised if self.published else {})
        )


def sync(
    project: Project, extract: bool = False, commit: bool = False, force: bool = False
) -> Synced:
    """Take each edited chapter's text in again: the text and search are updated, the result
    stays (the chapter is marked stale until a new result is committed), unless it was an
    import's own, which is made again from the new text. Each chapter is its own commit,
    through the same path as `commit --text`; one that changes a published chapter's memory is
    refused, before anything is written, unless `force` (the log then says so, as `import
    text --force` does); one that changes only a published chapter's text is taken in, said
    (`published`) and logged as a revision of a published chapter. With `extract`, a model
    reads each stale chapter again and the impact of its new result is shown; with `commit`
    too, the new result is committed (a published chapter's only with `force`)."""
    sources = project.store.commits.text_sources()
    imported = imported_sources.check(project, sources)
    found = _status(project, sources, imported)
    done = Synced(missing=found.missing)
    retakes = reimport(project, imported)
    from_import = {change.chapter for change in imported.changed}
    for edited in found.edited:
        chapter = edited["chapter"]
        if chapter in from_import:
            continue
        stored = project.stored_commit(chapter)
        if stored is None:
            continue
        path = source_marks.located(project, edited["path"])
        if path is None:  # `_status` lists only the book's own files as edited
            continue
        text = read_text(path)[0]
        retakes.append(Retake(chapter, stored["result"], text, edited["path"], True))
    # a published chapter's memory changed only with `force`; its text alone, said and logged
    done.published = take_in(project, retakes, force)
    done.published_through = project.store.commits.published_through()
    imported_sources.remember_read(project, imported)
    done.synced += [r.chapter for r in retakes]
    done.remade = sorted(r.chapter for r in retakes if not r.stale)
    done.synced.sort()
    if extract:
        from ..extraction.extract import propose_results

        for chapter, result in propose_results(
            project, project.store.commits.stale_chapters()
        ).items():
            found_impact = project.impact(result, chapter)
            if commit:
                project.commit(result, chapter=chapter, force=force)
            done.proposals.append(Proposal(chapter, result, found_impact, commit))
    project.refresh_projections()
    done.stale = project.store.commits.stale_chapters()
    return done
