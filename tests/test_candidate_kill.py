"""`candidates accept` and `candidates undo` killed part way (SIGKILL, SIGTERM, SIGHUP) leave the
old book or the decided one, never a half-rewritten book with no decision to undo it by
(review 3: SIGTERM after 2 s left 521 of 800 chapters rewritten, then 「没有可撤销的确认」 and
「已是实体…无需再接受」). Every chapter and the decision are one transaction; SIGTERM and SIGHUP
are taken like Ctrl-C. Real `webnovel` processes, killed at random moments of their run."""

from __future__ import annotations

import json
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

from cli_runner import run_cli

CHAPTERS = 150  # each naming 沈青: an accept rewrites them all, for a second or two
NAME = "沈青"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    source = tmp_path / "book.txt"
    source.write_text(
        "\n".join(
            f"第{n}章 夜行{n}\n\n沈青推门而入，灯火摇曳。韩啸抬头道：“你来迟了。”沈青笑道：“路上有雨。”"
            + "窗外风声渐紧，远处几声犬吠。" * 6
            + "\n"
            for n in range(1, CHAPTERS + 1)
        ),
        encoding="utf-8",
    )
    root = tmp_path / "book"
    with webnovel.init_project(root, title="夜行") as made:
        made.import_text(source)
    return root


def state(root: Path) -> dict[str, Any]:
    """What the book answers: each chapter's commit, the entities, the author's decisions."""
    with webnovel.open_project(root) as opened:
        return {
            "commits": [row["commit_id"] for row in opened.chapters()],
            "entities": sorted(e.id for e in opened.entities()),
            "decisions": json.loads(opened.store.commits.meta("author_decisions") or "[]"),
        }


def command(root: Path, action: str) -> list[str]:
    return [sys.executable, "-m", "webnovel", "--project", str(root), "candidates", action, NAME]


def killed(root: Path, action: str, signame: str, after: float) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    child = subprocess.Popen(
        command(root, action), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    time.sleep(after)
    child.send_signal(getattr(signal, signame))
    _, err = child.communicate(timeout=120)
    assert "Traceback" not in err, err
    if signame != "SIGKILL" and child.returncode != 0:  # taken like Ctrl-C, and said
        # 130 or the end by SIGINT as after Ctrl-C (or the signal's own, before the command began)
        assert child.returncode in (130, -signal.SIGINT, -getattr(signal, signame)), err


def test_a_killed_accept_or_undo_leaves_the_old_book_or_the_decided_one(
    book: Path, tmp_path: Path
) -> None:
    before = state(book)
    decided_copy = tmp_path / "decided"
    shutil.copytree(book, decided_copy)
    started = time.perf_counter()
    ran = subprocess.run(command(decided_copy, "accept"), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    assert ran.returncode == 0, ran.stderr
    decided = state(decided_copy)
    assert decided["commits"] != before["commits"] and NAME in decided["entities"]
    rng = random.Random(7)
    interrupted = 0  # kills that landed before the work was done
    for attempt, (action, signame) in enumerate(
        [("accept", "SIGKILL"), ("accept", "SIGTERM"), ("accept", "SIGHUP"), ("undo", "SIGTERM")]
        + [("undo", "SIGKILL")]
    ):
        root = tmp_path / f"{attempt}-{action}-{signame}"
        shutil.copytree(decided_copy if action == "undo" else book, root)
        killed(root, action, signame, rng.uniform(0.5, 0.95) * seconds)
        now = state(root)
        assert now in (before, decided), (action, signame)  # never a half book
        interrupted += now == (before if action == "accept" else decided)
        # and from there, the decision is made or taken back as if nothing had happened
        if now == before and action == "accept" or now == decided and action == "undo":
            again = run_cli("--project", str(root), "candidates", action, NAME)
            assert again.returncode == 0, again.stderr
        assert state(root) == (decided if action == "accept" else before)
        if action == "accept":  # the decision is there to be undone
            undone = run_cli("--project", str(root), "candidates", "undo", NAME)
            assert undone.returncode == 0, undone.stderr
            assert state(root) == before
    assert interrupted > 0  # the kills were not all too late to test anything
