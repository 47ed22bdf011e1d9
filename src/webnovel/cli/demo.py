"""`webnovel demo`: build a book from the bundled sample serial and show what memory knows."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from ..book import Project, init_project
from ..book.words import FIELD, label
from ..errors import ProjectExists, UnknownEntity
from ..messages import say
from . import render
from .commands import emit
from .progress import ProgressBar


def demo(args: argparse.Namespace) -> int:
    from ..ingest.sample_book import sample_book_dir, sample_chapters, sample_meta  # demo only

    folder: Path = args.folder
    memory = folder / ".webnovel"
    if memory.exists():
        if not (memory / "demo").exists():
            raise ProjectExists(say("demo_not_ours", folder=folder))
        shutil.rmtree(memory)
    meta = sample_meta()
    chapters = list(sample_chapters())
    with init_project(folder, title=meta["title"], genre=meta.get("genre")) as book:
        (memory / "demo").write_text("made by `webnovel demo`; safe to delete\n")
        for extra in ("outlines", "drafts"):  # next chapter's outline, a draft to review
            source = sample_book_dir() / extra
            if source.is_dir():
                shutil.copytree(source, folder / extra, dirs_exist_ok=True)
        with ProgressBar("commit") as bar:
            for done, chapter in enumerate(chapters, start=1):
                book.commit(chapter.result, text=chapter.text)
                bar.update(done, len(chapters))
        data = _demo_report(book, meta)
    emit(args, data, _demo_text)
    return 0


def _demo_report(book: Project, meta: dict[str, Any]) -> dict[str, Any]:
    show = meta.get("demo", {})
    protagonist = book.entity(show.get("protagonist", ""))
    subject, field = show.get("history", [protagonist.id, "realm"])
    try:
        history_items = [i.to_dict() for i in book.history(subject, field)]
    except UnknownEntity:
        history_items = []
    return {
        "book": book.book,
        "chapters": book.latest_chapter(),
        "protagonist": {
            "id": protagonist.id,
            "name": protagonist.name,
            "now": {i.field: i.value for i in book.facts(protagonist.id)},
        },
        "history": {"subject": subject, "field": field, "versions": history_items},
        "relations": [r.to_dict() for r in book.relations(protagonist.id)],
        "open_threads": [t.to_dict() for t in book.threads("open")],
        "conflicts": [c.to_dict() for c in book.conflicts()],
    }


def _demo_text(d: dict[str, Any]) -> str:
    p = d["protagonist"]
    lines = [
        f"《{d['book']['title']}》：已提交 {d['chapters']} 章，记忆在 {d['book']['root']}",
        "",
        f"主角现状：{p['name']}",
    ]
    lines += [f"  {label(FIELD, k)}：{render.value_text(v)}" for k, v in p["now"].items()]
    lines += [
        "",
        f"{p['name']} 的{label(FIELD, d['history']['field'])}历史：",
        render.history_text(d["history"]["versions"]),
        "",
        "当前关系：",
        render.relations_text(d["relations"]),
        "",
        "未回收的线索：",
        render.threads_text(d["open_threads"]),
        "",
        "未决矛盾：",
        render.conflicts_text(d["conflicts"]),
        "",
        f"试试：webnovel --project {d['book']['root']} fact {p['name']} 境界 --as-of 3",
        f"      webnovel --project {d['book']['root']} dashboard --open"
        "   # 记忆面板（需 pip install 'webnovel-memory[dashboard]'）",
    ]
    return "\n".join(lines)
