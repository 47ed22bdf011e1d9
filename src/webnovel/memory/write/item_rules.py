"""A named item has one holder: an entity of type 物品 given to B while A still holds it after
the chapter is in two hands (advice `item_held_elsewhere`); removing it from A in the same
chapter is a move and says nothing. Items that are not entities (灵石) may be held by many."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ..chains import TARGET, WHO, ConflictDraft
from ..said import Said
from ..store import assertion_ops, chain_ops, entity_ops, name_ops
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
            message=Said(
                "conflict_item_held_elsewhere",
                chapter=result.chapter,
                who=WHO,
                thing=change.new,
                target=TARGET,
            ),
            evidence=({"chapter": result.chapter, "ref": f"state_change:{receiver}:items"},),
            target=others[0],
        )
        found.append((draft, f"item:{item.id}"))
    return found


def items_taken_from_nonholder(conn: sqlite3.Connection, start: int) -> list[ConflictDraft]:
    """A named, unique item moved, in chapter `start` or later, from someone who does not hold
    it while another does (`item_not_held`, blocking): 林砚 cannot hand over the whistle 屠七
    holds. Unique: an entity of type 物品, or a thing exactly one person holds (灵石 in many
    hands are not). Read from the stored `items` removals, each against the holders before its
    chapter, so a revision or retraction of an earlier chapter finds them again as a rebuild
    would."""
    found = []
    for giver, n, thing in assertion_ops.removals(conn, "items", start):
        names = {thing}
        for item_id in name_ops.resolve_reference(conn, thing):
            item = entity_ops.get_entity(conn, item_id)
            if item is not None and item.type == "物品":
                names |= {item.id, item.name, *item.aliases}
        entity = len(names) > 1
        before = chain_ops.holders(conn, names, n - 1)
        if giver in before or not before or (len(before) > 1 and not entity):
            continue
        holder = before[0]
        since = chain_ops.held_since(conn, holder, names, n - 1) or n - 1
        found.append(
            ConflictDraft(
                kind="item_not_held",
                chapter=n,
                entity_id=giver,
                field="items",
                expected=holder,
                found=thing,
                message=Said(
                    "conflict_item_taken_from_nonholder",
                    chapter=n,
                    who=WHO,
                    thing=thing,
                    since=since,
                    target=TARGET,
                ),
                evidence=(
                    {"chapter": since, "ref": f"state_change:{holder}:items"},
                    {"chapter": n, "ref": f"state_change:{giver}:items"},
                ),
                target=holder,
            )
        )
    return found
