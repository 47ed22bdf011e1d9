"""The author's decisions about the cast, kept as their own layer: what `candidates accept` and
`candidates merge` decided and what `rename` renamed, beside the chapter results they were
written into.

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
    from ..memory.store.parts import StoreParts
    from ..memory.store.storage import Storage

DECISIONS_KEY = "author_decisions"
RENAMED = "renamed"  # `rename`: an entity's name from a chapter on (the others answer candidates)


def decisions(store: StoreParts) -> list[dict[str, Any]]:
    """The decisions kept, read through the book's reader (`book.store`), or inside a write."""
    raw = store.commits.meta(DECISIONS_KEY)
    found = json_limits.loads(raw, DECISIONS_KEY) if raw else []  # a received book's meta
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def record(storage: Storage, decision: dict[str, Any]) -> None:
    """Keep a decision (the newest about a name replaces an older one; renames are kept each,
    in order, beside the candidates' answers)."""
    renaming = decision.get("action") == RENAMED
    with storage.writing() as store:  # read and written in one transaction
        kept = [
            d
            for d in decisions(store)
            if renaming or d.get("action") == RENAMED or d.get("name") != decision.get("name")
        ]
        _write(store, [*kept, decision])


def forget_decision(storage: Storage, decision: dict[str, Any]) -> None:
    """Drop one decision (as `decisions` read it)."""
    with storage.writing() as store:
        _write(store, [d for d in decisions(store) if d != decision])


def _write(store: StoreParts, kept: list[dict[str, Any]]) -> None:
    store.commits.set_meta(DECISIONS_KEY, json.dumps(kept, ensure_ascii=False))


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
        if decision.get("action") != RENAMED:  # a rename names no one in the text
            appeared.append({"id": decision["entity_id"], "mentions": [decision["name"]]})
    return {"entities_new": renamed_intros(decided, intros, chapter), "entities_appeared": appeared}


def renamed_intros(decided: list[dict[str, Any]], intros: list[Any], chapter: int) -> list[Any]:
    """The introductions of chapter `chapter` with the author's renames from it or before
    applied, in order: in the chapter a rename starts from, the entity's introduction takes the
    new name; later, one still giving it the old name (an accept or merge decided before the
    rename) does. The name replaced stays an alias."""
    out = list(intros)
    for decision in decided:
        start = (decision.get("chapters") or [None])[0]
        if decision.get("action") != RENAMED or not isinstance(start, int) or start > chapter:
            continue
        old, new = decision.get("old_name"), decision["name"]
        out = [
            _renamed(item, old, new, every=chapter == start)
            if isinstance(item, dict) and item.get("id") == decision["entity_id"]
            else item
            for item in out
        ]
    return out


def _renamed(item: dict[str, Any], old: Any, new: str, every: bool) -> dict[str, Any]:
    """An introduction named `new` instead of `old` (or of any name, `every`), the name it
    had and `old` kept as aliases."""
    if item.get("name") == new or not (every or item.get("name") == old):
        return item
    names = [*(item.get("aliases") or []), item.get("name"), old]
    aliases = [a for a in dict.fromkeys(names) if isinstance(a, str) and a != new]
    return {**item, "name": new, "aliases": aliases}
