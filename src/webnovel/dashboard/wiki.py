"""The reader wiki (`webnovel wiki OUT --as-of N`): a static site for readers who have read up to
chapter N. Character cards, places, factions, items, their relations and the story's events,
all read as of N, so nothing from a later chapter is in it: the same pages made from a copy of
the book holding only chapters 1..N are byte for byte the same.

Secrets are left out whole: what a character knows is often what the reader must not yet.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..book.project import Project
from ..book.words import ENTITY_TYPE_PLURAL
from ..errors import InvalidInput
from ..messages import say
from ..untrusted.safe_paths import open_regular
from . import graph_view, pages
from .templating import STATIC, render
from .view_models import context_of

TYPE_ORDER = ("角色", "地点", "势力", "物品")


def page_name(entity_id: str) -> str:
    """A file name for an entity's page: ids may hold any character, file names may not."""
    return "e-" + hashlib.blake2b(entity_id.encode("utf-8"), digest_size=6).hexdigest() + ".html"


def write_wiki(
    book: Project, out: Path, as_of: int | None, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    latest = book.latest_chapter()
    if latest is None:
        raise InvalidInput.of("wiki_empty")
    as_of = latest if as_of is None else as_of
    if not 1 <= as_of <= latest:
        raise InvalidInput.of("wiki_as_of", latest=latest, as_of=as_of)
    if out.exists() and any(out.iterdir()) and not (out / "wiki.css").exists():
        raise InvalidInput.of("wiki_folder_taken", out=out)
    out.mkdir(parents=True, exist_ok=True)
    entities = book.entities(as_of)
    names = {e.id: e.name for e in entities}
    links = {e.id: page_name(e.id) for e in entities}
    frame = {
        "title": book.book["title"] or say("untitled"),
        "as_of": as_of,
        "root": "",
        "pages": links,
        "fields": book.fields,
    }

    def write(name: str, template: str, **context: Any) -> None:
        write_page(out / name, render(template, **frame, **context).encode("utf-8"))

    groups = []
    for kind in (*TYPE_ORDER, *sorted({e.type for e in entities} - set(TYPE_ORDER))):
        members = [e for e in entities if e.type == kind]
        if members:
            groups.append((kind, ENTITY_TYPE_PLURAL.get(kind, kind), members))
    write("index.html", "wiki/index.html", groups=groups)

    for done, entity in enumerate(entities, start=1):
        facts = book.facts(entity.id, as_of)
        relations = [
            {
                "edge": edge,
                "other_id": other,
                "other": names[other],
                "outgoing": edge.source == entity.id,
                "group": graph_view.relation_group(edge.type),
            }
            for edge in book.relations(entity.id, as_of)
            for other in [edge.target if edge.source == entity.id else edge.source]
            if other in names
        ]
        write(
            links[entity.id],
            "wiki/entity.html",
            entity=entity,
            facts=pages.field_rows(book, facts),
            dead_since=pages.death(book, facts),
            relations=relations,
            history=sorted(
                (h for h in book.history(entity.id, as_of=as_of) if h.status != "tentative"),
                key=lambda h: (h.valid_from, h.field),
            ),
            events=book.timeline(entity=entity.id, as_of=as_of),
        )
        if progress:
            progress(done, len(entities))

    graph = graph_view.graph(book, as_of, None, 1, 1)
    write("relations.html", "wiki/relations.html", view=graph, **context_of(graph))
    timeline = book.timeline(as_of=as_of)
    write(
        "timeline.html",
        "wiki/timeline.html",
        events=[
            {"event": e, "who": [names[p] for p in e.participants if p in names]} for e in timeline
        ],
    )
    write_page(out / "wiki.css", (STATIC / "dashboard.css").read_bytes())
    return {"folder": str(out), "as_of": as_of, "entities": len(entities), "events": len(timeline)}


def write_page(path: Path, content: bytes) -> None:
    """Write one file of the wiki, never through a link: OUT is the person's choice, but the
    files already in it may have come with a received book (an `index.html` linked to their
    notes would be overwritten), so a link there is refused, naming it, and nothing is written
    through it. Truncated only once it is known to be a regular file of its own."""
    fd = open_regular(path, os.O_WRONLY | os.O_CREAT)
    with os.fdopen(fd, "wb") as page:
        page.truncate()
        page.write(content)
