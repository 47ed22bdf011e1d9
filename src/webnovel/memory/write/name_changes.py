"""What a chapter's commit did to the names references resolve by, and so which other chapters
must be applied again to read their references as a rebuild would.

A reference resolves by the entities' names as they stand when its chapter is applied; a name
no one has yet becomes a pending (tentative) entity, which a later introduction under that name
adopts. So when a commit changes an entity's names, settledness or introduction, the later
chapters that referred to it may now mean someone else; and when it takes a name away (a
retraction, a revision that no longer introduces him), the earlier chapters it had adopted
references from are pending again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..store import commit_ops, entity_ops
from ..store.connection import Connection

# `entity_ops.reference_signatures`: (tentative, intro chapter, (name, kind)…), None: no entity
Signature = tuple[Any, ...] | None


@dataclass(frozen=True)
class NameChanges:
    changed: set[str]  # entities whose signature changed: later references may resolve anew
    lost: dict[str, set[str]]  # ...each with the names it lost: references adopted by them undone

    @staticmethod
    def between(before: Mapping[str, Signature], after: Mapping[str, Signature]) -> NameChanges:
        changed = {e for e in before if before[e] != after[e]}
        lost = {e: _lost_names(before[e], after[e]) for e in changed}
        return NameChanges(changed, {e: names for e, names in lost.items() if names})


def name_changes_since(conn: Connection, before: Mapping[str, Signature]) -> NameChanges:
    """What became of the names of the entities whose signatures were `before`."""
    return NameChanges.between(before, entity_ops.reference_signatures(conn, before))


def chapters_to_apply_again(conn: Connection, chapter: int, changes: NameChanges) -> set[int]:
    """The chapters after `chapter` that referred to an entity it changed, and those before it
    that referred to one it took a name from, by that name: a reference adopted is one made by
    a name (or id) the entity took on later, so a chapter whose result never writes a lost name
    resolves as it did. Looking back only then keeps an append that introduces (and adopts)
    someone as cheap as before, and a retracted reveal from reading every chapter before it
    that names him by his old name."""
    found = entity_ops.chapters_referring_to(conn, changes.changed, chapter)
    if changes.lost:
        earlier = entity_ops.chapters_referring_to(conn, changes.lost, 0, before=chapter)
        names = {name for lost in changes.lost.values() for name in lost}
        found |= commit_ops.chapters_naming(conn, earlier, names)
    return found


def _lost_names(before: Signature, after: Signature) -> set[str]:
    """The names an entity lost (an entity left with no introduction keeps its id alone); a
    reveal that keeps the old name as an alias loses none."""
    if before is None:
        return set()  # new: whatever it adopted is its own
    kept = set() if after is None else {name for name, _ in after[2:]}
    return {name for name, _ in before[2:]} - kept
