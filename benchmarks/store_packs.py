"""Packs on two built books side by side, taking turns pack by pack: wall time, the client's
CPU and (for PostgreSQL on this machine) the server backend's CPU, p50 and p95.

    python benchmarks/store_packs.py SQLITE_BOOK PG_BOOK --chapters 10000

The requests are `pack_speed.py`'s (its saga's outlines, same seed); the PostgreSQL book is a
`webnovel copy --store` of the SQLite one. `pack_speed.py` times one book's client CPU alone;
here a pack's wall time on PostgreSQL also holds its round trips and the server's work.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from pack_speed import percentile, requests  # noqa: E402
from store_speed import backend_cpu_ms  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("books", type=Path, nargs=2, metavar="BOOK")
    parser.add_argument("--chapters", type=int, required=True, help="the books' chapters")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--text-chars", type=int, default=600)
    parser.add_argument("--packs", type=int, default=40)
    parser.add_argument(
        "--server-heap",
        action="store_true",
        help="freeze the heap after opening the books, as `webnovel mcp` and the dashboard do",
    )
    args = parser.parse_args()
    asked = requests(args.chapters, args.seed, args.text_chars, args.packs)
    gc.collect()
    books = {str(path): webnovel.open_project(path) for path in args.books}
    kinds = {
        name: "postgresql" if book.storage.location is not None else "sqlite"
        for name, book in books.items()
    }
    if args.server_heap:
        from webnovel.book.server_memory import settle_heap

        for book in books.values():
            settle_heap(book)
    for book in books.values():  # names, search index caught up: not what a pack costs
        book.build_memory_pack("chapter_write", args.chapters, record=False)
    measured: dict[str, dict[str, list[float]]] = {
        name: {"wall": [], "cpu": [], "server": []} for name in books
    }
    load = os.getloadavg()[0]
    order = list(books)
    for n, (chapter, outline) in enumerate(asked):
        for name in order if n % 2 == 0 else order[::-1]:
            book = books[name]
            server, cpu, started = backend_cpu_ms(book), time.process_time(), time.perf_counter()
            book.build_memory_pack(
                "chapter_write", chapter, outline=outline, budget_tokens=4000, record=False
            )
            measured[name]["wall"].append((time.perf_counter() - started) * 1000)
            measured[name]["cpu"].append((time.process_time() - cpu) * 1000)
            measured[name]["server"].append(backend_cpu_ms(book) - server)
    out = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_before": load,
        "load_after": os.getloadavg()[0],
        "packs": len(asked),
        "heap": "frozen after opening (a server's)" if args.server_heap else "as a library's",
    }
    for name, values in measured.items():
        out[f"{kinds[name]} {name}"] = {
            f"{what}_{label}_ms": round(pick(series), 1)
            for what, series in values.items()
            for label, pick in (
                ("p50", statistics.median),
                ("p95", lambda s: percentile(s, 0.95)),
            )
        }
    for book in books.values():
        book.close()
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
