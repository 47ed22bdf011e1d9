"""One extraction per book at a time: `.webnovel/extract.lock`, an OS lock held for a run.

Two `extract` runs over one book would each plan the same chapters and pay for each request
twice. The second run waits for the first (saying so), and only then plans: what the first
extracted is no longer planned, so nothing is asked twice. The lock is released when its
process ends, however it ends. The file is opened without following a link and must be a
regular file, as the book's other lock and log files (docs/security.md): a received book
cannot turn the pid written into it into a write elsewhere.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import InvalidInput

LOCK = "extract.lock"


@contextmanager
def extraction_lock(memory_dir: Path, waiting: Callable[[str], None]) -> Iterator[None]:
    """Hold the book's extraction lock while the block runs. When another process holds it,
    `waiting` is told (with that process's id) before this one waits its turn."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX: one run at a time is the user's
        yield
        return
    with os.fdopen(_open_lock(memory_dir / LOCK), "r+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting(handle.read(32).strip() or "?")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n")  # for a person, or the next run, to name it
            handle.flush()
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _open_lock(path: Path) -> int:
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    flags = os.O_RDWR | os.O_CREAT | nofollow | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and path.is_symlink():
            raise InvalidInput.of("extract_lock_not_a_file", path=path) from exc
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a pipe or a device: refused, not waited on
        os.close(fd)
        raise InvalidInput.of("extract_lock_not_a_file", path=path)
    return fd
