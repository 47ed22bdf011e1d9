"""How much one PostgreSQL server carries: P processes, each writing its own book, then P
processes building packs, all at once; commits and packs per second over the whole run.

    export WEBNOVEL_BENCH_POSTGRES="$(.ci/postgres-start)"
    python benchmarks/store_parallel.py --processes 8 --chapters 40
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.book.stores import delete_book  # noqa: E402

from saga import generate_saga  # noqa: E402

WRITER = """
import json, sys, webnovel
with webnovel.open_project(sys.argv[1]) as book:
    for result in json.load(open(sys.argv[2], encoding="utf-8")):
        book.commit(result)
"""
PACKER = """
import sys, webnovel
with webnovel.open_project(sys.argv[1]) as book:
    latest = book.latest_chapter()
    for n in range(int(sys.argv[2])):
        book.build_memory_pack("chapter_write", latest - n % 10, outline="e0 e1", budget_tokens=4000)
"""


def run_all(commands: list[list[str]]) -> tuple[float, float]:
    """Run the commands at once; wall seconds, and the CPU seconds the processes used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    processes = [subprocess.Popen(c, stderr=subprocess.PIPE, text=True) for c in commands]
    for process in processes:
        _, err = process.communicate()
        if process.returncode:
            sys.exit(err)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return time.perf_counter() - started, cpu


def server_cpu_seconds(store: str) -> float | None:
    """The CPU the PostgreSQL server on this machine has used: its postmaster's own and that
    of the backends it has reaped (a connection's backend ends with it). None when the server
    is elsewhere (its postmaster is not in this machine's /proc)."""
    import psycopg

    with psycopg.connect(store) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    try:
        backend = Path(f"/proc/{row[0]}/stat").read_text().rsplit(")", 1)[1].split()
        fields = Path(f"/proc/{backend[1]}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--chapters", type=int, default=40)
    parser.add_argument("--packs", type=int, default=20)
    args = parser.parse_args()
    store = os.environ.get("WEBNOVEL_BENCH_POSTGRES") or sys.exit("set WEBNOVEL_BENCH_POSTGRES")
    folder = Path(tempfile.mkdtemp(prefix="webnovel-parallel-"))
    results = folder / "results.json"
    results.write_text(
        json.dumps(generate_saga(args.chapters, seed=3).results, ensure_ascii=False),
        encoding="utf-8",
    )
    names = [f"parallel-{uuid.uuid4().hex[:8]}" for _ in range(args.processes)]
    for n, name in enumerate(names):
        webnovel.init_project(folder / f"b{n}", title="p", store=store, book=name).close()
    try:
        books = [str(folder / f"b{n}") for n in range(args.processes)]
        load = os.getloadavg()[0]
        server = [server_cpu_seconds(store)]
        wrote, wrote_cpu = run_all([[sys.executable, "-c", WRITER, b, str(results)] for b in books])
        server.append(server_cpu_seconds(store))
        packed, packed_cpu = run_all(
            [[sys.executable, "-c", PACKER, b, str(args.packs)] for b in books]
        )
        server.append(server_cpu_seconds(store))
    finally:
        for name in names:
            delete_book(store, name)
    commits, packs = args.processes * args.chapters, args.processes * args.packs
    print(
        json.dumps(
            {
                "processes": args.processes,
                "commits": commits,
                "commit_seconds": round(wrote, 1),
                "commit_client_cpu_seconds": round(wrote_cpu, 1),
                "commit_server_cpu_seconds": _spent(server[0], server[1]),
                "commits_per_second": round(commits / wrote, 1),
                "packs": packs,
                "pack_seconds": round(packed, 1),
                "pack_client_cpu_seconds": round(packed_cpu, 1),
                "pack_server_cpu_seconds": _spent(server[1], server[2]),
                "packs_per_second": round(packs / packed, 1),
                "cpus": os.cpu_count(),
                "load_before": load,
                "load_after": os.getloadavg()[0],
            }
        )
    )


def _spent(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else round(after - before, 1)


if __name__ == "__main__":
    main()
