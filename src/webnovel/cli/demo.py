"""`webnovel demo`: build a book from the bundled sample serial and show what memory knows."""

from __future__ import annotations

import argparse
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..book import Project, init_project
from ..book.resume import ProtagonistNow
from ..book.values import Conflict, RelationEdge, Thread
from ..book.words import FIELD, label
from ..errors import ProjectExists, UnknownEntity
from ..messages import say
from ..queries import answers
from ..queries.answers import Versions, dicts
from ..untrusted.safe_paths import refuse_link_below
from . import render
from .commands import emit
from .progress import ProgressBar


def demo(args: argparse.Namespace) -> int:
    from ..ingest.sample_book import sample_book_dir, sample_chapters, sample_meta  # demo only

    folder: Path = args.folder
    memory = folder / ".webnovel"
    if memory.exists():
        if not (memory / "demo").exists():
            raise ProjectExists.of("demo_not_ours", folder=folder)
        shutil.rmtree(memory)
    meta = sample_meta()
    chapters = list(sample_chapters())
    with init_project(folder, title=meta["title"], genre=meta.get("genre")) as book:
        (memory / "demo").write_text("made by `webnovel demo`; safe to delete\n")
        for extra in ("outlines", "drafts"):  # next chapter's outline, a draft to review
            source = sample_book_dir() / extra
            if source.is_dir():
                refuse_link_below(folder, folder / extra)  # copied into, never through a link
                shutil.copytree(source, folder / extra, dirs_exist_ok=True)
        with ProgressBar("commit") as bar:
            for done, chapter in enumerate(chapters, start=1):
                book.commit(chapter.result, text=chapter.text)
                bar.update(done, len(chapters))
        report = _demo_report(book, meta)
    emit(args, report.to_dict(), lambda _: _demo_text(report))
    return 0


@dataclass(frozen=True, kw_only=True)
class DemoReport:
    """What the demo shows of the book it built: the protagonist now, one field's history,
    relations, open threads and conflicts."""

    book: dict[str, Any]
    chapters: int | None
    protagonist: ProtagonistNow
    history_subject: str
    history_field: str
    history: Versions
    relations: tuple[RelationEdge, ...]
    open_threads: tuple[Thread, ...]
    conflicts: tuple[Conflict, ...]

    def to_dict(self) -> dict[str, Any]:
        p = self.protagonist
        return {
            "book": self.book,
            "chapters": self.chapters,
            "protagonist": {"id": p.id, "name": p.name, "now": p.now},
            "history": {
                "subject": self.history_subject,
                "field": self.history_field,
                "versions": [i.to_dict() for i in self.history.items],
            },
            "relations": dicts(self.relations),
            "open_threads": dicts(self.open_threads),
            "conflicts": dicts(self.conflicts),
        }


def _demo_report(book: Project, meta: dict[str, Any]) -> DemoReport:
    show = meta.get("demo", {})
    protagonist = book.entity(show.get("protagonist", ""))
    subject, field = show.get("history", [protagonist.id, "realm"])
    try:
        history = answers.history(book, subject, field, None)
    except UnknownEntity:
        history = Versions(items=(), labels={})
    return DemoReport(
        book=book.book,
        chapters=book.latest_chapter(),
        protagonist=ProtagonistNow(
            id=protagonist.id,
            name=protagonist.name,
            now={i.field: i.value for i in book.facts(protagonist.id)},
        ),
        history_subject=subject,
        history_field=field,
        history=history,
        relations=tuple(book.relations(protagonist.id)),
        open_threads=tuple(book.threads("open")),
        conflicts=tuple(book.conflicts()),
    )


def _demo_text(d: DemoReport) -> str:
    p, root = d.protagonist, d.book["root"]
    lines = [
        say("demo_head", title=d.book["title"], chapters=d.chapters, root=root),
        "",
        say("demo_protagonist", name=p.name),
    ]
    lines += [
        say("demo_field_line", field=label(FIELD, k), value=render.value_text(v))
        for k, v in p.now.items()
    ]
    lines += [
        "",
        say("demo_history_head", name=p.name, field=label(FIELD, d.history_field)),
        render.history_text(d.history),
        "",
        say("demo_relations_head"),
        render.relations_text(d.relations),
        "",
        say("resume_open_threads"),
        render.threads_text(d.open_threads),
        "",
        say("resume_open_conflicts"),
        render.conflicts_text(d.conflicts),
        "",
        say("demo_try", root=root, name=p.name),
    ]
    return "\n".join(lines)
