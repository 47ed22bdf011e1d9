"""The first search after a long run of commits through the Python API (issue 42): it used to
index every chapter committed since the index last caught up, silently (55 s after 10,000
commits). Commits now keep the index within SEARCH_BEHIND_AT_MOST chapters of the book.

    python benchmarks/api_first_search.py --chapters 2000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402

from saga import generate_saga  # noqa: E402


def measure(chapters: int) -> dict[str, float]:
    saga = generate_saga(chapters, seed=11)
    with (
        tempfile.TemporaryDirectory() as folder,
        webnovel.init_project(Path(folder) / "book", title="saga") as book,
    ):
        started = time.perf_counter()
        for result in saga.results:
            book.commit(result)
        committed = time.perf_counter() - started
        pending = book.search_pending()
        started = time.perf_counter()
        book.search("林砚", 5)
        first = time.perf_counter() - started
    return {
        "commits_s": round(committed, 1),
        "pending_after": pending,
        "first_search_s": round(first, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=2000)
    args = parser.parse_args()
    print(args.chapters, measure(args.chapters))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
