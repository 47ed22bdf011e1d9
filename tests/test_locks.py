"""Writers wait their turn: a commit made while another process holds the book's write lock (as
a long rebuild does) waits and then succeeds; past the limit it is a clear `BookBusy` error."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

import webnovel
from webnovel.memory.store import index_store

HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")  # what a rebuild holds for its whole run
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
sys.stdin.readline()  # and then until told to let go (or its stdin closes)
conn.execute("COMMIT")
"""


def hold_lock(root: Path, seconds: float) -> subprocess.Popen[str]:
    """A process holding the book's write lock for at least `seconds`, then until its stdin
    says (`release`), so no test waits longer than it must."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root / ".webnovel" / "index.db"), str(seconds)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    return holder


def release(holder: subprocess.Popen[str]) -> None:
    assert holder.stdin is not None
    holder.stdin.close()
    holder.wait(timeout=10)


def test_a_commit_during_a_long_write_waits_and_succeeds(tmp_path: Path) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    holder = hold_lock(root, 0.5)
    assert holder.stdin is not None
    holder.stdin.close()  # it lets go after half a second
    started = time.monotonic()
    with webnovel.open_project(root) as book:
        report = book.commit({"chapter": 1, "summary": "等到了锁"})
    assert report.status == "committed" and time.monotonic() - started >= 0.3
    holder.wait(timeout=10)


def test_past_the_limit_a_writer_says_the_book_is_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    monkeypatch.setattr(index_store, "WAIT_FOR_LOCK_SECONDS", 0.5)
    holder = hold_lock(root, 0)
    try:
        with webnovel.open_project(root) as book:
            with pytest.raises(webnovel.BookBusy, match="正忙：另一个进程"):
                book.commit({"chapter": 1, "summary": "等不到"})
            assert book.latest_chapter() is None
    finally:
        release(holder)


def test_the_cli_says_it_is_waiting(tmp_path: Path) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    # Held until the CLI says it is waiting, however slowly its Python starts.
    holder = hold_lock(root, 0)
    proc = subprocess.Popen(
        [sys.executable, "-m", "webnovel", "--project", str(root), "commit", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write('{"chapter": 1, "summary": "等锁"}')
    proc.stdin.close()
    said = proc.stderr.readline()
    release(holder)
    said += proc.stderr.read()
    assert proc.wait(timeout=60) == 0, said
    assert "等待另一个进程" in said and "写锁" in said
