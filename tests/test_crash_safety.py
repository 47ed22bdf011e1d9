"""A process killed with SIGKILL at random points during a commit leaves the book answering as
before or as after that commit, never in between."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import webnovel

from answers import book_answers

ENTITIES = [f"e{i}" for i in range(40)]
CHILD = """
import json, sys, webnovel
book = webnovel.open_project(sys.argv[1])
print("ready", flush=True)
book.commit(json.loads(sys.stdin.read()))
book.close()
print("done", flush=True)
"""


def base_result() -> dict[str, Any]:
    return {
        "chapter": 1,
        "entities_new": [
            {"id": e, "name": f"角色{e}", "current": {"location": "甲地", "realm": "炼气"}}
            for e in ENTITIES
        ],
    }


def heavy_result() -> dict[str, Any]:
    """A chapter big enough that its commit takes a while to kill in the middle of."""
    changes = []
    for round_ in range(40):
        for e in ENTITIES:
            changes.append({"entity_id": e, "field": "location", "new": f"地{round_}"})
            changes.append({"entity_id": e, "field": "items", "op": "add", "new": f"物{round_}"})
    return {
        "chapter": 2,
        "state_changes": changes,
        "relationships_new": [
            {"from": a, "to": b, "type": "朋友"}
            for a, b in zip(ENTITIES, ENTITIES[1:], strict=False)
        ],
    }


def answers(root: Path) -> dict[str, Any]:
    with webnovel.open_project(root) as book:
        return book_answers(book, ENTITIES[:10], ["location", "items", "realm"], [1, 2])


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_commit(tmp_path: Path) -> None:
    """Two kills in the README's test command (each costs a Python started and a heavy commit
    done twice; seed 1 kills early in the first commit and late in the second); .ci/run kills
    eight more."""
    kill_during_commits(tmp_path, attempts=2, seed=1)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_commit_thoroughly(tmp_path: Path) -> None:
    kill_during_commits(tmp_path, attempts=8, seed=2)


def kill_during_commits(tmp_path: Path, attempts: int, seed: int) -> None:
    after_root = tmp_path / "after"
    with webnovel.init_project(after_root, title="after") as book:
        book.commit(base_result())
        started = time.perf_counter()
        book.commit(heavy_result())
        commit_seconds = time.perf_counter() - started
    after = answers(after_root)
    rng = random.Random(seed)
    outcomes = {"before": 0, "after": 0}
    for attempt in range(attempts):
        root = tmp_path / f"book{attempt}"
        with webnovel.init_project(root, title="crash") as book:
            book.commit(base_result())
        before = answers(root)
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdin and child.stdout
        assert child.stdout.readline().strip() == "ready"
        child.stdin.write(json.dumps(heavy_result()))
        child.stdin.close()
        time.sleep(rng.uniform(0, commit_seconds * 1.2))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        now = answers(root)
        assert now in (before, after), f"attempt {attempt}: the book is between two states"
        outcomes["before" if now == before else "after"] += 1
        with webnovel.open_project(root) as book:  # and it still takes commits
            assert book.commit(heavy_result()).status in ("committed", "unchanged")
        assert answers(root) == after
    assert outcomes["before"] > 0
