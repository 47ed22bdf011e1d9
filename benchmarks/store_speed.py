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
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from run import bench_packs, bench_queries, bench_search, summary  # noqa: E402

from saga import Saga, generate_saga  # noqa: E402


def backend_cpu_ms(book: webnovel.Project) -> float:
    """CPU time the book's PostgreSQL backend has used so far (the server runs on this
    machine in the benchmark, so /proc shows it): a commit's cost that the client's clock
    does not see. 0 for SQLite, whose work is the client's."""
    index = book.storage.index
    pg = getattr(index, "pg", None)
    if pg is None:
        return 0.0
    stat = Path(f"/proc/{pg.raw.info.backend_pid}/stat").read_text()
    utime, stime = stat.rsplit(")", 1)[1].split()[11:13]
    return (int(utime) + int(stime)) * 1000 / os.sysconf("SC_CLK_TCK")


def build_both(
    saga: Saga, folders: dict[str, Path], store: str | None
) -> tuple[dict[str, webnovel.Project], dict[str, dict[str, Any]], str | None]:
    """Commit the saga into every store chapter by chapter, taking turns (who goes first
    alternates), so that both see the same load: on a shared machine a minute's load swings
    more than the difference being measured. Wall time, the client's CPU time and, for
    PostgreSQL, the server backend's CPU time per commit."""
    name = f"bench-{uuid.uuid4().hex[:8]}" if store else None
    books = {"sqlite": webnovel.init_project(folders["sqlite"], title="bench")}
    if store:
        books["postgresql"] = webnovel.init_project(
            folders["postgresql"], title="bench", store=store, book=name
        )
    return books, commit_both(books, saga.results, saga.texts), name


def commit_both(
    books: dict[str, webnovel.Project], results: list[Any], texts: list[str | None]
) -> dict[str, dict[str, Any]]:
    """Commit the chapters into every book, taking turns; commit p50 and CPU per store."""
    walls: dict[str, list[float]] = {kind: [] for kind in books}
    cpus: dict[str, list[float]] = {kind: [] for kind in books}
    servers: dict[str, float] = {kind: 0.0 for kind in books}
    order = list(books)
    for n, (result, text) in enumerate(zip(results, texts, strict=True)):
        for kind in order if n % 2 == 0 else order[::-1]:
            book = books[kind]
            server = backend_cpu_ms(book)
            cpu, started = time.process_time(), time.perf_counter()
            book.commit(result, text=text)
            walls[kind].append((time.perf_counter() - started) * 1000)
            cpus[kind].append((time.process_time() - cpu) * 1000)
            servers[kind] += backend_cpu_ms(book) - server
        if (n + 1) % 500 == 0:  # a long run says how it goes (and leaves numbers if cut short)
            print(json.dumps(_progress(n + 1, walls, cpus, servers)), file=sys.stderr, flush=True)
    out: dict[str, dict[str, Any]] = {}
    for kind, book in books.items():
        book.flush()
        last = -min(200, len(walls[kind]))
        out[kind] = {
            "commit_all": summary(walls[kind]),
            "commit_last_200": summary(walls[kind][last:]),
            "commit_client_cpu_mean_ms": round(sum(cpus[kind]) / len(cpus[kind]), 2),
            "commit_client_cpu_last_200_mean_ms": round(sum(cpus[kind][last:]) / -last, 2),
            "commit_server_cpu_mean_ms": round(servers[kind] / len(walls[kind]), 2),
        }
    return out


def _progress(
    done: int,
    walls: dict[str, list[float]],
    cpus: dict[str, list[float]],
    servers: dict[str, float],
) -> dict[str, Any]:
    """Commit p50 and mean client CPU of the last 500 chapters, per store (and the server's
    mean CPU so far)."""
    return {
        "chapters": done,
        "load": os.getloadavg()[0],
        **{
            kind: {
                "p50_ms": round(statistics.median(walls[kind][-500:]), 2),
                "cpu_mean_ms": round(sum(cpus[kind][-500:]) / 500, 2),
                "server_cpu_mean_ms": round(servers[kind] / done, 2),
            }
            for kind in walls
        },
    }


def bench_reads(book: webnovel.Project, saga: Saga, seed: int) -> dict[str, Any]:
    """As-of answers, packs and search on a built book, with the CPU they took."""
    rng = random.Random(seed)
    cpu, server = time.process_time(), backend_cpu_ms(book)
    packs = bench_packs(book, saga, rng, 20)
    pack_count = 20 * 5 + 1
    out: dict[str, Any] = {
        "pack": packs,
        "pack_client_cpu_mean_ms": round((time.process_time() - cpu) * 1000 / pack_count, 2),
        "pack_server_cpu_mean_ms": round((backend_cpu_ms(book) - server) / pack_count, 2),
    }
    out.update(bench_queries(book, saga, rng))
    out["search"] = bench_search(book, saga, rng, 20)
    out["sizes_mb"] = {k: round(v / 2**20, 2) for k, v in book.storage.sizes().items()}
    return out


def bench_cli_both(folders: dict[str, Path], repeat: int) -> dict[str, dict[str, Any]]:
    """A fresh `webnovel fact` process per store, taking turns: wall time and the child's CPU
    time (user + system), min / p50 / p95. The children may write bytecode (as an installed
    package has it) even where the harness may not: without it every run would compile the
    package, which no user's process does. One run per store first, untimed, writes it."""
    command = [shutil.which("webnovel") or sys.executable]
    if command[0] == sys.executable:
        command += ["-m", "webnovel"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = {
        kind: [*command, "--project", str(folder), "fact", "e0", "realm", "--as-of", "5"]
        for kind, folder in folders.items()
    }
    out = _fresh_processes(runs, repeat, env)
    # Where a fresh process's time goes: the interpreter, our package, the PostgreSQL driver.
    parts = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import webnovel.cli.main": [sys.executable, "-c", "import webnovel.cli.main"],
    }
    if "postgresql" in folders:
        parts["import psycopg"] = [sys.executable, "-c", "import psycopg"]
        parts["import webnovel.cli.main, psycopg"] = [
            sys.executable,
            "-c",
            "import webnovel.cli.main, psycopg",
        ]
    out["parts"] = _fresh_processes(parts, repeat, env)
    return out


def _fresh_processes(
    runs: dict[str, list[str]], repeat: int, env: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Each command as a fresh process `repeat` times, the commands taking turns."""
    for args in runs.values():
        subprocess.run(args, check=True, capture_output=True, env=env)
    walls: dict[str, list[float]] = {name: [] for name in runs}
    cpus: dict[str, list[float]] = {name: [] for name in runs}
    for n in range(repeat):
        for name in list(runs) if n % 2 == 0 else list(runs)[::-1]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run(runs[name], check=True, capture_output=True, env=env)
            walls[name].append((time.perf_counter() - started) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            cpus[name].append(used * 1000)
    return {
        name: {
            **summary(walls[name]),
            "min_ms": round(min(walls[name]), 1),
            "cpu_min_ms": round(min(cpus[name]), 1),
            "cpu_p50_ms": round(statistics.median(cpus[name]), 1),
        }
        for name in runs
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--text-chars", type=int, default=600)
    parser.add_argument("--cli-runs", type=int, default=10)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here too")
    parser.add_argument(
        "--books",
        nargs=2,
        type=Path,
        metavar=("SQLITE", "POSTGRESQL"),
        help="measure these two built books (the saga's first --chapters chapters; the second "
        "a `webnovel copy --store` of the first) instead of building them, then commit the next "
        "--commits chapters into both, taking turns. The books are written to: pass copies",
    )
    parser.add_argument("--commits", type=int, default=200, help="with --books")
    args = parser.parse_args()
    if args.books:
        measure_built(args)
        return
    store = None if args.sqlite_only else os.environ.get("WEBNOVEL_BENCH_POSTGRES")
    if not args.sqlite_only and not store:
        sys.exit("set WEBNOVEL_BENCH_POSTGRES to a postgresql:// URL, or pass --sqlite-only")
    saga = generate_saga(args.chapters, seed=args.seed, text_chars=args.text_chars)
    gc.collect()
    gc.freeze()
    workdir = Path(tempfile.mkdtemp(prefix="webnovel-stores-"))
    folders = {"sqlite": workdir / "sqlite"}
    if store:
        folders["postgresql"] = workdir / "pg"
    results: dict[str, Any] = {
        "chapters": args.chapters,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_before": os.getloadavg()[0],
    }
    name = None
    try:
        books, commits, name = build_both(saga, folders, store)
        results["load_after_commits"] = os.getloadavg()[0]
        for kind, book in books.items():
            results[kind] = {**commits[kind], **bench_reads(book, saga, args.seed)}
            book.close()
        fresh = bench_cli_both(folders, args.cli_runs)
        results["fresh_process_parts"] = fresh.pop("parts")
        for kind, cli in fresh.items():
            results[kind]["cli_fact_cold_start"] = cli
        results["load_after"] = os.getloadavg()[0]
    finally:
        if store and name:
            from webnovel.book.stores import delete_book

            delete_book(store, name)
        shutil.rmtree(workdir, ignore_errors=True)
    if args.out:
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    print(table(results))
    print()
    print(parts_table(results["fresh_process_parts"]))


def measure_built(args: argparse.Namespace) -> None:
    """--books: reads, packs, search and fresh processes on two books built before, then the
    next chapters committed into both, taking turns (a 10,000-chapter book takes hours to
    build here; `webnovel copy` moves one into PostgreSQL in seconds)."""
    folders = dict(zip(("sqlite", "postgresql"), args.books, strict=True))
    more = generate_saga(args.chapters + args.commits, seed=args.seed, text_chars=args.text_chars)
    results_next = more.results[args.chapters :]
    texts_next = more.texts[args.chapters :]
    del more
    saga = generate_saga(args.chapters, seed=args.seed, text_chars=args.text_chars)
    gc.collect()
    gc.freeze()
    results: dict[str, Any] = {
        "chapters": args.chapters,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_before": os.getloadavg()[0],
    }
    books = {kind: webnovel.open_project(folder) for kind, folder in folders.items()}
    for kind, book in books.items():
        latest = book.latest_chapter()
        if latest != args.chapters:
            sys.exit(f"{folders[kind]} holds {latest} chapters, not --chapters {args.chapters}")
        cpu = time.process_time()
        results[kind] = bench_reads(book, saga, args.seed)
        results[kind]["reads_client_cpu_s"] = round(time.process_time() - cpu, 1)
    for book in books.values():
        book.close()
    fresh = bench_cli_both(folders, args.cli_runs)
    results["fresh_process_parts"] = fresh.pop("parts")
    for kind, cli in fresh.items():
        results[kind]["cli_fact_cold_start"] = cli
    results["load_after_commits"] = os.getloadavg()[0]  # here: after the reads
    books = {kind: webnovel.open_project(folder) for kind, folder in folders.items()}
    for kind, measured in commit_both(books, results_next, texts_next).items():
        results[kind].update(measured)
        books[kind].close()
    results["load_after"] = os.getloadavg()[0]
    if args.out:
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    print(table(results))
    print()
    print(parts_table(results["fresh_process_parts"]))


ROWS = [
    ("commit p50 (all chapters)", lambda r: r["commit_all"]["p50_ms"]),
    ("commit p50 (last 200)", lambda r: r["commit_last_200"]["p50_ms"]),
    ("commit CPU, client, mean", lambda r: r["commit_client_cpu_mean_ms"]),
    ("commit CPU, client, mean of last 200", lambda r: r["commit_client_cpu_last_200_mean_ms"]),
    ("commit CPU, server, mean", lambda r: r["commit_server_cpu_mean_ms"]),
    ("pack chapter_write p95", lambda r: r["pack"]["chapter_write"]["p95_ms"]),
    ("pack next chapter p95", lambda r: r["pack"]["next_chapter"]["p95_ms"]),
    ("pack CPU, client, mean", lambda r: r["pack_client_cpu_mean_ms"]),
    ("pack CPU, server, mean", lambda r: r["pack_server_cpu_mean_ms"]),
    ("as-of fact p50", lambda r: r["fact_as_of"]["p50_ms"]),
    ("as-of fact p95", lambda r: r["fact_as_of"]["p95_ms"]),
    ("search p95", lambda r: r["search"].get("p95_ms", r["search"].get("query", {}).get("p95_ms"))),
    ("`webnovel fact` fresh process min / p50", lambda r: _min_p50(r["cli_fact_cold_start"])),
    (
        "`webnovel fact` fresh process CPU min / p50",
        lambda r: _min_p50(r["cli_fact_cold_start"], "cpu_"),
    ),
    ("answers checked / wrong", lambda r: "{checked} / {wrong}".format(**r["correctness"])),
]


def _min_p50(measure: dict[str, Any], prefix: str = "") -> str:
    return f"{measure[prefix + 'min_ms']:.0f} / {measure[prefix + 'p50_ms']:.0f}"


def parts_table(parts: dict[str, dict[str, Any]]) -> str:
    """The fresh processes that say where a `webnovel fact` process's time goes."""
    lines = ["| fresh process | wall min / p50 | CPU min / p50 |", "| --- | ---: | ---: |"]
    for name, measure in parts.items():
        lines.append(f"| `{name}` | {_min_p50(measure)} | {_min_p50(measure, 'cpu_')} |")
    return "\n".join(lines)


def table(results: dict[str, Any]) -> str:
    stores = [s for s in ("sqlite", "postgresql") if s in results]
    lines = [
        f"{results['chapters']} chapters, ms; {results['date']}, load average "
        f"{results['load_before']:.1f} / {results['load_after_commits']:.1f} / "
        f"{results['load_after']:.1f} (start / after commits / end)",
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
