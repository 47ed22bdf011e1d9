"""Items as things in the world: every item ever added to someone's 物品 can be asked for by
name, whether or not a chapter introduced it: who holds it as of a chapter (`holder`, 持有者),
and it is listed among the book's items."""

from __future__ import annotations

import hashlib

from ..schema import Entity, MemoryItem
from ..store import chain_ops
from ..store.connection import Connection
from ..store.index_store import dumps
from .as_of_reads import names_as_of

HOLDER = "holder"


def carried(conn: Connection, as_of: int | None) -> dict[str, int]:
    """Every item name some `items` set has held by chapter `as_of`, with the first chapter."""
    first: dict[str, int] = {}
    for value, valid_from in chain_ops.item_sets(conn, as_of):
        for name in value if isinstance(value, list) else [value]:
            if name is not None:
                first.setdefault(str(name), valid_from)
    return first


def unintroduced(conn: Connection, as_of: int | None, known: list[Entity]) -> list[Entity]:
    """The items held by someone but never introduced, as entities of type 物品 named by
    themselves (their id is their name), for a listing beside the introduced ones."""
    taken = {n for e in known for n in (e.id, e.name, *e.aliases)}
    return [
        Entity(id=name, name=name, type="物品", first_chapter=chapter)
        for name, chapter in carried(conn, as_of).items()
        if name not in taken
    ]


def holder(conn: Connection, names: set[str], shown: str, as_of: int | None) -> MemoryItem | None:
    """Who holds the item known by `names` as of chapter `as_of` (None: now), as a fact of the
    item named `shown`: the holder's name (names, when several hold a thing of that name), since
    the chapter they have held it from. None when nobody does."""
    at = as_of if as_of is not None else 2**62
    ids = chain_ops.item_holders(conn, names, as_of)
    if not ids:
        return None
    people = names_as_of(conn, ids, as_of)  # as chapter `as_of` knew them
    since = max(chain_ops.held_since(conn, i, names, at) or 0 for i in ids)
    value: str | list[str] = (
        people.get(ids[0], ids[0]) if len(ids) == 1 else [people.get(i, i) for i in ids]
    )
    digest = hashlib.blake2b(dumps(value).encode("utf-8"), digest_size=3).hexdigest()
    return MemoryItem(
        id=f"fact:{shown}:{HOLDER}:{since}:{digest}",
        subject=shown,
        field=HOLDER,
        value=value,
        status="active",
        valid_from=since,
        valid_to=None,
        source_chapter=since,
        source_type="items",
        evidence=tuple(
            {
                "chapter": chain_ops.held_since(conn, i, names, at) or since,
                "ref": f"state_change:{i}:items",
            }
            for i in ids
        ),
        subject_name=shown,
    )
