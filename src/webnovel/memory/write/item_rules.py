"""A named item has one holder: an entity of type 物品 given to B while A still holds it after
the chapter is in two hands (advice `item_held_elsewhere`); removing it from A in the same
chapter is a move and says nothing. Items that are not entities (灵石) may be held by many.
A thing given by one who does not hold it is one conflict, judged across every holder's chain
(`items_given_unheld`): `item_not_held` when another holds it, else `set_remove_missing`."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...config import BookConfig
from ..chains import TARGET, WHO, ConflictDraft, Family, chain_key
from ..said import Said
from ..store import assertion_ops, chain_ops, entity_ops, name_ops, record_ops
from ..store.connection import Connection
from .chain_folds import replay
from .chapter_inputs import ChapterResult


def items_held_elsewhere(
    conn: Connection, result: ChapterResult, resolve: Callable[[str], tuple[str, float]]
) -> list[tuple[ConflictDraft, str]]:
    """(advice, scope) for each named item this chapter gives to someone while another still
    holds it; must run after the chapter is applied."""
    found = []
    given = [
        change
        for change in result.state_changes
        if change.field == "items" and change.op == "add" and isinstance(change.new, str)
    ]
    # every item's name resolved in one read (on PostgreSQL each read waits a round trip)
    named = name_ops.resolve_references(conn, [str(change.new) for change in given])
    for change in given:
        item = next(
            (
                e
                for i in named.get(str(change.new), [])
                if (e := entity_ops.get_entity(conn, i)) is not None and e.type == "物品"
            ),
            None,
        )
        if item is None:
            continue
        receiver = resolve(change.ref)[0]
        names = {item.id, item.name, *item.aliases}
        others = [h for h in chain_ops.item_holders(conn, names, result.chapter) if h != receiver]
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


def judged_with_every_holder(draft: ConflictDraft) -> bool:
    """A removal from `items` of a thing not held: the chain that finds it sees one entity's
    items only, so `items_given_unheld` judges it once every chain is replayed (whether another
    holds the thing decides the kind); the chain's replay does not record it."""
    return draft.kind == "set_remove_missing" and draft.field == "items"


ITEM_SCOPE = "item_moves"  # where every removal of an item not held is recorded


def items_given_unheld(
    conn: Connection,
    config: BookConfig,
    start: int,
    again: int | None = None,
    adopted: Iterable[str] = (),
) -> list[tuple[ConflictDraft, str]]:
    """(conflict, id scope) for each thing taken, in chapter `start` or later, from an entity's
    `items` that did not hold it: one mistake, one conflict. `item_not_held` (blocking) when it
    is a named, unique item another holds: 林砚 cannot hand over the whistle 屠七 holds. Unique:
    an entity of type 物品, or a thing exactly one entity holds (灵石 in many hands are not).
    Otherwise `set_remove_missing`, as the giver's chain found it (its id as it always was).

    Whether the giver held it is the chain's own fold, replayed again (it sees the things
    received earlier in the same chapter); who else held it is read from every chain as it now
    stands, before the chapter, by the ids references resolve to now. With `again` (a holder
    adopted, an item entity changed), the mistakes already recorded from `again` on are judged
    again too, and every removal by the `adopted` entities: a pending holder is then named by
    its entity, and a thing that became an item is unique, as a rebuild finds them. Only their
    givers' chains are replayed, from their first mistake: whether one held a thing is his
    chain's alone, unchanged before `start` unless adopted."""
    first = {giver: start for giver, _, _ in assertion_ops.removals(conn, "items", start)}
    if again is not None and again < start:
        for giver, chapter in record_ops.first_conflicts_of(conn, ITEM_SCOPE, again, start).items():
            first[giver] = min(chapter, first.get(giver, chapter))
        first |= dict.fromkeys(adopted, again)
    starts: dict[tuple[Family, str], int] = {
        ("fact", chain_key(giver, "items")): since for giver, since in first.items()
    }
    found = []
    for (family, key), (opened, assertions) in sorted(
        chain_ops.replay_inputs(conn, starts).items()
    ):
        for draft in replay(family, opened, assertions, config).conflicts:
            if judged_with_every_holder(draft):
                taken = _taken_from_holder(conn, draft)
                found.append((taken, ITEM_SCOPE) if taken else (draft, f"{family}:{key}"))
    return found


def _taken_from_holder(conn: Connection, missing: ConflictDraft) -> ConflictDraft | None:
    """The `item_not_held` this removal of a thing not held is, if another holds it alone."""
    giver, n, thing = missing.entity_id, missing.chapter, missing.expected
    if giver is None or not isinstance(thing, str):
        return None
    names = {thing}
    for item_id in name_ops.resolve_reference(conn, thing):
        item = entity_ops.get_entity(conn, item_id)
        if item is not None and item.type == "物品":
            names |= {item.id, item.name, *item.aliases}
    entity = len(names) > 1
    before = chain_ops.item_holders(conn, names, n - 1)
    if giver in before or not before or (len(before) > 1 and not entity):
        return None
    holder = before[0]
    since = chain_ops.held_since(conn, holder, names, n - 1) or n - 1
    return ConflictDraft(
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


def item_entities(conn: Connection, ids: Iterable[str]) -> set[str]:
    """Which of these entities are items (type 物品): their names decide which things are
    unique, so one introduced, renamed or taken back has every removal judged again."""
    ids = set(ids)  # one statement for all (a round trip on PostgreSQL), none for no entity
    found = entity_ops.get_entities(conn, ids) if ids else {}
    return {i for i, entity in found.items() if entity.type == "物品"}
