"""What `rebuild` costs once a book holds many open conflicts: a master dies in chapter 3 and
an agent's result has him present in every later chapter (one 死者行动 conflict each), beside
the same book with no death. The trial's 2,000-chapter book went from 4 s to 243–360 s.

    python benchmarks/conflict_rebuild.py --chapters 1000 [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

import webnovel


def results(chapters: int, death: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(1, chapters + 1):
        result: dict[str, Any] = {
            "chapter": n,
            "summary": f"第{n}章，陆青云练剑，白眉真人在旁指点。",
            "entities_appeared": [{"id": "bm"}, {"id": "lu"}],
        }
        if n == 1:
            result["entities_new"] = [
                {"id": "lu", "name": "陆青云", "type": "角色"},
                {"id": "bm", "name": "白眉真人", "type": "角色"},
            ]
        if n == 3 and death:
            result["state_changes"] = [{"entity_id": "bm", "field": "status", "new": "死亡"}]
        out.append(result)
    return out


def timed_rebuild(root: Path, chapters: int, death: bool, profile: bool) -> tuple[float, int]:
    with webnovel.init_project(root, title="青冥剑歌") as book:
        for result in results(chapters, death):
            book.commit(result)
        conflicts = len(book.conflicts())
        profiler = cProfile.Profile() if profile else None
        started = time.perf_counter()
        if profiler:
            profiler.enable()
        book.rebuild()
        if profiler:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return time.perf_counter() - started, conflicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=1000)
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the rebuild with the death"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for death in (False, True):
            root = Path(folder) / ("death" if death else "alive")
            elapsed, conflicts = timed_rebuild(root, args.chapters, death, args.profile and death)
            print(
                f"rebuild of {args.chapters} chapters, {conflicts:>5} open conflicts: "
                f"{elapsed:7.2f} s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
