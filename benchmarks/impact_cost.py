"""What asking for a revision's impact costs: chapter N of a generated saga revised four ways
(a death, a realm, a relation ended, a thread resolved early), each asked `Project.impact`
several times (the median is reported), and the same revision committed for real beside it.
The goal: at most 2 s for chapter 100 of a 2,000-chapter book.

    python benchmarks/impact_cost.py --chapters 2000 --chapter 100
"""

from __future__ import annotations

import argparse
import copy
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import webnovel

from saga import Saga, generate_saga

GOAL_SECONDS = 2.0


def revisions(saga: Saga, chapter: int) -> dict[str, dict[str, Any]]:
    """Chapter `chapter` revised four ways, each on the saga's own result."""
    result = saga.results[chapter - 1]
    seen: dict[str, int] = {}
    for later in saga.results[chapter:]:
        for appeared in later.get("entities_appeared", []):
            seen[appeared["id"]] = seen.get(appeared["id"], 0) + 1
    alive = [e for e in seen if saga.truth.fact(e, "status", chapter) == "存活"]
    victim = max(alive, key=lambda e: seen[e])
    kill = copy.deepcopy(result)
    kill["state_changes"].append({"entity_id": victim, "field": "status", "new": "死亡"})
    realm = copy.deepcopy(result)
    realm["state_changes"].append({"entity_id": victim, "field": "realm", "new": "渡劫"})
    relation = copy.deepcopy(result)
    edges = sorted(r for e in sorted(saga.truth.names) for r in saga.truth.relations_of(e, chapter))
    source, target, kind = edges[0]
    relation["relationships_new"].append(
        {"from": source, "to": target, "type": kind, "action": "end"}
    )
    thread = copy.deepcopy(result)
    open_then = sorted(
        t for t in saga.truth.threads if saga.truth.thread_status(t, chapter) == "open"
    )
    thread["plot_threads"].append({"id": open_then[0], "action": "resolve", "content": "提前回收"})
    return {"death": kill, "realm": realm, "relation ended": relation, "thread early": thread}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=2000)
    parser.add_argument("--chapter", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    saga = generate_saga(args.chapters, seed=args.seed)
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "book"
        with webnovel.init_project(root, title="saga") as book:
            for result in saga.results:
                book.commit(result)
            print(f"{args.chapters} chapters committed; revising chapter {args.chapter}")
            for name, revision in revisions(saga, args.chapter).items():
                timings = []
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    found = book.impact(revision)
                    timings.append(time.perf_counter() - started)
                median = statistics.median(timings)
                worst = max(worst, median)
                started = time.perf_counter()
                with book.storage.index.trial():  # the commit alone, for comparison
                    book.pipeline.commit(revision)
                commit = time.perf_counter() - started
                print(
                    f"{name:>15}: impact {median * 1000:7.0f} ms (commit alone {commit * 1000:5.0f}"
                    f" ms); {len(found.changed)} answers change, "
                    f"{len(found.conflicts_added)} conflicts added, "
                    f"{len(found.chapters)} later chapters"
                )
    verdict = "within" if worst <= GOAL_SECONDS else "OVER"
    print(f"worst median {worst:.2f} s: {verdict} the {GOAL_SECONDS:.0f} s goal")
    return 0 if worst <= GOAL_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
