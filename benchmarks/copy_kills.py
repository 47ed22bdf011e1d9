"""`webnovel copy` killed at random moments (SIGKILL, SIGTERM, SIGHUP): after each kill DEST holds
no book or a whole one, a stopped copy leaves nothing behind, and running it again makes the
whole copy. Into SQLite, and into PostgreSQL when WEBNOVEL_BENCH_POSTGRES names a server.

    python benchmarks/copy_kills.py --kills 20 --seed 1
    WEBNOVEL_BENCH_POSTGRES="$(.ci/postgres-start)" python benchmarks/copy_kills.py --kills 20
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.book.stores import delete_book, list_books  # noqa: E402

from saga import generate_saga  # noqa: E402

SIGNALS = ("SIGKILL", "SIGTERM", "SIGHUP")


def answers(root: Path) -> dict[str, Any]:
    with webnovel.open_project(root) as book:
        return {"counts": book.stats().to_dict()["counts"], "latest": book.latest_chapter()}


def command(source: Path, dest: Path, store: str | None, name: str) -> list[str]:
    where = ["--store", store, "--book", name] if store else []
    return [sys.executable, "-m", "webnovel", "--project", str(source), "copy", str(dest), *where]


def kills(
    source: Path, folder: Path, store: str | None, count: int, rng: random.Random
) -> tuple[Counter[str], list[str]]:
    expected = answers(source)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    started = time.perf_counter()
    whole = f"bench-{uuid.uuid4().hex[:10]}"
    subprocess.run(
        command(source, folder / "whole", store, whole), check=True, env=env, capture_output=True
    )
    seconds = time.perf_counter() - started
    made = [whole]
    counts: Counter[str] = Counter()
    problems: list[str] = []
    for n in range(count):
        signame = rng.choice(SIGNALS)
        dest, name = folder / f"k{n}", f"bench-{uuid.uuid4().hex[:10]}"
        made.append(name)
        child = subprocess.Popen(
            command(source, dest, store, name),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(rng.uniform(0.2, 0.9) * seconds)
        child.send_signal(getattr(signal, signame))
        _, err = child.communicate(timeout=300)
        if "Traceback" in err:
            problems.append(f"{signame}: {err[-300:]}")
        if (dest / ".webnovel").exists():
            counts[f"{signame}:whole"] += 1
            if answers(dest) != expected:
                problems.append(f"{signame}: DEST holds a book that is not whole")
            continue
        counts[f"{signame}:none"] += 1
        left = list(folder.glob(f".{dest.name}.copying-*"))
        if signame != "SIGKILL" and left:
            problems.append(f"{signame}: left {left}")
        if signame != "SIGKILL" and store and list_books(store, only=name):
            problems.append(f"{signame}: left its book {name} in the store")
        again = subprocess.run(
            command(source, dest, store, name), env=env, capture_output=True, text=True
        )
        if again.returncode != 0:
            problems.append(f"{signame}: the rerun failed: {again.stderr.strip()}")
        elif answers(dest) != expected:
            problems.append(f"{signame}: the rerun's copy is not whole")
    if store:
        for name in made:
            delete_book(store, name)
    return counts, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--chapters", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    stores: list[str | None] = [None]
    if os.environ.get("WEBNOVEL_BENCH_POSTGRES"):
        stores.append(os.environ["WEBNOVEL_BENCH_POSTGRES"])
    report: dict[str, Any] = {}
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="webnovel-copy-kills-") as scratch:
        source = Path(scratch) / "source"
        with webnovel.init_project(source, title="saga") as book:
            for result in generate_saga(args.chapters, seed=11).results:
                book.commit(result)
        for store in stores:
            folder = Path(scratch) / ("postgresql" if store else "sqlite")
            folder.mkdir()
            counts, found = kills(source, folder, store, args.kills, rng)
            report["postgresql" if store else "sqlite"] = dict(sorted(counts.items()))
            problems += found
    print(json.dumps(report, indent=1))
    for problem in problems:
        print("PROBLEM", problem)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
