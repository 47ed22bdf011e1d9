"""Commit cost against the length of the chain a chapter touches: one field of one character
updated every chapter, so by chapter N its chain holds N versions. Goal: a commit at chapter
10,000 within 1.5x of one at chapter 1,000 (the fold must not read the whole chain). Besides
wall time it counts the SQLite virtual-machine steps of each commit, which a busy machine does
not blur.

    python benchmarks/long_chain.py --chapters 10000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import webnovel

PLACES = ("青云宗", "天剑城", "落霞山", "乌坦城", "迦南学院")


STATUSES = ("健康", "受伤", "中毒", "闭关")


def result(chapter: int, field: str = "location") -> dict[str, object]:
    values = STATUSES if field == "status" else PLACES
    return {
        "chapter": chapter,
        "summary": f"第{chapter}章，林砚{values[chapter % len(values)]}。",
        "state_changes": [
            {"entity_id": "linyan", "field": field, "new": values[chapter % len(values)]},
            {"entity_id": "linyan", "field": "day", "new": chapter},
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chapters", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=100, help="commits timed per window")
    parser.add_argument(
        "--field",
        default="location",
        help="the field updated every chapter (status is read whole by the per-entity checks)",
    )
    args = parser.parse_args()
    marks = sorted({1_000, args.chapters} | ({5_000} if args.chapters > 5_000 else set()))
    timed: dict[int, list[float]] = {m: [] for m in marks}
    # Wall time on a shared machine is noisy; the SQLite instructions a commit runs are not.
    steps: dict[int, list[int]] = {m: [] for m in marks}
    counter = [0]

    def count() -> int:
        counter[0] += 1
        return 0

    with (
        tempfile.TemporaryDirectory() as tmp,
        webnovel.init_project(Path(tmp) / "book", title="长链") as book,
    ):
        book.commit({"chapter": 1, "entities_new": [{"id": "linyan", "name": "林砚"}]})
        book.storage.conn.set_progress_handler(count, 100)
        for chapter in range(2, args.chapters + 1):
            counter[0] = 0
            started = time.perf_counter()
            book.commit(result(chapter, args.field))
            elapsed = (time.perf_counter() - started) * 1000
            for mark in marks:
                if mark - args.window < chapter <= mark:
                    timed[mark].append(elapsed)
                    steps[mark].append(counter[0] * 100)
        history = len(book.history("linyan", args.field))
    base = statistics.median(timed[marks[0]])
    base_steps = statistics.median(steps[marks[0]])
    print(f"{args.field} updated every chapter ({history:,} versions by the end):")
    for mark in marks:
        median = statistics.median(timed[mark])
        work = statistics.median(steps[mark])
        print(
            f"  commits {mark - args.window + 1:>6,}–{mark:<6,} median {median:6.2f} ms"
            f" ({median / base:.2f}x), {work:,.0f} SQLite steps ({work / base_steps:.2f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
