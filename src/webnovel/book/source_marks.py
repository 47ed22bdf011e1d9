"""How the book remembers where a chapter's text lives (`commits.text_source`): a file committed
with `--text` by its name; a chapter `import text` brought in by its file and a mark, a folder's
chapter file as `chapters/0002.md#import`, a chapter of a novel's one file as
`novel.txt#import:7` (the 7th chapter the import cut from it). Names are relative to the book's
folder when inside it (the folder may move), else absolute."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class _Rooted(Protocol):
    @property
    def root(self) -> Path: ...


def source_name(project: _Rooted, path: Path) -> str:
    """How a text's file is remembered: relative to the book's folder when inside it (the
    folder may move), else absolute."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(project.root.resolve()).as_posix()
    except ValueError:
        return str(resolved)


def located(project: _Rooted, name: str) -> Path | None:
    """The file a remembered text source names, when it lies inside the book's folder (a link
    followed to where it leads); None when it leads outside. The sources are the book's own
    records, so a received book's could name any file: `status` and `sync` read only the
    book's own (docs/security.md)."""
    path = Path(name)
    path = path if path.is_absolute() else project.root / path
    try:
        path.resolve().relative_to(project.root.resolve())
    except (ValueError, OSError):
        return None
    return path


IMPORTED = "#import"  # a folder's chapter file: chapters/0002.md#import
# a chapter of a whole novel's file: novel.txt#import:7 (the 7th chapter the import cut from it)
FILE_READ_KEY = "text_file_read:"  # meta: a novel file's size and modification time, read in full


KEEPING_DOUBLES = "+doubles"  # novel.txt#import+doubles:7: imported with its repeats kept


@dataclass(frozen=True)
class Place:
    """An imported chapter's file, its place in it (None: the file is the chapter), and whether
    the import kept a novel's repeated chapters (`--keep-doubled`)."""

    path: str
    position: int | None
    keep_doubled: bool = False


def folder_file(name: str) -> str:
    return name + IMPORTED


def novel_chapter(name: str, position: int, keep_doubled: bool) -> str:
    return f"{name}{IMPORTED}{KEEPING_DOUBLES if keep_doubled else ''}:{position}"


def place_of(source: str) -> Place | None:
    """The imported file a remembered source names; None for a file committed with `--text`."""
    path, mark, rest = source.rpartition(IMPORTED)
    if not mark or not path:
        return None
    if not rest:
        return Place(path, None)
    keep_doubled = rest.startswith(KEEPING_DOUBLES)
    rest = rest.removeprefix(KEEPING_DOUBLES)
    if rest.startswith(":") and rest[1:].isdigit():
        return Place(path, int(rest[1:]), keep_doubled)
    return None


def file_stamp(path: Path) -> str | None:
    """A file's size and modification time, as the book remembers them; None: not there."""
    try:
        found = path.stat()
    except OSError:
        return None
    return json.dumps([found.st_size, found.st_mtime_ns])
