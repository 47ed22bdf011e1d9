"""Peak memory of single commands on one huge chapter (the goal: at most 500 MB RSS on a 50 MB
chapter). Each command runs as a fresh process and reports its own peak RSS.

    python benchmarks/big_chapter.py --mb 50
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import webnovel
from webnovel.ingest.sample_book import sample_chapters

PEAK = (
    "import resource, sys; from webnovel.cli.main import main; code = main(sys.argv[1:]); "
    "print('peak_mb', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, "
    "file=sys.stderr); sys.exit(code)"
)


def peak_mb(root: Path, *args: str) -> tuple[int, int]:
    """(exit code, peak RSS in MB) of `webnovel --project ROOT ARGS` in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, "--project", str(root), *args],
        capture_output=True,
        text=True,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("peak_mb"))
    return done.returncode, int(line.split()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=50.0, help="chapter size in MB of UTF-8")
    args = parser.parse_args()
    sample = "".join(chapter.text for chapter in sample_chapters())
    chars = int(args.mb * 1_000_000 / len(sample.encode("utf-8")) * len(sample))
    text = (sample * (chars // len(sample) + 1))[:chars]
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
    print(f"one chapter of {args.mb:g} MB ({chars:,} characters):")
    for name, (code, mb) in rows:
        print(f"  {name:<20} exit {code}  peak {mb} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
