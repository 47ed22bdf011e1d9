"""How long `webnovel import text` takes on a long serial in one GB18030 file, the search index
included: the whole CLI command as an author runs it, then the first search.

    python benchmarks/import_speed.py --chapters 1339 --chars 2600

The novel is the seeded saga's text (benchmarks/saga.py) under 第N章 headings, about 3.5 M
characters at the defaults; no public-domain serial of that length ships with the project.
Then a fresh `webnovel search` process on that book, wall and CPU, alternating with a fresh
`webnovel fact` (the imported text names no entities: `fact` answers that it knows none).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from search_speed import fresh_processes  # noqa: E402

from saga import generate_saga  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=1339)
    parser.add_argument("--chars", type=int, default=2600)
    args = parser.parse_args()
    saga = generate_saga(args.chapters, seed=3, text_chars=args.chars)
    novel = "".join(
        f"第{n}章 {r.get('title') or ''}\n{(t or '').split(chr(10), 2)[-1]}\n"
        for n, (r, t) in enumerate(zip(saga.results, saga.texts, strict=True), start=1)
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "novel.txt"
        path.write_bytes(novel.encode("gb18030"))
        root = Path(folder) / "book"
        with webnovel.init_project(root, title="import"):
            pass
        cli = [sys.executable, "-m", "webnovel", "--project", str(root)]
        started = time.perf_counter()
        subprocess.run([*cli, "import", "text", str(path)], check=True, capture_output=True)
        imported = time.perf_counter() - started
        subprocess.run([*cli, "search", "青云城"], check=True, capture_output=True)
        total = time.perf_counter() - started
        fresh = fresh_processes(root, "青云城")
        with webnovel.open_project(root) as book:
            count = book.latest_chapter()
            titles_right = all(
                c["title"].startswith(f"第{c['chapter']}章") for c in book.chapters()
            )
    print(
        f"{count:,} chapters ({len(novel):,} characters, GB18030): import {imported:.1f} s, "
        f"with the search index {total:.1f} s; titles right: {titles_right}"
    )
    print({"fresh process, alternating (ms)": fresh})
    return 0 if count == args.chapters and titles_right else 1


if __name__ == "__main__":
    raise SystemExit(main())
