"""Pack speed on a book already built (any size, either store): the CPU time of the client's
Python for `chapter_write` packs at random chapters of the book's second half and for the next
chapter, on outlines naming three characters, as `run.py` asks them.

    python benchmarks/pack_speed.py BOOK --chapters 10000 --seed 7 --text-chars 600
    python benchmarks/pack_speed.py BOOK --chapters 10000 --digest packs.txt   # what they held

BOOK holds `saga.generate_saga(chapters, seed, text_chars)` committed chapter by chapter with
its texts (what `store_speed.py` builds; building 10,000 chapters takes a while, so it is not
done here).

The saga is generated only for its outlines (same seed as the book) and dropped before any pack
is timed: held, its 400,000 objects made every full garbage collection cost the pack that met
it 0.7 s. CPU time (process_time), not wall time: the machine is shared, and the gap between
two checkouts is measured by running each in turn, several times, never from one run. Each
kind also says how many of its packs met a full garbage collection and what each cost: at
10,000 chapters those few packs are the p95.

`--digest FILE` writes one line per pack, its request and the SHA-256 of its JSON and text
renderings: two checkouts (`PYTHONPATH=other/src`) that give the same file built the same packs,
byte for byte. It reads the book only (`record=False`).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402

from pack_quality import outline_for  # noqa: E402
from saga import generate_saga  # noqa: E402


def requests(chapters: int, seed: int, text_chars: int, count: int) -> list[tuple[int, str]]:
    """(chapter, outline) pairs: `count` at random chapters of the second half, and `count // 4`
    for the next chapter to write (the main use). The saga must be generated as the book was,
    text length included: the text draws on the same random numbers as the names, so another
    length gives outlines naming people the book never had."""
    saga = generate_saga(chapters, seed=seed, text_chars=text_chars)
    rng = random.Random(5)
    asked = []
    for _ in range(count):
        chapter = rng.randint(chapters // 2, chapters)
        asked.append((chapter, outline_for(saga, chapter, rng)[0]))
    for _ in range(max(1, count // 4)):
        asked.append((chapters + 1, outline_for(saga, chapters, rng)[0]))
    return asked


class FullCollections:
    """CPU ms spent in generation-2 garbage collections since `spent` was last reset: a full
    collection walks every container the book handle keeps, so the packs that meet one are
    the slow tail of the run."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._started = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.process_time()
        else:
            self.spent += (time.process_time() - self._started) * 1000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * share) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("book", type=Path)
    parser.add_argument("--chapters", type=int, required=True, help="the book's chapters")
    parser.add_argument(
        "--seed", type=int, default=7, help="the saga's seed the book was built from"
    )
    parser.add_argument(
        "--text-chars", type=int, default=600, help="the text a chapter had when it was built"
    )
    parser.add_argument("--packs", type=int, default=40)
    parser.add_argument("--digest", type=Path, help="write each pack's digest here")
    parser.add_argument(
        "--server-heap",
        action="store_true",
        help="freeze the heap after opening the book, as `webnovel mcp` and the dashboard do",
    )
    args = parser.parse_args()
    asked = requests(args.chapters, args.seed, args.text_chars, args.packs)
    gc.collect()
    digest = args.digest.open("w", encoding="utf-8") if args.digest else None
    with webnovel.open_project(args.book) as book:
        if args.server_heap:
            from webnovel.book.server_memory import settle_heap

            settle_heap(book)
        book.build_memory_pack("chapter_write", args.chapters, record=False)  # names, search
        cpu: dict[str, list[float]] = {"random chapter": [], "next chapter": []}
        full_gc: dict[str, list[float]] = {"random chapter": [], "next chapter": []}
        collections = FullCollections()
        for chapter, outline in asked:
            collections.spent = 0.0
            started = time.process_time()
            pack = book.build_memory_pack(
                "chapter_write", chapter, outline=outline, budget_tokens=4000, record=False
            )
            spent = (time.process_time() - started) * 1000
            kind = "next chapter" if chapter > args.chapters else "random chapter"
            cpu[kind].append(spent)
            if collections.spent:
                full_gc[kind].append(collections.spent)
            if digest:
                shown = json.dumps(pack.to_dict(), ensure_ascii=False, sort_keys=True)
                shown += pack.render("text") + pack.render("prompt")
                sha = hashlib.sha256(shown.encode()).hexdigest()
                digest.write(
                    f"{chapter}\t{hashlib.sha256(outline.encode()).hexdigest()[:12]}\t{sha}\n"
                )
    if digest:
        digest.close()
    print(
        json.dumps(
            {
                kind: {
                    "packs": len(times),
                    "cpu_p50_ms": round(statistics.median(times), 1),
                    "cpu_p95_ms": round(percentile(times, 0.95), 1),
                    "met_a_full_gc": len(full_gc[kind]),
                    "full_gc_ms": [round(ms, 1) for ms in sorted(full_gc[kind])],
                }
                for kind, times in cpu.items()
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
