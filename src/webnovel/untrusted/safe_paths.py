"""Paths a book controls are opened only where they lead inside the book.

A book folder can come from a stranger (docs/security.md). A symbolic link inside it would make
the program read a file from elsewhere into a pack (an outline linked to a key file) or write
into one (a lock file linked to the author's notes, an index linked to another database). So:

- `.webnovel/` and everything in it may be no link at all: checked when a book is opened,
  before SQLite or the config reader open anything (`refuse_links_in_memory`);
- a file found by a convention (`outlines/NNN.md`) or by listing a folder (`commit --text-dir
  DIR`) is read only when no part of its path below that folder is a link
  (`refuse_link_below`);
- lock and log files are opened without following a link and must be regular files
  (`open_regular`): a link made after the book was opened is refused too, and a pipe left in
  the folder cannot make a write wait forever.

Paths a person typed on the command line are theirs to choose and are not checked.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..errors import LinkRefused
from ..messages import say

SHOWN_LINKS = 3  # a refusal names this many links; a folder full of them is counted
_DEPTH = 2  # `.webnovel/` holds files and one level of folders (lexicon/)


def refuse_links_in_memory(memory_dir: Path) -> None:
    """Refuse a book whose `.webnovel/` is a link, or holds one (its own files, and those of the
    folders in it), naming each link and where it points; or holds what is neither a file nor
    a folder (a pipe would make the first read of it wait forever). A folder not made yet
    passes."""
    if memory_dir.is_symlink():
        raise _refusal([memory_dir])
    links, odd = _links_under(memory_dir, _DEPTH)
    if links:
        raise _refusal(links)
    if odd:
        raise LinkRefused.of("not_a_regular_file", path=odd[0])


def refuse_link_below(folder: Path, path: Path) -> None:
    """Refuse `path` when a part of it below `folder` is a link (a link `folder/outlines`, or
    `folder/outlines/002.md`). `folder` itself is not looked at: the person chose it. Parts
    that do not exist end the walk: there is nothing to follow."""
    step = folder
    for part in path.relative_to(folder).parts:
        step = step / part
        try:
            mode = step.lstat().st_mode
        except OSError:
            return
        if stat.S_ISLNK(mode):
            raise _refusal([step])


def open_regular(path: Path, flags: int, mode: int = 0o644) -> int:
    """A descriptor on `path` opened with `flags`, never through a link, and only when what it
    opened is a regular file. Non-blocking, so a pipe in its place is refused, not waited on
    (a regular file ignores the flag)."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)  # not on Windows, where books hold no links
    try:
        fd = os.open(
            path,
            flags | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0),
            mode,
        )
    except OSError as exc:
        # Linux and macOS answer ELOOP for a final link; FreeBSD answers EMLINK
        if exc.errno in (errno.ELOOP, errno.EMLINK) and path.is_symlink():
            raise _refusal([path]) from exc
        if exc.errno in (errno.ENXIO, errno.EISDIR):  # a pipe no one reads; a folder
            raise LinkRefused.of("not_a_regular_file", path=path) from exc
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LinkRefused.of("not_a_regular_file", path=path)
    return fd


def _links_under(folder: Path, depth: int) -> tuple[list[Path], list[Path]]:
    """The links in `folder` and, `depth` levels down, in its folders (never followed); and
    what there is neither a link, a file nor a folder (a pipe, a socket, a device)."""
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return [], []
    links: list[Path] = []
    odd: list[Path] = []
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.is_symlink():
            links.append(Path(entry.path))
        elif entry.is_dir(follow_symlinks=False):
            if depth > 1:
                more_links, more_odd = _links_under(Path(entry.path), depth - 1)
                links += more_links
                odd += more_odd
        elif not entry.is_file(follow_symlinks=False):
            odd.append(Path(entry.path))
    return links, odd


def _refusal(links: list[Path]) -> LinkRefused:
    named = say("argument_list_separator").join(
        say("link_and_target", link=link, target=_target(link)) for link in links[:SHOWN_LINKS]
    )
    more = say("links_more", count=len(links)) if len(links) > SHOWN_LINKS else ""
    return LinkRefused.of("link_refused", named=named, more=more)


def _target(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"
