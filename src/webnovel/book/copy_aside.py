"""`webnovel copy` all or nothing: the copy is built aside and moved into place at the end.

The new book is made in a folder beside DEST, `.DEST.copying-PID`, and renamed to DEST (or its
`.webnovel` into an existing DEST) once it is whole: a copy that fails, is interrupted or killed
leaves no book at DEST, and running it again starts afresh. What a killed copy leaves is known
by its process number and cleared by the next copy to the same place once that process is gone:
- its folder aside (the folder's name holds the number);
- for a PostgreSQL destination, its book in the store's registry, which carries the mark
  `copy_unfinished` (`HOST:PID`) in its meta until the copy is finished. The mark goes in with
  the copied tables' transaction itself and comes out just before the folder is moved, so a book
  without the mark is a finished one, and is never taken away by another copy. The copy itself,
  interrupted before its one rename, takes its own book away, marked or not: it made it.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
from contextlib import suppress
from pathlib import Path

from ..errors import ProjectExists, ProjectNotFound
from ..memory.store.location import StoreLocation
from ..memory.store.storage import MEMORY_DIR
from ..messages import say
from .opening import holds_book
from .project import Project

UNFINISHED = "copy_unfinished"
ASIDE = ".{name}.copying-{pid}"


def refuse_a_book_at(dest: Path) -> None:
    """A copy never writes over a book, nor into a `.webnovel` folder that holds anything."""
    if dest.exists() and not dest.is_dir():  # said before anything is built for it
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(dest))
    memory_dir = dest / MEMORY_DIR
    if holds_book(memory_dir):
        raise ProjectExists(say("book_exists", root=dest, memory_dir=memory_dir))
    if memory_dir.is_dir() and any(memory_dir.iterdir()):
        raise ProjectExists(say("copy_dest_not_empty", memory_dir=memory_dir))


def folder_beside(dest: Path) -> Path:
    """A fresh folder beside `dest` to build the copy in; those of killed copies are removed."""
    parent = dest.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    name = dest.resolve().name
    for left in parent.glob(ASIDE.format(name=name, pid="*")):
        pid = left.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(left, ignore_errors=True)
    aside = parent / ASIDE.format(name=name, pid=os.getpid())
    shutil.rmtree(aside, ignore_errors=True)
    return aside


def move_into_place(aside: Path, dest: Path) -> None:
    """One rename: `dest` has no book, then a whole one."""
    if not dest.exists():
        os.rename(aside, dest)
        return
    os.rename(aside / MEMORY_DIR, dest / MEMORY_DIR)  # over nothing, or an empty folder
    shutil.rmtree(aside, ignore_errors=True)


def unfinished_mark() -> dict[str, str]:
    """The meta that marks a copy's new book in a store as not finished: written by the
    transaction that creates the book, carried by the one that fills it. A SQLite copy's
    folder aside is its mark."""
    return {UNFINISHED: f"{socket.gethostname()}:{os.getpid()}"}


def mark_finished(copy: Project) -> None:
    if copy.storage.location is not None:
        with copy.storage.writing() as store:
            store.commits.delete_meta(UNFINISHED)


def take_away(aside: Path, location: StoreLocation | None, mark: dict[str, str] | None) -> None:
    """A copy that failed or was interrupted: its book in the store, and its folder aside. With
    `mark`, the book goes only if it bears this copy's own mark (a book of that name made by
    anyone else stays); without, the book is this copy's for sure (it was made, and its mark may
    already be out: an interruption between `mark_finished` and the move)."""
    if location is not None:
        with suppress(Exception):  # the store gone too: the next copy clears it
            if mark is None or _mark_of(location) == mark.get(UNFINISHED):
                from ..memory.store.pg.pg_store import delete_book

                delete_book(location)
    shutil.rmtree(aside, ignore_errors=True)


def still_aside(aside: Path) -> bool:
    """The copy was not moved into place yet: its memory is still in the folder aside (from
    `init_project` until the one rename of `move_into_place`)."""
    return (aside / MEMORY_DIR).is_dir()


def _mark_of(location: StoreLocation) -> str | None:
    """The unfinished mark of the book at `location` (None: finished, or no such book)."""
    from ..memory.store.parts import StoreParts
    from ..memory.store.pg.pg_store import PostgresStore

    try:
        store = PostgresStore(location)
    except ProjectNotFound:
        return None
    try:
        return StoreParts(store.conn).commits.meta(UNFINISHED)
    finally:
        store.close()


def clear_unfinished_copy(location: StoreLocation) -> None:
    """Take away the book a killed copy on this machine left in the store (its mark names this
    host and a process that is gone); a finished book, or another machine's copy, stays."""
    from ..memory.store.pg.pg_store import delete_book

    mark = _mark_of(location)
    if mark is None:
        return
    host, _, pid = mark.rpartition(":")
    if host == socket.gethostname() and pid.isdigit() and not _alive(int(pid)):
        delete_book(location)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    # a zombie (killed, not yet reaped by its parent) is gone too
    with suppress(OSError), open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    return True
