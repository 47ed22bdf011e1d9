"""Without a model: does an imported chapter's extractive summary name the people its title
names? Measured on 《西游记》 (Wu Cheng'en, 16th century, public domain; the edition in
benchmarks/data/xiyouji.txt.gz), imported with no cast, as an author would.

    python benchmarks/summary_quality.py

A chapter's people are those of benchmarks/data/xiyouji_cast.toml whose name or epithet its
回目 holds (心猿 is 孙悟空, 木母 猪八戒, …); the cast is used only to judge, never given to the
import. A person counts as named when the summary holds any of that person's names. Reported:
the share of (chapter, person) pairs named, the share of chapters naming all their people, and
the import's time (summaries, endings and the search index included).
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
TITLE = re.compile(r"^第\S+?回[　 ]*")


def main() -> int:
    cast = tomllib.loads((DATA / "xiyouji_cast.toml").read_text(encoding="utf-8"))["entity"]
    names = {e["id"]: [e["name"], *e["aliases"]] for e in cast}
    with tempfile.TemporaryDirectory() as folder:
        novel = Path(folder) / "xiyouji.txt"
        novel.write_text(gzip.decompress((DATA / "xiyouji.txt.gz").read_bytes()).decode("utf-8"))
        with webnovel.init_project(Path(folder) / "book", title="西游记") as book:
            started = time.perf_counter()
            book.import_text(novel)
            imported = time.perf_counter() - started
            book.search("美猴王")
            indexed = time.perf_counter() - started
            chapters = book.chapters()
            pack = book.build_memory_pack(chapter=len(chapters) + 1, record=False)
    pairs = named = whole = with_people = 0
    misses: list[str] = []
    for chapter in chapters:
        title = TITLE.sub("", chapter["title"] or "")
        people = [i for i, ns in names.items() if any(n in title for n in ns)]
        if not people:
            continue
        with_people += 1
        summary = chapter["summary"] or ""
        hit = [i for i in people if any(n in summary for n in names[i])]
        pairs += len(people)
        named += len(hit)
        whole += len(hit) == len(people)
        if len(hit) < len(people):
            misses.append(f"{chapter['chapter']}:{title}")
    pair_share = named / pairs if pairs else 0.0
    print(
        f"《西游记》 {len(chapters)} 回, no cast: the summary names {named} of the {pairs} people "
        f"its 回目 names ({pair_share:.0%}); all of them in {whole} of {with_people} 回 "
        f"({whole / with_people:.0%})"
    )
    print(
        f"import {imported:.1f} s (summaries and endings included), with the search index "
        f"{indexed:.1f} s; pack for 回 {len(chapters) + 1} without outline or query: "
        f"{pack.used_tokens} tokens in {len([s for s in pack.sections if s.items])} sections"
    )
    print("回 missing someone:", "; ".join(misses[:12]), "…" if len(misses) > 12 else "")
    return 0 if pair_share >= 0.5 and pack.used_tokens > 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
