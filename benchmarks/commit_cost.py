"""What a commit costs on PostgreSQL against SQLite, on two workloads, with what it sends.

    export WEBNOVEL_BENCH_POSTGRES="$(.ci/postgres-start)"
    python benchmarks/commit_cost.py [--chapters 300] [--warm 100]

Two workloads of the same seeded saga: its small chapters (600 characters of text, what
store_speed.py and store_profile.py commit) and the developers' larger ones (3,000 characters,
what run.py commits). For each, `--warm` chapters are committed into a SQLite book and a
PostgreSQL book, then the next `--chapters` are committed into both taking turns (who goes
first alternates: on a shared machine the load swings more than the difference measured), and
timed: wall p50, the client's CPU (time.process_time) and the PostgreSQL backend's CPU (read
from /proc: the server runs on this machine), means per commit. For the PostgreSQL book,
per commit: statements (reads, which wait for their answer unless sent together with others
before any is read; writes and batch writes, which do not wait in the pipeline), and the
messages after which the client reads the server's answer (libpq's Sync and Flush, from its
protocol trace): an upper bound on round trips, since reads sent together are flushed once
each but answered at once.
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from store_profile import Counts, counting  # noqa: E402
from store_speed import commit_both  # noqa: E402

from saga import generate_saga  # noqa: E402

WORKLOADS = {"small chapters (600 characters)": 600, "larger chapters (3,000)": 3000}


def _traced(book: webnovel.Project, pairs: list[tuple[Any, Any]], folder: Path) -> dict[str, float]:
    """Commit `pairs` into the PostgreSQL `book` with libpq's trace on: Sync and Flush sent."""
    raw = book.storage.index.pg.raw  # type: ignore[attr-defined]
    path = folder / "trace"
    sent: collections.Counter[str] = collections.Counter()
    with open(path, "w") as trace:
        raw.pgconn.trace(trace.fileno())
        try:
            for result, text in pairs:
                book.commit(result, text=text)
        finally:
            raw.pgconn.untrace()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        fields = line.split("\t")
        if len(fields) > 3 and fields[1] == "F":
            sent[fields[3].split(" ")[0]] += 1
    return {kind: sent[kind] / len(pairs) for kind in ("Sync", "Flush")}


def workload(store: str, text_chars: int, warm: int, chapters: int, seed: int) -> dict[str, Any]:
    saga = generate_saga(warm + 2 * chapters, seed=seed, text_chars=text_chars)
    pairs = list(zip(saga.results, saga.texts, strict=True))
    name = f"cost-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        books = {
            "sqlite": webnovel.init_project(root / "sqlite", title="cost"),
            "postgresql": webnovel.init_project(root / "pg", title="cost", store=store, book=name),
        }
        try:
            for result, text in pairs[:warm]:
                for book in books.values():
                    book.commit(result, text=text)
            gc.collect()
            timed = pairs[warm : warm + chapters]
            measured = commit_both(books, [p[0] for p in timed], [p[1] for p in timed])
            # what the PostgreSQL book sends, on the chapters after (not timed)
            counted = pairs[warm + chapters :]
            counts = Counts()
            with counting(counts):
                for result, text in counted[: len(counted) // 2]:
                    books["postgresql"].commit(result, text=text)
            messages = _traced(books["postgresql"], counted[len(counted) // 2 :], root)
        finally:
            for book in books.values():
                book.close()
            from webnovel.book.stores import delete_book

            delete_book(store, name)
    runs = len(counted) // 2
    return {
        **measured,
        "statements": {
            kind: round(counts.total(kind) / runs, 1) for kind in ("read", "write", "many")
        },
        "messages": {kind: round(n, 1) for kind, n in messages.items()},
        "load": round(os.getloadavg()[0], 1),
    }


def table(results: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| per commit | " + " | ".join(results) + " |",
        "|---|" + "---|" * len(results),
    ]

    def row(label: str, cell: Any) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(r) for r in results.values()) + " |")

    def ratio(r: dict[str, Any], a: float, b: float) -> str:
        return f"{b / a:.1f}×" if a else "—"

    row(
        "wall p50, SQLite / PostgreSQL (ms)",
        lambda r: (
            f"{r['sqlite']['commit_all']['p50_ms']:.1f} / "
            f"{r['postgresql']['commit_all']['p50_ms']:.1f} "
            f"({ratio(r, r['sqlite']['commit_all']['p50_ms'], r['postgresql']['commit_all']['p50_ms'])})"
        ),
    )

    def cpu(r: dict[str, Any]) -> str:
        lite = r["sqlite"]["commit_client_cpu_mean_ms"]
        client = r["postgresql"]["commit_client_cpu_mean_ms"]
        server = r["postgresql"]["commit_server_cpu_mean_ms"]
        return f"{lite:.1f} / {client:.1f} + {server:.1f} ({ratio(r, lite, client + server)})"

    row("CPU mean, SQLite / PostgreSQL client + server (ms)", cpu)
    row(
        "PostgreSQL statements: reads / writes / batch writes",
        lambda r: " / ".join(str(r["statements"][k]) for k in ("read", "write", "many")),
    )
    row(
        "PostgreSQL Sync / Flush sent (round trips at most)",
        lambda r: f"{r['messages']['Sync']} / {r['messages']['Flush']}",
    )
    row("load average after", lambda r: str(r["load"]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", type=int, default=300)
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    store = os.environ.get("WEBNOVEL_BENCH_POSTGRES")
    if not store:
        sys.exit("set WEBNOVEL_BENCH_POSTGRES to a postgresql:// URL")
    results = {
        label: workload(store, chars, args.warm, args.chapters, args.seed)
        for label, chars in WORKLOADS.items()
    }
    print(table(results))


if __name__ == "__main__":
    main()
