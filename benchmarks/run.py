"""Benchmark harness: commit, rebuild, as-of queries, CLI cold start, memory and sizes on a
generated saga, beside the targets of the design. Also checks a sample of as-of answers against
the generator's ground truth, so speed is never bought with wrong answers.

    python benchmarks/run.py --chapters 1000                 # one run, prints Markdown
    python benchmarks/run.py --chapters 10000 --update-docs  # also rewrites docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from dashboard_speed import bench_dashboard  # noqa: E402

from pack_quality import evaluate, outline_for  # noqa: E402
from saga import Saga, generate_saga, items_per_chapter  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WINDOWS = [(1, 200), (901, 1000), (9901, 10000)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(values), 3),
        "p95_ms": round(percentile(values, 0.95), 3),
        "n": len(values),
    }


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def bench_commits(book: webnovel.Project, saga: Saga, progress: bool) -> list[float]:
    times = []
    total = len(saga.results)
    for i, (result, text) in enumerate(zip(saga.results, saga.texts, strict=True), start=1):
        started = time.perf_counter()
        book.commit(result, text=text)
        times.append((time.perf_counter() - started) * 1000)
        if progress and (i % 100 == 0 or i == total):
            print(f"\rcommit {i}/{total}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return times


def bench_queries(book: webnovel.Project, saga: Saga, rng: random.Random) -> dict[str, Any]:
    chapters = len(saga.results)
    keys = sorted(saga.truth.facts)
    samples = [(rng.choice(keys), rng.randint(1, chapters)) for _ in range(500)]
    fact_times, wrong = [], 0
    for (entity, field), n in samples:
        started = time.perf_counter()
        item = book.fact(entity, field, as_of=n)
        fact_times.append((time.perf_counter() - started) * 1000)
        expected = saga.truth.fact(entity, field, n)
        if (item.value if item else None) != expected:
            wrong += 1
    entities = sorted(saga.truth.names)
    rel_samples = [(rng.choice(entities), rng.randint(1, chapters)) for _ in range(200)]
    rel_times = []
    for entity, n in rel_samples:
        started = time.perf_counter()
        found = {(r.source, r.target, r.type) for r in book.relations(entity, as_of=n)}
        rel_times.append((time.perf_counter() - started) * 1000)
        if found != saga.truth.relations_of(entity, n):
            wrong += 1
    # warm: an agent's process asks again and again; the first few calls read cold pages
    timed(lambda: book.threads("open", as_of=rng.randint(1, chapters)), 20)
    thread_times = timed(lambda: book.threads("open", as_of=rng.randint(1, chapters)), 200)
    return {
        "fact_as_of": summary(fact_times),
        "relations_as_of": summary(rel_times),
        "threads_open_as_of": summary(thread_times),
        "correctness": {"checked": len(samples) + len(rel_samples), "wrong": wrong},
    }


def bench_packs(book: webnovel.Project, saga: Saga, rng: random.Random, repeat: int) -> dict:
    """Pack latency by task on outlines naming three characters, plus pack quality."""
    chapters = len(saga.results)
    out: dict[str, Any] = {}
    book.build_memory_pack("chapter_write", chapters)  # builds the alias automaton once
    for task in ("chapter_write", "consistency_check", "continuity_query", "review"):
        times = []
        for _ in range(repeat):
            chapter = rng.randint(max(2, chapters // 2), chapters)
            outline, _ = outline_for(saga, chapter, rng)
            started = time.perf_counter()
            book.build_memory_pack(task, chapter, outline=outline, budget_tokens=4000)
            times.append((time.perf_counter() - started) * 1000)
        out[task] = summary(times)
    times = []
    for _ in range(repeat):  # the main use: the pack for the next chapter to write
        outline, _ = outline_for(saga, chapters, rng)
        started = time.perf_counter()
        book.build_memory_pack("chapter_write", chapters + 1, outline=outline, budget_tokens=4000)
        times.append((time.perf_counter() - started) * 1000)
    out["next_chapter"] = summary(times)
    sample = sorted(rng.sample(range(3, chapters + 1), min(20, chapters - 3)))
    out["quality"] = evaluate(book, saga, sample, budget=4000)
    return out


def bench_search(book: webnovel.Project, saga: Saga, rng: random.Random, repeat: int) -> dict:
    """Index the saga's text once, then time searches as of any chapter: names, a name and a
    place, and sentences an agent would ask (every term of which takes part)."""
    started = time.perf_counter()
    book.retrieval().sync(progress=_progress("index"))
    index_seconds = time.perf_counter() - started
    stats = book.retrieval().stats()
    names = [name for name, _ in saga.truth.names.values()]
    chapters = len(saga.results)
    queries = [rng.choice(names) for _ in range(repeat)]
    queries += [f"{rng.choice(names)}在{place}" for place in ("黑风谷", "青云城", "藏经阁")]
    queries += [
        f"{rng.choice(names)}和{rng.choice(names)}在哪里第一次交手，后来谁受了伤"
        for _ in range(repeat // 2)
    ]
    times = []
    for query in queries:
        as_of = rng.choice([None, rng.randint(1, chapters)])
        started = time.perf_counter()
        book.search(query, top_k=10, as_of=as_of)
        times.append((time.perf_counter() - started) * 1000)
    characters = sum(len(t or "") for t in saga.texts)
    return {
        "index_seconds": round(index_seconds, 2),
        "chunks": stats["chunks"],
        "text_chars": characters,
        **summary(times),
    }


CATCH_UP_ROUNDS = 5  # one sample of a 20 ms search moved by a fifth between runs


def bench_catch_up(book: webnovel.Project, saga: Saga) -> dict[str, float]:
    """After the saga: the search after one more chapter (the index catches up first), over
    `CATCH_UP_ROUNDS` chapters, each committed and then searched; and the search after a 10 MB
    chapter (a pasted book, say)."""
    chapters = len(saga.results)
    text = saga.texts[-1] or "萧炎在乌坦城练习斗技。" * 150
    times = []
    for n in range(1, CATCH_UP_ROUNDS + 1):
        book.commit({"chapter": chapters + n, "summary": f"又一章{n}"}, text=text)
        started = time.perf_counter()
        book.search(f"又一章{n}", top_k=10)
        times.append((time.perf_counter() - started) * 1000)
    book.commit(
        {"chapter": chapters + CATCH_UP_ROUNDS + 1, "summary": "很长的一章"},
        text=text * (3_500_000 // len(text)),
    )
    started = time.perf_counter()
    book.search("很长的一章", top_k=10)
    huge = (time.perf_counter() - started) * 1000
    return {
        "one_chapter_ms": round(statistics.median(times), 1),
        "one_chapter_max_ms": round(max(times), 1),
        "ten_mb_chapter_ms": round(huge, 1),
    }


def _progress(label: str) -> Callable[[int, int], None] | None:
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            print(f"\r{label} {done}/{total}", end="", file=sys.stderr, flush=True)
            if done == total:
                print(file=sys.stderr)

    return show


QUERY_PROCESS = """
import resource, sys, webnovel
with webnovel.open_project(sys.argv[1]) as book:
    latest = book.latest_chapter()
    for n in range(1, latest + 1, max(1, latest // 50)):
        book.fact("e0", "realm", as_of=n)
        book.relations("e0", as_of=n)
    book.threads("open")
    book.build_memory_pack("chapter_write", latest, outline="e0")
try:  # VmHWM starts afresh at exec; ru_maxrss would carry the harness's own peak over
    status = open("/proc/self/status").read()
    print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")))
except OSError:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def query_rss_mb(root: Path) -> float:
    """Peak RSS of a fresh process that opens the book and queries it (facts, relations,
    threads, a pack): what an agent's CLI call or MCP server holds, without the generator."""
    proc = subprocess.run(
        [sys.executable, "-c", QUERY_PROCESS, str(root)], check=True, capture_output=True, text=True
    )
    return round(int(proc.stdout.strip()) / 1024, 1)


def bench_cli(root: Path, repeat: int) -> dict[str, float]:
    command = [shutil.which("webnovel") or sys.executable]
    if command[0] == sys.executable:
        command += ["-m", "webnovel"]
    args = [*command, "--project", str(root), "fact", "e0", "realm", "--as-of", "5"]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append((time.perf_counter() - started) * 1000)
    return summary(times)


def run(chapters: int, seed: int, text_chars: int, quick: bool, progress: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    started = time.perf_counter()
    saga = generate_saga(chapters, seed=seed, text_chars=text_chars)
    generated = time.perf_counter() - started
    # The saga (30 M characters at 10,000 chapters) is the harness's, not the engine's: keep the
    # collector from walking it during timed calls, as it would not in an agent's process.
    gc.collect()
    gc.freeze()
    workdir = Path(tempfile.mkdtemp(prefix="webnovel-bench-"))
    try:
        book = webnovel.init_project(workdir / "book", title="bench")
        commit_times = bench_commits(book, saga, progress)
        book.flush()
        windows = {
            f"{a}-{b}": summary(commit_times[a - 1 : b]) for a, b in WINDOWS if chapters >= b
        }
        windows["all"] = summary(commit_times)
        queries = bench_queries(book, saga, rng)
        search = bench_search(book, saga, rng, 20 if quick else 100)
        packs = bench_packs(book, saga, rng, 10 if quick else 40)
        dashboard = bench_dashboard(book, rng, 4 if quick else 20)
        started = time.perf_counter()
        rebuilt = book.rebuild()
        book.flush()
        rebuild_seconds = time.perf_counter() - started
        after_rebuild = bench_queries(book, saga, random.Random(seed))["correctness"]
        catch_up = bench_catch_up(book, saga)
        sizes = book.storage.sizes()
        book.close()
        cli = bench_cli(workdir / "book", 3 if quick else 10)
        rss = query_rss_mb(workdir / "book")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "chapters": chapters,
        "seed": seed,
        "text_chars": text_chars,
        "items_per_chapter": round(items_per_chapter(saga), 1),
        "generate_seconds": round(generated, 2),
        "commit": windows,
        "rebuild_seconds": round(rebuild_seconds, 2),
        "rebuild_memory_seconds": rebuilt["memory_seconds"],
        "rebuild_chapters": rebuilt["chapters"],
        **queries,
        "pack": packs,
        "dashboard": dashboard,
        "search": search,
        "correctness_after_rebuild": after_rebuild,
        "search_catch_up": catch_up,
        "cli_fact_cold_start": cli,
        "query_process_rss_mb": rss,
        "harness_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "sizes_mb": {k: round(v / 2**20, 2) for k, v in sizes.items()},
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "ran_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


TARGETS = [
    (
        "commit p50 / p95, all chapters",
        lambda r: f"{r['commit']['all']['p50_ms']} / {r['commit']['all']['p95_ms']}",
        "—",
    ),
    ("commit p50, chapters 1–200", lambda r: r["commit"].get("1-200", {}).get("p50_ms"), "≤ 4 ms"),
    (
        "commit p50, chapters 901–1,000",
        lambda r: r["commit"].get("901-1000", {}).get("p50_ms"),
        "≤ 10 ms",
    ),
    (
        "commit p50, chapters 9,901–10,000",
        lambda r: r["commit"].get("9901-10000", {}).get("p50_ms"),
        "≤ 15 ms (1.5× the 1,000 mark)",
    ),
    (
        "commit p50 ratio, 9,901–10,000 / 901–1,000",
        lambda r: (
            round(r["commit"]["9901-10000"]["p50_ms"] / r["commit"]["901-1000"]["p50_ms"], 2)
            if "9901-10000" in r["commit"]
            else None
        ),
        "≤ 1.5",
    ),
    (
        "rebuild: memory / with the search index (s)",
        lambda r: f"{r['rebuild_memory_seconds']} / {r['rebuild_seconds']}",
        "≤ 10 s for 1,000 chapters",
    ),
    (
        "as-of fact query p50 / p95",
        lambda r: f"{r['fact_as_of']['p50_ms']} / {r['fact_as_of']['p95_ms']}",
        "≤ 1 ms",
    ),
    (
        "relations as-of p50 / p95",
        lambda r: f"{r['relations_as_of']['p50_ms']} / {r['relations_as_of']['p95_ms']}",
        "—",
    ),
    (
        "open threads as-of p50 / p95 (warm)",
        lambda r: f"{r['threads_open_as_of']['p50_ms']} / {r['threads_open_as_of']['p95_ms']}",
        "p95 ≤ 5 ms",
    ),
    (
        "pack for the next chapter p50 / p95",
        lambda r: f"{r['pack']['next_chapter']['p50_ms']} / {r['pack']['next_chapter']['p95_ms']}",
        "p95 ≤ 50 ms at 1,000 and at 10,000",
    ),
    (
        "pack chapter_write 4k, random later chapters, p50 / p95",
        lambda r: (
            f"{r['pack']['chapter_write']['p50_ms']} / {r['pack']['chapter_write']['p95_ms']}"
        ),
        "p95 ≤ 50 ms at 1,000; ≤ 100 ms at 10,000",
    ),
    (
        "pack review p50 / p95",
        lambda r: f"{r['pack']['review']['p50_ms']} / {r['pack']['review']['p95_ms']}",
        "—",
    ),
    (
        "pack recall / stale / future leaks",
        lambda r: (
            f"{r['pack']['quality']['recall']} / "
            f"{r['pack']['quality']['stale']} / {r['pack']['quality']['future']}"
        ),
        "≥ 0.95 / 0 / 0",
    ),
    (
        "search top-10 p50 / p95 (chunks)",
        lambda r: f"{r['search']['p50_ms']} / {r['search']['p95_ms']} ({r['search']['chunks']:,})",
        "p95 ≤ 10 ms at 10,000 chapters",
    ),
    (
        "search index build (s, characters)",
        lambda r: f"{r['search']['index_seconds']} ({r['search']['text_chars']:,})",
        "≤ 60 s for 30 M characters",
    ),
    (
        "search after one new chapter p50 / max of 5 (ms, catch-up included)",
        lambda r: (
            f"{r['search_catch_up']['one_chapter_ms']} / "
            f"{r['search_catch_up'].get('one_chapter_max_ms', '—')}"
        ),
        "≤ 20 ms",
    ),
    (
        "search after a 10 MB chapter (ms, catch-up included)",
        lambda r: r["search_catch_up"]["ten_mb_chapter_ms"],
        "no 12 s stall",
    ),
    (
        "dashboard: slowest page p95 (ms, which)",
        lambda r: f"{r['dashboard']['worst_p95_ms']} ({r['dashboard']['worst_page']})",
        "≤ 200 ms for every page at 10,000",
    ),
    ("`webnovel fact` fresh process p50", lambda r: r["cli_fact_cold_start"]["p50_ms"], "≤ 300 ms"),
    (
        "RSS of a process querying the book (MB)",
        lambda r: r["query_process_rss_mb"],
        "< 300 MB at 10,000 chapters",
    ),
    ("index.db (MB)", lambda r: r["sizes_mb"]["index.db"], "—"),
    (
        "as-of answers wrong / checked",
        lambda r: f"{r['correctness']['wrong']} / {r['correctness']['checked']}",
        "0",
    ),
]


def markdown(results: list[dict[str, Any]]) -> str:
    header = (
        "| measure | " + " | ".join(f"{r['chapters']:,} chapters" for r in results) + " | target |"
    )
    lines = [header, "|" + " --- |" * (len(results) + 2)]
    for name, pick, target in TARGETS:
        cells = []
        for r in results:
            try:
                value = pick(r)
            except (KeyError, TypeError):  # a measure this run skipped
                value = None
            cells.append("—" if value is None else str(value))
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {target} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chapters", type=int, nargs="+", default=[1000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--text-chars", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (for CI)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out")
    parser.add_argument(
        "--update-docs", action="store_true", help="rewrite the results table in docs/benchmarks.md"
    )
    args = parser.parse_args()
    results = [
        run(n, args.seed, args.text_chars, args.quick, sys.stderr.isatty()) for n in args.chapters
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=2))
    table = markdown(results)
    (args.out / "results.md").write_text(table + "\n")
    print(table)
    if args.update_docs:
        update_docs(table, results)
    bad = sum(
        r["correctness"]["wrong"]
        + r["correctness_after_rebuild"]["wrong"]
        + r["pack"]["quality"]["stale"]
        + r["pack"]["quality"]["future"]
        for r in results
    )
    if bad:
        print(f"error: {bad} as-of answers disagree with the ground truth", file=sys.stderr)
        return 1
    failed = [f for r in results for f in r["dashboard"].get("failures", [])]
    if failed:
        print(f"error: dashboard pages failed: {', '.join(failed[:5])}", file=sys.stderr)
        return 1
    return 0


def update_docs(table: str, results: list[dict[str, Any]]) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text(encoding="utf-8")
    machine = results[0]["machine"]
    run_line = (
        f"Run {results[0]['ran_at']} on {machine['platform']}, Python "
        f"{machine['python']}, {machine['cpus']} CPUs; saga seed {results[0]['seed']}, "
        f"{results[0]['items_per_chapter']} items and {results[0]['text_chars']:,} "
        f"characters of text a chapter."
    )
    text = _replace_block(text, "results", f"{run_line}\n\n{table}")
    pages = dashboard_table(results)
    if pages:
        text = _replace_block(text, "dashboard", pages)
    path.write_text(text, encoding="utf-8")


def _replace_block(text: str, name: str, body: str) -> str:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    head, found, rest = text.partition(start)
    if not found:
        return text
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n{body}\n{end}{tail}"


def dashboard_table(results: list[dict[str, Any]]) -> str:
    """Server time of each dashboard page, p50 / p95 in ms, per book size."""
    runs = [r for r in results if "pages" in r.get("dashboard", {})]
    if not runs:
        return ""
    lines = [
        "| page | " + " | ".join(f"{r['chapters']:,} chapters" for r in runs) + " |",
        "|" + " --- |" * (len(runs) + 1),
    ]
    for name in runs[0]["dashboard"]["pages"]:
        cells = [
            f"{r['dashboard']['pages'][name]['p50_ms']} / {r['dashboard']['pages'][name]['p95_ms']}"
            for r in runs
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
