"""Where an imported chapter's text came from, and whether that file still says the same.

`import text chapters/` remembers each chapter's file, `import text novel.txt` the novel's file
and the chapter's place in it (its 7th chapter as the import cut it), each with the hash of the
chapter's text as the import read it: so `status` sees an imported chapter edited by hand as it
sees a file committed with `--text`, and `sync` takes it in again through the import's own
reading. A whole novel's file is cut again only when its size or modification time differ from
when it was last read in full (kept in the book's meta), so `status` stays cheap on a long book.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from ..memory.store.revision_ops import text_hash
from ..memory.write.import_shape import import_made
from .kept_results import Retake
from .source_marks import FILE_READ_KEY, file_stamp, located, place_of

if TYPE_CHECKING:
    from ..ingest.text_import import ImportedChapter
    from ..memory.store.revision_ops import TextSource
    from .project import Project


@dataclass(frozen=True)
class Change:
    """An imported chapter whose file now gives another text."""

    chapter: int
    path: str  # the file, as remembered (relative to the book's folder when inside it)
    source: str  # as `text_source` keeps it
    committed_hash: str
    file_hash: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "path": self.path,
            "committed_hash": self.committed_hash,
            "file_hash": self.file_hash,
        }


@dataclass
class Found:
    """What the imported files say against the book: changed chapters, chapters whose file (or
    place in it) is gone, chapters a novel's file now has beyond the import's, the folders
    chapter files were imported from and the files already known (`status` looks there for
    files never committed), and the novel files read again whose every chapter the book still
    has, no more, no fewer (once `sync` took their changes in, it remembers them as read, so
    that `status` need not cut them again)."""

    changed: list[Change] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    folders: set[Path] = field(default_factory=set)
    known: set[Path] = field(default_factory=set)
    whole: dict[str, str] = field(default_factory=dict)  # file → its size and time
    outside: list[dict[str, Any]] = field(default_factory=list)  # not read: `located`


def check(project: Project, sources: list[TextSource]) -> Found:
    """Each imported chapter's file against the text its chapter was committed with."""
    found = Found()
    novels: dict[tuple[str, bool], list[tuple[int, TextSource]]] = {}
    for source in sources:
        place = place_of(source.path)
        if place is None:
            continue
        if place.position is not None:  # a novel's file: its 2,000 chapters checked at once
            at = (place.path, place.keep_doubled)
            novels.setdefault(at, []).append((place.position, source))
            continue
        path = located(project, place.path)
        if path is None:
            found.outside.append({"chapter": source.chapter, "path": place.path, "imported": True})
            continue
        found.known.add(path.resolve())
        found.folders.add(path.parent)
        now = _folder_file_hash(path)
        if now is None:
            found.missing.append({"chapter": source.chapter, "path": place.path})
        elif now != source.text_hash:
            found.changed.append(
                Change(source.chapter, place.path, source.path, source.text_hash, now)
            )
    for (name, keep_doubled), chapters in sorted(novels.items()):
        _check_novel(project, name, keep_doubled, sorted(chapters), found)
    return found


def _check_novel(
    project: Project,
    name: str,
    keep_doubled: bool,
    chapters: list[tuple[int, TextSource]],
    found: Found,
) -> None:
    path = located(project, name)
    if path is None:
        found.outside += [
            {"chapter": s.chapter, "path": name, "imported": True} for _, s in chapters
        ]
        return
    found.known.add(path.resolve())
    stamp = file_stamp(path)
    if stamp is not None and stamp == project.store.commits.meta(FILE_READ_KEY + name):
        return  # not touched since it was read in full: the cheap answer on a long book
    hashes = _novel_hashes(str(path), stamp, keep_doubled) if stamp is not None else None
    if hashes is None:
        found.missing += [{"chapter": s.chapter, "path": name} for _, s in chapters]
        return
    whole = True
    for position, source in chapters:
        if position > len(hashes):
            found.missing.append({"chapter": source.chapter, "path": name})
            whole = False
        elif hashes[position - 1] != source.text_hash:
            found.changed.append(
                Change(source.chapter, name, source.path, source.text_hash, hashes[position - 1])
            )
    last_position, last = chapters[-1]
    for position in range(last_position + 1, len(hashes) + 1):
        found.added.append({"path": name, "chapter": last.chapter + position - last_position})
        whole = False
    if whole and stamp is not None:
        found.whole[name] = stamp


def novel_chapters(path: Path, keep_doubled: bool) -> list[ImportedChapter]:
    """A novel's file cut into chapters as its import cut it (repeats set apart, unless it
    kept them)."""
    # the import's reading, loaded when a file is read (a fresh `fact` loads the CLI's commands)
    from ..ingest.doubled_headings import set_apart_doubles
    from ..ingest.text_import import read_chapters

    chapters, _, _ = read_chapters(path)
    return chapters if keep_doubled else set_apart_doubles(chapters)[0]


def folder_chapter(path: Path) -> ImportedChapter:
    from ..ingest.text_import import read_chapter_file

    return read_chapter_file(path)[0]


def _folder_file_hash(path: Path) -> str | None:
    stamp = file_stamp(path)
    return None if stamp is None else _folder_hash_as_it_stands(str(path), stamp)


@lru_cache(maxsize=8192)
def _folder_hash_as_it_stands(path: str, stamp: str) -> str | None:
    """Read again only when a file's size or time changed, in a process that asks often (a
    dashboard's overview)."""
    try:
        return text_hash(folder_chapter(Path(path)).text)
    except (OSError, InvalidInput):
        return None


@lru_cache(maxsize=4)
def _novel_hashes(path: str, stamp: str | None, keep_doubled: bool) -> tuple[str, ...] | None:
    try:
        return tuple(text_hash(c.text) for c in novel_chapters(Path(path), keep_doubled))
    except (OSError, InvalidInput):
        return None


def reimport(project: Project, found: Found) -> list[Retake]:
    """Each changed chapter's new text, as its file's import reads it: a chapter that stands on
    the import's own result gets the result a re-import makes of the new text; one a model, an
    agent or the author wrote keeps it and is marked stale (as `sync` does for a `--text`
    file; `kept_results`). Nothing is written here but the novel files then in step with the
    book, remembered as read; `kept_results.take_in` commits the texts."""
    from .importing import reimported_result

    retakes = []
    cut: dict[tuple[str, bool], list[ImportedChapter]] = {}
    for change in found.changed:
        place = place_of(change.source)
        stored = project.stored_commit(change.chapter)
        if place is None or stored is None:
            continue
        path = located(project, place.path)
        if path is None:  # `check` lists only the book's own files as changed
            continue
        try:
            if place.position is None:
                chapter = folder_chapter(path)
            else:
                at = (place.path, place.keep_doubled)
                if at not in cut:
                    cut[at] = novel_chapters(path, place.keep_doubled)
                chapter = cut[at][place.position - 1]
        except (OSError, InvalidInput, IndexError):
            continue  # changed again since it was read: `status` says so next time
        if import_made(stored["result"]):
            result = reimported_result(project, change.chapter, chapter)
            retakes.append(Retake(change.chapter, result, chapter.text, change.source, False))
        else:
            retakes.append(
                Retake(change.chapter, stored["result"], chapter.text, change.source, True)
            )
    return retakes


def remember_read(project: Project, found: Found) -> None:
    """The novel files in step with the book once their changes are in, remembered as read."""
    if found.whole:
        with project.storage.writing() as store:
            for name, stamp in found.whole.items():
                store.commits.set_meta(FILE_READ_KEY + name, stamp)
