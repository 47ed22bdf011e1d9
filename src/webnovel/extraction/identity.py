"""Who is who in a model's answer, checked against the cast memory knows before it is committed.

A model may re-introduce a known entity under another entity's name (岳飞 `revealed` as 秦桧):
committed, that renames one person to another's name and leaves both answering to it. Such an
answer goes back to the model, quoting each rewrite, within the run's repair budget; if it
comes back unchanged, the commit records it as a blocking conflict (`reveal_takes_name`) for
the author to settle, never as a silent rename.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..memory.schema import Entity
from ..messages import say


def cast_rewrites(result: dict[str, Any], known: Iterable[Entity]) -> list[str]:
    """A problem (by JSON path, for the repair turn) for each `entities_new` that gives a known
    entity a name or alias another known entity holds."""
    cast = [e for e in known if not e.tentative]
    by_id = {e.id: e for e in cast}
    holders: dict[str, Entity] = {}
    for entity in cast:
        for name in (entity.name, *entity.aliases):
            holders.setdefault(name, entity)
    problems = []
    new = result.get("entities_new")
    for i, item in enumerate(new if isinstance(new, list) else []):
        if not isinstance(item, dict) or item.get("id") not in by_id:
            continue
        entity = by_id[item["id"]]
        written = item.get("aliases")
        aliases: list[Any] = written if isinstance(written, list) else []
        for key, name in [("name", item.get("name")), *(("aliases", a) for a in aliases)]:
            holder = holders.get(name) if isinstance(name, str) else None
            if holder is None or holder.id == entity.id:
                continue
            problems.append(
                say(
                    "extract_cast_rewrite",
                    path=f"$.entities_new[{i}].{key}",
                    entity_id=entity.id,
                    entity_name=entity.name,
                    name=name,
                    holder_id=holder.id,
                    holder_name=holder.name,
                )
            )
    return problems
