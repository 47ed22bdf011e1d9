"""SQLite and PostgreSQL side by side, in one run, on the same generated saga: commit p50, pack
p95, as-of fact, search, and a fresh `webnovel fact` process (with the answers checked against
the saga's ground truth, as run.py does).

    export WEBNOVEL_BENCH_POSTGRES="$(.ci/postgres-start)"
    python benchmarks/store_speed.py --chapters 1000
    python benchmarks/store_speed.py --chapters 1000 --sqlite-only   # e.g. on an older checkout

Without --sqlite-only and without WEBNOVEL_BENCH_POSTGRES it refuses to run: the point is the
comparison. The PostgreSQL book is dropped afterwards.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from run import bench_cli, bench_packs, bench_queries, bench_search, summary  # noqa: E402

from saga import Saga, generate_saga  # noqa: E402


def bench_store(saga: Saga, folder: Path, store: str | None, seed: int) -> dict[str, Any]:
    name = f"bench-{uuid.uuid4().hex[:8]}" if store else None
    extra = {"store": store, "book": name} if store else {}
    book = webnovel.init_project(folder, title="bench", **extra)
    commits = []
    for result, text in zip(saga.results, saga.texts, strict=True):
        started = time.perf_counter()
        book.commit(result, text=text)
        commits.append((time.perf_counter() - started) * 1000)
    book.flush()
    rng = random.Random(seed)
    last = commits[-min(200, len(commits)) :]
    out: dict[str, Any] = {
        "commit_all": summary(commits),
        "commit_last_200": summary(last),
        **bench_queries(book, saga, rng),
        "pack": bench_packs(book, saga, rng, 20),
        "search": bench_search(book, saga, rng, 20),
        "sizes_mb": {k: round(v / 2**20, 2) for k, v in book.storage.sizes().items()},
    }
    book.close()
    out["cli_fact_cold_start"] = bench_cli(folder, 5)
    if store and name:
        from webnovel.book.stores import delete_book

        delete_book(store, name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--text-chars", type=int, default=600)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here too")
    args = parser.parse_args()
    store = None if args.sqlite_only else os.environ.get("WEBNOVEL_BENCH_POSTGRES")
    if not args.sqlite_only and not store:
        sys.exit("set WEBNOVEL_BENCH_POSTGRES to a postgresql:// URL, or pass --sqlite-only")
    saga = generate_saga(args.chapters, seed=args.seed, text_chars=args.text_chars)
    gc.collect()
    gc.freeze()
    workdir = Path(tempfile.mkdtemp(prefix="webnovel-stores-"))
    results: dict[str, Any] = {"chapters": args.chapters}
    try:
        results["sqlite"] = bench_store(saga, workdir / "sqlite", None, args.seed)
        if store:
            results["postgresql"] = bench_store(saga, workdir / "pg", store, args.seed)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.out:
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    print(table(results))


ROWS = [
    ("commit p50 (all chapters)", lambda r: r["commit_all"]["p50_ms"]),
    ("commit p50 (last 200)", lambda r: r["commit_last_200"]["p50_ms"]),
    ("pack chapter_write p95", lambda r: r["pack"]["chapter_write"]["p95_ms"]),
    ("pack next chapter p95", lambda r: r["pack"]["next_chapter"]["p95_ms"]),
    ("as-of fact p50", lambda r: r["fact_as_of"]["p50_ms"]),
    ("as-of fact p95", lambda r: r["fact_as_of"]["p95_ms"]),
    ("search p95", lambda r: r["search"].get("p95_ms", r["search"].get("query", {}).get("p95_ms"))),
    ("`webnovel fact` fresh process p50", lambda r: r["cli_fact_cold_start"]["p50_ms"]),
    ("answers checked / wrong", lambda r: "{checked} / {wrong}".format(**r["correctness"])),
]


def table(results: dict[str, Any]) -> str:
    stores = [s for s in ("sqlite", "postgresql") if s in results]
    lines = [
        f"{results['chapters']} chapters, ms",
        "",
        "| measure | " + " | ".join(stores) + (" | ratio |" if len(stores) == 2 else " |"),
        "| --- | "
        + " | ".join("---:" for _ in stores)
        + (" | ---: |" if len(stores) == 2 else " |"),
    ]
    for label, pick in ROWS:
        cells = [pick(results[s]) for s in stores]
        ratio = ""
        if len(cells) == 2 and all(isinstance(c, int | float) and c for c in cells):
            ratio = f" | {cells[1] / cells[0]:.1f}×"
        elif len(cells) == 2:
            ratio = " | "
        lines.append(f"| {label} | " + " | ".join(str(c) for c in cells) + ratio + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
