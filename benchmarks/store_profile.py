"""Where a PostgreSQL commit, pack and as-of fact spend their statements: a profile, not a timer.

psycopg counts nothing, so for the profile only the store's connection adapter is wrapped in a
counting shim: every statement is attributed to the first function outside the store's adapter
that issued it, with its kind (a read waits one round trip; a write in pipeline mode does not).

    export WEBNOVEL_BENCH_POSTGRES="$(.ci/postgres-start)"
    python benchmarks/store_profile.py --chapters 300 --profile 20
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.memory.store import index_store  # noqa: E402
from webnovel.memory.store.pg import pg_connection  # noqa: E402

from saga import generate_saga  # noqa: E402

HERE = str(Path(pg_connection.__file__))
ROWS_IN = str(Path(index_store.__file__))  # rows_in: its caller is the one to name


class Counts:
    def __init__(self) -> None:
        self.by_caller: Counter[tuple[str, str]] = Counter()
        self.ms_by_caller: defaultdict[tuple[str, str], float] = defaultdict(float)

    def total(self, kind: str | None = None) -> int:
        return sum(n for (_, k), n in self.by_caller.items() if kind in (None, k))


def _caller() -> str:
    frame = sys._getframe(2)
    while frame is not None and (
        frame.f_code.co_filename in (HERE, ROWS_IN)
        or frame.f_code.co_filename.endswith("contextlib.py")
    ):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "?"
    return f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}"


@contextmanager
def counting(counts: Counts) -> Iterator[None]:
    """Count every statement the store's PostgreSQL adapter runs, by caller and kind."""
    execute, executemany = (
        pg_connection.PgConnection.execute,
        pg_connection.PgConnection.executemany,
    )

    def counted_execute(self: Any, sql: str, params: Any = ()) -> Any:
        key = (
            _caller(),
            "read"
            if sql.lstrip()[:6].upper() in ("SELECT", "WITH ") or "RETURNING" in sql.upper()
            else "write",
        )
        started = time.perf_counter()
        try:
            return execute(self, sql, params)
        finally:
            counts.by_caller[key] += 1
            counts.ms_by_caller[key] += (time.perf_counter() - started) * 1000

    def counted_executemany(self: Any, sql: str, rows: Any) -> None:
        key = (_caller(), "many")
        started = time.perf_counter()
        try:
            executemany(self, sql, rows)
        finally:
            counts.by_caller[key] += 1
            counts.ms_by_caller[key] += (time.perf_counter() - started) * 1000

    pg_connection.PgConnection.execute = counted_execute  # type: ignore[method-assign]
    pg_connection.PgConnection.executemany = counted_executemany  # type: ignore[method-assign]
    try:
        yield
    finally:
        pg_connection.PgConnection.execute = execute  # type: ignore[method-assign]
        pg_connection.PgConnection.executemany = executemany  # type: ignore[method-assign]


def report(title: str, counts: Counts, runs: int) -> None:
    print(
        f"\n{title}: per run {counts.total() / runs:.0f} statements "
        f"({counts.total('read') / runs:.0f} reads, {counts.total('write') / runs:.0f} writes, "
        f"{counts.total('many') / runs:.0f} executemany)"
    )
    for (caller, kind), n in counts.by_caller.most_common(40):
        ms = counts.ms_by_caller[(caller, kind)] / runs
        print(f"  {n / runs:7.1f}  {ms:7.1f} ms  {kind:5}  {caller}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", type=int, default=300)
    parser.add_argument("--profile", type=int, default=20, help="commits profiled at the end")
    args = parser.parse_args()
    store = os.environ.get("WEBNOVEL_BENCH_POSTGRES")
    if not store:
        sys.exit("set WEBNOVEL_BENCH_POSTGRES to a postgresql:// URL")
    saga = generate_saga(args.chapters + args.profile, seed=7, text_chars=600)
    name = f"profile-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as folder:
        book = webnovel.init_project(Path(folder), title="profile", store=store, book=name)
        try:
            pairs = list(zip(saga.results, saga.texts, strict=True))
            for result, text in pairs[: args.chapters]:
                book.commit(result, text=text)
            commits = Counts()
            started = time.perf_counter()
            with counting(commits):
                for result, text in pairs[args.chapters :]:
                    book.commit(result, text=text)
            wall = (time.perf_counter() - started) * 1000 / args.profile
            report(f"commit ({wall:.0f} ms each)", commits, args.profile)
            chapters = len(pairs)
            book.build_memory_pack("chapter_write", chapters)
            packs = Counts()
            started = time.perf_counter()
            with counting(packs):
                for n in range(5):
                    book.build_memory_pack("chapter_write", chapters - n, budget_tokens=4000)
            wall = (time.perf_counter() - started) * 1000 / 5
            report(f"pack chapter_write ({wall:.0f} ms each)", packs, 5)
            facts = Counts()
            keys = sorted(saga.truth.facts)[:50]
            started = time.perf_counter()
            with counting(facts):
                for entity, field in keys:
                    book.fact(entity, field, as_of=chapters // 2)
            wall = (time.perf_counter() - started) * 1000 / len(keys)
            report(f"as-of fact ({wall:.2f} ms each)", facts, len(keys))
        finally:
            book.close()
            from webnovel.book.stores import delete_book

            delete_book(store, name)


if __name__ == "__main__":
    main()
