"""Peak memory of single commands on one huge chapter (the goal: at most 500 MB RSS on a 50 MB
chapter). Each command runs as a fresh process and reports its own peak RSS (VmHWM: `ru_maxrss`
would carry this harness's own peak into its children).

    python benchmarks/big_chapter.py --mb 50
    python benchmarks/big_chapter.py --mb 50 --shape clauses   # one line, no sentence end

`--shape`: the sample serial's text repeated as it is (`lines`), as one line (`line`: a single
paragraph, with its sentence ends), or as one line whose sentence ends are commas (`clauses`:
the worst case for cutting it into passages).

    python benchmarks/big_chapter.py --search-kb 100 1000 --skip-commands

times searches (in this process, after the first, which indexes) on a book whose one chapter is
one paragraph of that many KB without a sentence end, of prose and of one clause naming the hero
repeated (issue 43: 1 MB took over 120 s a search).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import webnovel
from webnovel.ingest.sample_book import sample_chapters

PEAK = (
    "import re, sys; from webnovel.cli.main import main; code = main(sys.argv[1:]); "
    "status = open('/proc/self/status').read(); "
    "print('peak_mb', int(re.search(r'VmHWM:\\s+(\\d+)', status).group(1)) // 1024, "
    "file=sys.stderr); sys.exit(code)"
)
SHAPES = ("lines", "line", "clauses")
QUERIES = ("林砚", "断刀", "林砚 韩啸", "青石镇的铁匠铺")


def peak_mb(root: Path, *args: str) -> tuple[int, int]:
    """(exit code, peak RSS in MB) of `webnovel --project ROOT ARGS` in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, "--project", str(root), *args],
        capture_output=True,
        text=True,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("peak_mb"))
    return done.returncode, int(line.split()[1])


def sample_text(chars: int, shape: str) -> str:
    """`chars` characters of the sample serial's text, in the given shape."""
    lines = [line for c in sample_chapters() for line in (c.text or "").splitlines()]
    if shape == "lines":
        sample = "\n".join(lines)
    else:  # one paragraph: no line breaks, and no headings (a # opens a line of its own)
        sample = "".join(line for line in lines if not line.startswith("#"))
    if shape == "clauses":
        sample = sample.translate(str.maketrans("。！？…!?", "，，，，，，"))
    return (sample * (chars // len(sample) + 1))[:chars]


def search_times(kb: int, repeat: int, dense: bool) -> dict[str, float]:
    """ms per search on a book whose one chapter is one paragraph of `kb` KB, no sentence end:
    the sample serial's prose, or (`dense`) one clause naming the hero, repeated."""
    if dense:
        clause = "林砚提着断刀走过青石镇的铁匠铺，"
        text = clause * (kb * 1000 // len(clause.encode("utf-8")))
    else:
        sample = sample_text(1000, "clauses")
        text = sample_text(kb * 1000 * len(sample) // len(sample.encode("utf-8")), "clauses")
    with (
        tempfile.TemporaryDirectory() as tmp,
        webnovel.init_project(Path(tmp) / "b", "一段") as book,
    ):
        book.commit({"chapter": 1, "summary": "很长的一段"}, text=text)
        started = time.perf_counter()
        book.search(QUERIES[0])
        first = time.perf_counter() - started
        times, cpu = [], []
        for _ in range(repeat):
            for query in QUERIES:
                started, used = time.perf_counter(), time.process_time()
                book.search(query)
                times.append(1000 * (time.perf_counter() - started))
                cpu.append(1000 * (time.process_time() - used))
    return {  # wall time, and CPU time (what a busy machine's load does not add to)
        "first_s": round(first, 2),
        "p50_ms": round(statistics.median(times), 1),
        "max_ms": round(max(times), 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
        "cpu_max_ms": round(max(cpu), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=50.0, help="chapter size in MB of UTF-8")
    parser.add_argument("--shape", choices=SHAPES, default="lines", help="see above")
    parser.add_argument("--search-kb", type=int, nargs="*", default=[], help="see above")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the timed searches")
    parser.add_argument("--skip-commands", action="store_true", help="only the timed searches")
    args = parser.parse_args()
    for kb in args.search_kb:
        for dense in (False, True):
            kind = "one clause repeated" if dense else "prose"
            timed = search_times(kb, args.repeat, dense)
            print(f"one paragraph of {kb} KB ({kind}, no sentence end): search {timed}")
    if not args.skip_commands:
        commands(args.mb, args.shape)
    return 0


def commands(mb: float, shape: str) -> None:
    sample = sample_text(100_000, shape)
    chars = int(mb * 1_000_000 / len(sample.encode("utf-8")) * len(sample))
    text = sample_text(chars, shape)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        root = folder / "book"
        with webnovel.init_project(root, title="big"):
            pass
        (folder / "ch.txt").write_text(text, encoding="utf-8")
        (folder / "r.json").write_text(json.dumps({"chapter": 1, "summary": "很长的一章"}))
        (folder / "cast.toml").write_text('[[entity]]\nid = "linyan"\nname = "林砚"\n', "utf-8")
        rows = [
            (
                "commit --text",
                peak_mb(root, "commit", str(folder / "r.json"), "--text", str(folder / "ch.txt")),
            ),
            ("prefill", peak_mb(root, "prefill", "1")),
            ("search", peak_mb(root, "search", "林砚")),
            ("pack", peak_mb(root, "pack", "--chapter", "2")),
        ]
        other = folder / "imported"
        with webnovel.init_project(other, title="imported"):
            pass
        rows.append(
            (
                "import text --cast",
                peak_mb(
                    other,
                    "import",
                    "text",
                    str(folder / "ch.txt"),
                    "--cast",
                    str(folder / "cast.toml"),
                ),
            )
        )
    print(f"one chapter of {mb:g} MB ({chars:,} characters, shape {shape}):")
    for name, (code, peak) in rows:
        print(f"  {name:<20} exit {code}  peak {peak} MB")


if __name__ == "__main__":
    raise SystemExit(main())
