"""Candidate names on a classical novel with a known cast: how many of its people the list
finds, and how much of the list is people.

    python benchmarks/candidate_quality.py

The novel is 《水浒传》 (Shi Nai'an, 14th century, public domain; the edition shipped compressed
in benchmarks/data/shuihu.txt.gz), given with no cast, as an author importing it would. Recall:
of the 36 天罡 of benchmarks/data/shuihu_cast.toml, those the list holds (names seen at least 3
times, top 150). Precision: of the top 100, those in the cast file's longer list; the others are
printed, for a person to judge (the longer list is not complete).
"""

from __future__ import annotations

import gzip
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webnovel.ingest.name_finder import candidate_names  # noqa: E402
from webnovel.ingest.text_import import split_chapters  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


def main() -> int:
    cast = tomllib.loads((DATA / "shuihu_cast.toml").read_text(encoding="utf-8"))
    tiangang, people = cast["tiangang"], {*cast["tiangang"], *cast["others"]}
    text = gzip.decompress((DATA / "shuihu.txt.gz").read_bytes()).decode("utf-8")
    chapters, _ = split_chapters(text)
    started = time.perf_counter()
    found = candidate_names(
        ((i, c.text) for i, c in enumerate(chapters, start=1)), [], min_count=3, limit=150
    )
    seconds = time.perf_counter() - started
    names = [c.name for c in found]
    recalled = [n for n in tiangang if n in names]
    top = names[:100]
    listed = [n for n in top if n in people]
    print(
        f"《水浒传》 {len(chapters)} 回, {len(text):,} characters, no cast, {seconds:.1f} s: "
        f"天罡 found {len(recalled)} of {len(tiangang)}; of the top 100, {len(listed)} in the cast "
        f"list"
    )
    print("天罡 missed:", " ".join(n for n in tiangang if n not in names) or "none")
    print("top 100 not in the cast list:", " ".join(n for n in top if n not in people) or "none")
    return 0 if len(recalled) >= 30 else 1


if __name__ == "__main__":
    raise SystemExit(main())
