"""Search speed on three novels, with the questions of retrieval_quality.py.

    python benchmarks/novel_search_speed.py [--rounds 3] [--books DIR]

The three novels are ours (the issue's three held-out novels were never run here): the whole
of 《水浒传》 and of 《西游记》 (benchmarks/data), each chapter asked for by each half of its
回目, with and without the persons' names (1,002 questions), and 《青灯照剑》, the bundled
sample serial (23 event descriptions). Each book is imported once (`--books`: kept in DIR and
reused by the next run, also by another checkout of the code: a search brings an index made by
another version up to date before the clock starts), then every question is asked `--rounds`
times as `retrieval_quality.py` asks it (top 10, lexical, the default options). Printed per
book and over all: p50 / p95 of the wall time and of the CPU time (time.process_time) of one
search, in ms (the machine is shared: CPU time is what the code costs, wall time adds the
wait for a core), and a digest of every answer (chunk, score, snippet, marks, matched, weak),
so two versions of the code can be shown to give the same answers.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.ingest.text_import import split_chapters  # noqa: E402

import retrieval_quality as quality  # noqa: E402

NOVELS = {
    "shuihu": (quality.SHUIHU, quality.SHUIHU_NO_NAMES),
    "xiyouji": (quality.XIYOUJI_HUIMU, quality.XIYOUJI_HUIMU_NO_NAMES),
    "serial": (quality.SERIAL,),
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _questions(name: str, folder: Path) -> list[str]:
    """The novel's questions, the book imported into `folder` first when it is not there."""
    saved = folder / "questions.json"
    if not saved.exists():
        folder.mkdir(parents=True, exist_ok=True)
        first, *others = NOVELS[name]
        with webnovel.init_project(folder / "book", title=first.name) as book:
            first.build(book)
            asked = [q for q, _ in first.questions]
            if others:  # the same 回目 with the persons' names taken out
                titles = _titles(name, book)
                names = quality._cast_names(name)
                asked += [q for q, _ in quality.huimu_questions(titles, names)]
        saved.write_text(json.dumps(asked, ensure_ascii=False), encoding="utf-8")
    return list(json.loads(saved.read_text(encoding="utf-8")))


def _titles(novel: str, book: webnovel.Project) -> list[tuple[int, str]]:
    """Each chapter's 回目, as retrieval_quality.py reads them from the novel's headings."""
    text = gzip.decompress((quality.NOVELS / f"{novel}.txt.gz").read_bytes()).decode("utf-8")
    headings = [c.heading for c in split_chapters(text)[0]]
    return [(c["chapter"], headings[i]) for i, c in enumerate(book.chapters())]


def _answer(hits: list[Any]) -> list[Any]:
    return [
        [h.chunk_id, round(h.score, 9), h.snippet, list(h.marks), list(h.matched), h.weak]
        for h in hits
    ]


def run(name: str, folder: Path, rounds: int) -> dict[str, Any]:
    questions = _questions(name, folder)
    wall: list[float] = []
    cpu: list[float] = []
    digest = hashlib.sha256()
    with webnovel.open_project(folder / "book") as book:
        retrieval = book.retrieval()
        retrieval.search("测试")  # the index in step before the clock starts
        for round_ in range(rounds):
            for question in questions:
                started, used = time.perf_counter(), time.process_time()
                hits = retrieval.search(question, top_k=10)
                cpu.append((time.process_time() - used) * 1000)
                wall.append((time.perf_counter() - started) * 1000)
                if round_ == 0:
                    digest.update(json.dumps(_answer(hits), ensure_ascii=False).encode())
    return {
        "questions": len(questions),
        "wall": wall,
        "cpu": cpu,
        "digest": digest.hexdigest()[:16],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--books", type=Path, help="keep the imported books here, and reuse them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        books = args.books or Path(scratch)
        results = {name: run(name, books / name, args.rounds) for name in NOVELS}
    every_wall = [t for r in results.values() for t in r["wall"]]
    every_cpu = [t for r in results.values() for t in r["cpu"]]
    print("| book | questions | wall p50 / p95 (ms) | CPU p50 / p95 (ms) | answers |")
    print("| --- | --- | --- | --- | --- |")
    for name, r in [*results.items(), ("all", {"wall": every_wall, "cpu": every_cpu})]:
        print(
            f"| {name} | {r.get('questions', sum(x['questions'] for x in results.values()))} "
            f"| {percentile(r['wall'], 0.5):.2f} / {percentile(r['wall'], 0.95):.2f} "
            f"| {percentile(r['cpu'], 0.5):.2f} / {percentile(r['cpu'], 0.95):.2f} "
            f"| {r.get('digest', '')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
