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

from ..store import entity_ops
from ..store.connection import Connection

Signature = tuple[Any, ...] | None  # `entity_ops.reference_signatures`: (tentative, intro, names…)


@dataclass(frozen=True)
class NameChanges:
    changed: set[str]  # entities whose signature changed: later references may resolve anew
    lost: set[str]  # ...that lost a name or their introduction: adopted references are undone

    @staticmethod
    def between(before: Mapping[str, Signature], after: Mapping[str, Signature]) -> NameChanges:
        changed = {e for e in before if before[e] != after[e]}
        return NameChanges(changed, {e for e in changed if _lost_names(before[e], after[e])})


def name_changes_since(conn: Connection, before: Mapping[str, Signature]) -> NameChanges:
    """What became of the names of the entities whose signatures were `before`."""
    return NameChanges.between(before, entity_ops.reference_signatures(conn, before))


def chapters_to_apply_again(conn: Connection, chapter: int, changes: NameChanges) -> set[int]:
    """The chapters after `chapter` that referred to an entity it changed, and those before it
    that referred to one it took a name from. Looking back only then keeps an append that
    introduces (and adopts) someone as cheap as before: that looks at later chapters alone."""
    found = entity_ops.chapters_referring_to(conn, changes.changed, chapter)
    if changes.lost:
        found |= entity_ops.chapters_referring_to(conn, changes.lost, 0, before=chapter)
    return found


def _lost_names(before: Signature, after: Signature) -> bool:
    """Whether an entity lost a name or its settledness: a reveal that keeps the old name as an
    alias loses nothing."""
    if before is None:
        return False  # new: whatever it adopted is its own
    if after is None or (after[0] and not before[0]):
        return True
    return bool({name for name, _ in before[2:]} - {name for name, _ in after[2:]})
