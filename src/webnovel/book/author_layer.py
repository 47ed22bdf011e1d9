"""The author's decisions about the cast, kept as their own layer: what `candidates accept` and
`candidates merge` decided, beside the chapter results they were written into.

A decision is written into the results of the chapters whose text names the candidate (the
introduction in the first, an appearance in each), as before; it is also kept in the book's meta
table (`author_decisions`, which a rebuild leaves alone), with those chapters. So when
extraction replaces a chapter's result, even one a model already extracted (`--force`), the
decisions for that chapter are written into the new result again, and win over the model's:
the accepted 岳飞 keeps his id, the merged 岳爷 stays his alias.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..untrusted import json_limits

if TYPE_CHECKING:
    from .project import Project

DECISIONS_KEY = "author_decisions"


def decisions(book: Project) -> list[dict[str, Any]]:
    raw = book.store.commits.meta(DECISIONS_KEY)
    found = json_limits.loads(raw, DECISIONS_KEY) if raw else []  # a received book's meta
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def record(book: Project, decision: dict[str, Any]) -> None:
    """Keep a decision (the newest about a name replaces an older one)."""
    kept = [d for d in decisions(book) if d.get("name") != decision.get("name")]
    with book.storage.writing() as store:
        store.commits.set_meta(DECISIONS_KEY, json.dumps([*kept, decision], ensure_ascii=False))


def forget(book: Project, name: str) -> dict[str, Any] | None:
    """Drop the decision about `name`; returns it (None: there was none)."""
    found = decisions(book)
    dropped = next((d for d in found if d.get("name") == name), None)
    if dropped is not None:
        kept = [d for d in found if d is not dropped]
        with book.storage.writing() as store:
            store.commits.set_meta(DECISIONS_KEY, json.dumps(kept, ensure_ascii=False))
    return dropped


def for_chapter(decided: list[dict[str, Any]], chapter: int) -> dict[str, list[dict[str, Any]]]:
    """What the decisions (`decisions`, read once a run) write into chapter `chapter`'s
    result: introductions (in the first chapter naming each name) and appearances (in every
    chapter naming it)."""
    intros: list[dict[str, Any]] = []
    appeared: list[dict[str, Any]] = []
    for decision in decided:
        chapters = decision.get("chapters") or []
        if chapter not in chapters or not isinstance(decision.get("intro"), dict):
            continue
        if chapter == chapters[0]:
            intros.append(dict(decision["intro"]))
        appeared.append({"id": decision["entity_id"], "mentions": [decision["name"]]})
    return {"entities_new": intros, "entities_appeared": appeared}
