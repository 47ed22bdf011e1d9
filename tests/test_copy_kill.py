"""`webnovel copy` killed part way (SIGKILL, SIGTERM, SIGHUP) leaves no book at DEST, and
running it again makes the whole copy (issue 42: after 16 of 19 kills the rerun refused,
「…已经有一本书」, because the folder and the store's registry entry remained; issue 43: SIGTERM
and SIGHUP too). A real `webnovel copy` process, killed at random moments of its run."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import webnovel

from stores import BACKENDS, POSTGRES_URL, _made, book_name

SIGNALS = [("SIGKILL", 3), ("SIGTERM", 1), ("SIGHUP", 1)]


def copy_command(source: Path, dest: Path, backend: str, name: str) -> list[str]:
    store = ["--store", str(POSTGRES_URL), "--book", name] if backend == "postgresql" else []
    return [sys.executable, "-m", "webnovel", "--project", str(source), "copy", str(dest), *store]


def answers(root: Path) -> dict[str, Any]:
    with webnovel.open_project(root) as book:
        stats = book.stats().to_dict()
        return {
            "counts": stats["counts"],
            "latest": book.latest_chapter(),
            "conflicts": len(book.conflicts()),
        }


def leftovers(dest: Path) -> list[str]:
    return sorted(p.name for p in dest.parent.glob(f".{dest.name}.copying-*"))


def registered(name: str) -> bool:
    from webnovel.book.stores import list_books

    return bool(list_books(str(POSTGRES_URL), only=name))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_killed_copy_leaves_no_book_and_runs_again(
    backend: str, saga_book: webnovel.Project, tmp_path: Path
) -> None:
    # the children read a folder of this test's own: the session's saga stays open for others
    source = tmp_path / "source"
    shutil.copytree(saga_book.root, source)
    expected = answers(source)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    started = time.perf_counter()
    first = tmp_path / "whole"
    whole_name = book_name()
    _made.append(whole_name)
    ran = subprocess.run(
        copy_command(source, first, backend, whole_name), capture_output=True, text=True, env=env
    )
    assert ran.returncode == 0, ran.stderr
    seconds = time.perf_counter() - started
    assert answers(first) == expected
    rng = random.Random(42)
    outcomes = {"none": 0, "whole": 0}
    for signame, attempts in SIGNALS:
        for attempt in range(attempts):
            dest = tmp_path / f"{signame}-{attempt}"
            name = book_name()
            _made.append(name)
            child = subprocess.Popen(
                copy_command(source, dest, backend, name),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            time.sleep(rng.uniform(0.3, 1.0) * seconds)
            child.send_signal(getattr(signal, signame))
            _, err = child.communicate(timeout=120)
            assert "Traceback" not in err, err
            if (dest / ".webnovel").exists():  # it had finished: then it is whole
                assert answers(dest) == expected
                outcomes["whole"] += 1
                continue
            outcomes["none"] += 1
            if signame != "SIGKILL":  # taken like Ctrl-C: what it made is taken away
                # 130 as after Ctrl-C (or the signal's own end, before the command began)
                assert child.returncode in (130, -signal.SIGINT, -getattr(signal, signame)), err
                assert leftovers(dest) == []
                if backend == "postgresql":
                    assert not registered(name)
            again = subprocess.run(
                copy_command(source, dest, backend, name), capture_output=True, text=True, env=env
            )
            assert again.returncode == 0, (signame, attempt, again.stderr)
            assert answers(dest) == expected
            assert leftovers(dest) == []  # a killed copy's folder aside is cleared
    assert outcomes["none"] > 0, outcomes


@pytest.mark.skipif(POSTGRES_URL is None, reason="the window is a PostgreSQL book's")
@pytest.mark.parametrize("dest_exists", [False, True])
def test_interrupted_between_the_mark_and_the_move_takes_its_book_away(
    saga_book: webnovel.Project,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    dest_exists: bool,
) -> None:
    """The one window the random kills found once (a CI run): Ctrl-C, SIGTERM or SIGHUP
    landing after the copy's mark came out of its book and before the folder's one rename.
    The book had no mark, so it was taken for another's and left registered, with no folder."""
    from webnovel.book import copy_aside
    from webnovel.book.stores import copy_book

    def interrupted(aside: Path, dest: Path) -> None:
        raise KeyboardInterrupt

    dest = tmp_path / "dest"
    if dest_exists:
        dest.mkdir()
    name = book_name()
    _made.append(name)
    monkeypatch.setattr(copy_aside, "move_into_place", interrupted)
    with pytest.raises(KeyboardInterrupt):
        copy_book(saga_book, dest, store=str(POSTGRES_URL), book=name)
    assert not registered(name)
    assert leftovers(dest) == []
    assert not (dest / ".webnovel").exists()
    monkeypatch.undo()
    copy_book(saga_book, dest, store=str(POSTGRES_URL), book=name)  # and again: whole
    assert answers(dest) == answers(saga_book.root)


@pytest.mark.skipif(POSTGRES_URL is None, reason="a PostgreSQL book's")
def test_interrupted_after_the_move_leaves_the_whole_book(
    saga_book: webnovel.Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the rename the copy is whole at DEST: an interruption then (clearing the folder
    aside) must not take its book out from under it."""
    from webnovel.book import copy_aside
    from webnovel.book.stores import copy_book

    moved = copy_aside.move_into_place

    def moved_then_interrupted(aside: Path, dest: Path) -> None:
        moved(aside, dest)
        raise KeyboardInterrupt

    dest = tmp_path / "dest"
    name = book_name()
    _made.append(name)
    monkeypatch.setattr(copy_aside, "move_into_place", moved_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        copy_book(saga_book, dest, store=str(POSTGRES_URL), book=name)
    assert registered(name)
    assert leftovers(dest) == []
    assert answers(dest) == answers(saga_book.root)
