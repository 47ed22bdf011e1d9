"""Does a chapter's title find its chapter? For each 回 of 《西游记》 (public domain, the edition
in benchmarks/data/xiyouji.txt.gz), imported with no cast, the whole 回目 and each of its two
half-lines are asked as a search; a question counts when its own chapter comes first.

    python benchmarks/title_search.py
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.memory.retrieval.chunker import chapter_title_words  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        novel = Path(folder) / "xiyouji.txt"
        novel.write_text(gzip.decompress((DATA / "xiyouji.txt.gz").read_bytes()).decode("utf-8"))
        with webnovel.init_project(Path(folder) / "book", title="西游记") as book:
            book.import_text(novel)
            book.search("美猴王")  # the index is built before the clock starts
            whole = halves = whole_first = halves_first = 0
            started = time.perf_counter()
            for chapter in book.chapters():
                words = chapter_title_words(chapter["title"])
                for n, question in enumerate([words, *re.split(r"[\s\u3000]+", words)]):
                    hits = book.search(question, top_k=3)
                    first = bool(hits) and hits[0].chapter == chapter["chapter"]
                    if n == 0:
                        whole, whole_first = whole + 1, whole_first + first
                    else:
                        halves, halves_first = halves + 1, halves_first + first
            took = (time.perf_counter() - started) / (whole + halves)
    print(
        f"《西游记》: the whole 回目 finds its chapter first for {whole_first} of {whole}, "
        f"a half-line for {halves_first} of {halves}; {took * 1000:.1f} ms a search"
    )
    return 0 if whole_first >= 0.9 * whole and halves_first >= 0.9 * halves else 1


if __name__ == "__main__":
    raise SystemExit(main())
