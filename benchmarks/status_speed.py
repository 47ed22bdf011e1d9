"""How long `webnovel status` takes on a long serial imported from one file: unchanged (the
file's size and time say so, it is not read), and after one chapter was edited (the file is
read and cut again, each chapter's text hashed); then the `sync` that takes the edit in.

    python benchmarks/status_speed.py --chapters 2000 --chars 2500

Each `status` is a fresh `webnovel status` process, as an author runs it (wall time, the
Python start-up included), and the same call in process (`hand_edits.status`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import webnovel
from webnovel.book import hand_edits, source_marks


def chapter(number: int, chars: int) -> str:
    line = f"林动在第{number}座山前停下，山风吹过石桥，远处传来钟声。"
    return f"第{number}章 山路{number}\n" + line * max(1, chars // len(line)) + "\n"


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return (time.perf_counter() - started) * 1000


def in_process(root: Path) -> tuple[float, hand_edits.ChapterFiles]:
    with webnovel.open_project(root) as book:
        started = time.perf_counter()
        found = hand_edits.status(book)
        return (time.perf_counter() - started) * 1000, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=2000)
    parser.add_argument("--chars", type=int, default=2500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "book"
        with webnovel.init_project(root, title="status"):
            pass
        novel = root / "novel.txt"
        novel.write_text("".join(chapter(n, args.chars) for n in range(1, args.chapters + 1)))
        started = time.perf_counter()
        with webnovel.open_project(root) as book:
            book.import_text(novel)
        imported = time.perf_counter() - started
        cli = [sys.executable, "-m", "webnovel", "--project", str(root)]
        version = timed([sys.executable, "-m", "webnovel", "--version"])
        unchanged = timed([*cli, "status"])
        unchanged_in, found = in_process(root)
        assert not found.edited, found
        text = novel.read_text(encoding="utf-8")
        middle = args.chapters // 2
        novel.write_text(text.replace(f"第{middle}座山前", f"第{middle}座山前（改）", 1))
        edited = timed([*cli, "status"])
        edited_in, found = in_process(root)
        assert [e["chapter"] for e in found.edited] == [middle], found.edited
        synced = timed([*cli, "sync"])
        after = timed([*cli, "status"])
        after_in, found = in_process(root)
        assert not found.edited, found
        with webnovel.open_project(root) as book:  # remembered as read: not cut again
            stamp = book.store.commits.meta(source_marks.FILE_READ_KEY + "novel.txt")
            assert stamp == source_marks.file_stamp(novel)
    print(
        f"{args.chapters:,} chapters in one file, imported in {imported:.0f} s; "
        f"a bare `webnovel --version` {version:.0f} ms"
    )
    print(
        f"status, file unchanged: {unchanged:.0f} ms ({unchanged_in:.1f} ms in process); "
        f"one chapter edited: {edited:.0f} ms ({edited_in:.0f} ms in process); "
        f"sync {synced:.0f} ms; status after: {after:.0f} ms ({after_in:.1f} ms in process)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
