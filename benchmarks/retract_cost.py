"""What a retraction costs: a chapter that introduced no one re-applies nothing; one that
introduced entities re-applies the later chapters that referred to them (their references may
now name an unknown entity), and replays their chains once. Each retraction runs on a fresh
copy of the same generated saga; a rebuild of the whole saga is the yardstick.

    python benchmarks/retract_cost.py --chapters 300
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import webnovel
from webnovel.memory.store import entity_ops

from saga import generate_saga


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    saga = generate_saga(args.chapters, seed=args.seed)
    with tempfile.TemporaryDirectory() as folder:
        whole = Path(folder) / "whole"
        with webnovel.init_project(whole, title="t") as book:
            for result in saga.results:
                book.commit(result)
        last = args.chapters
        for chapter in sorted({1, last // 3, last // 2, last - 1}):
            root = Path(folder) / f"retract{chapter}"
            shutil.copytree(whole, root)
            with webnovel.open_project(root) as book:
                conn = book.storage.conn
                introduced = entity_ops.introduced_in(conn, [chapter]).get(chapter, set())
                later = entity_ops.chapters_referring_to(conn, introduced, chapter)
                started = time.perf_counter()
                book.retract(chapter)
                elapsed = time.perf_counter() - started
            print(
                f"retract {chapter:>5}: introduced {len(introduced)}, "
                f"later chapters re-applied {len(later):>4}, {elapsed * 1000:8.0f} ms"
            )
        with webnovel.open_project(whole) as book:
            started = time.perf_counter()
            book.rebuild()
            print(f"rebuild of {last} chapters: {(time.perf_counter() - started) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
