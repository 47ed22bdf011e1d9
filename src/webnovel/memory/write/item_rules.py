"""A named item has one holder: an entity of type 物品 given to B while A still holds it after
the chapter is in two hands (advice `item_held_elsewhere`); removing it from A in the same
chapter is a move and says nothing. Items that are not entities (灵石) may be held by many."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ..chains import TARGET, WHO, ConflictDraft
from ..store import chain_ops, entity_ops, name_ops
from .chapter_inputs import ChapterResult


def items_held_elsewhere(
    conn: sqlite3.Connection, result: ChapterResult, resolve: Callable[[str], tuple[str, float]]
) -> list[tuple[ConflictDraft, str]]:
    """(advice, scope) for each named item this chapter gives to someone while another still
    holds it; must run after the chapter is applied."""
    found = []
    for change in result.state_changes:
        if change.field != "items" or change.op != "add" or not isinstance(change.new, str):
            continue
        item = next(
            (
                e
                for i in name_ops.resolve_reference(conn, change.new)
                if (e := entity_ops.get_entity(conn, i)) is not None and e.type == "物品"
            ),
            None,
        )
        if item is None:
            continue
        receiver = resolve(change.ref)[0]
        names = {item.id, item.name, *item.aliases}
        others = [h for h in chain_ops.holders(conn, names, result.chapter) if h != receiver]
        if not others:
            continue
        draft = ConflictDraft(
            kind="item_held_elsewhere",
            chapter=result.chapter,
            entity_id=receiver,
            field="items",
            expected=others[0],
            found=change.new,
            message=f"第{result.chapter}章{WHO}得到「{change.new}」，但它此时仍在{TARGET}手里"
            "（一件有名的物品只有一个持有者）",
            evidence=({"chapter": result.chapter, "ref": f"state_change:{receiver}:items"},),
            target=others[0],
        )
        found.append((draft, f"item:{item.id}"))
    return found
