"""A long fuzz run of chapter results through the Python API (the suite runs 320 cases; this runs
thousands): each mutated sample result must commit, or be refused with InvalidChapterResult and
store nothing. Prints the counts; anything else is counted as a traceback and shown.

    python benchmarks/fuzz.py --cases 5000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]

from hypothesis import HealthCheck, given, settings  # noqa: E402

import webnovel  # noqa: E402
from test_fuzz_results import SAMPLES, mutated_results  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=5000)
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        book = webnovel.init_project(Path(folder) / "b", title="fuzz", genre="仙侠")
        for result in SAMPLES:
            book.commit(result)

        @settings(
            max_examples=args.cases,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(result=mutated_results())
        def one(result: object) -> None:
            before = book.storage.conn.execute("SELECT COUNT(*) FROM commits").fetchone()[0]
            try:
                report = book.commit(result)
                book.flush()
                if report.status == "committed":
                    book.retract(report.chapter)
                counts[report.status] += 1
            except webnovel.InvalidChapterResult:
                after = book.storage.conn.execute("SELECT COUNT(*) FROM commits").fetchone()[0]
                counts["refused, nothing stored" if after == before else "refused, but stored"] += 1
            except Exception:  # noqa: BLE001 - counting what must never happen
                counts["traceback"] += 1
                failures.append(traceback.format_exc(limit=3))

        one()
        book.close()
    total = sum(counts.values())
    print(f"{total:,} cases: " + ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())))
    for failure in failures[:3]:
        print(failure)
    return 1 if counts["traceback"] or counts["refused, but stored"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
