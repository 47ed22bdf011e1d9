"""Items as things in the world: every item ever added to someone's 物品 can be asked for by
name, whether or not a chapter introduced it: who holds it as of a chapter (`holder`, 持有者),
who held it from when to when (its history), and it is listed among the book's items."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from ..chains import chain_key
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


@dataclass(frozen=True)
class Holding:
    """Who held an item over `[since, until)` (ids; none: nobody, once someone had held it),
    with the evidence of the chapter `since`: the hands it came into, or left."""

    since: int
    until: int | None
    holders: tuple[str, ...]
    evidence: tuple[dict[str, Any], ...]


def holdings(conn: Connection, names: set[str], as_of: int | None) -> list[Holding]:
    """The item known by `names` through the chapters, as chapter `as_of` knew them (None: now):
    who held it from when to when, oldest first, from everyone's 物品. A stretch with nobody
    holding it (used up, destroyed, lost) is one too, once someone had held it."""
    held: list[tuple[str, int, int | None]] = []  # (holder, from, to)
    evidence: dict[int, list[dict[str, Any]]] = {}  # chapter → how it came or went then
    for holder in chain_ops.ever_held(conn, names, as_of):
        holding = False
        for version in chain_ops.chain_history(conn, "fact", chain_key(holder, "items"), as_of):
            if version.status == "tentative":
                continue
            value = version.value if isinstance(version.value, list) else [version.value]
            holds = bool(names & {str(v) for v in value})
            if holds and version.valid_to != version.valid_from:  # one replaced in its chapter
                held.append((holder, version.valid_from, version.valid_to))
            if holds != holding:  # taken or given up in this chapter: its quote says how
                evidence.setdefault(version.valid_from, []).extend(version.evidence[:1])
            holding = holds
    changes = sorted({c for _, start, end in held for c in (start, end) if c is not None})
    if not changes:  # nobody has held it (by then)
        return []
    out: list[Holding] = []
    for at, after in zip(changes, [*changes[1:], None], strict=True):
        who = tuple(
            sorted({h for h, start, end in held if start <= at and (end is None or end > at)})
        )
        if out and out[-1].holders == who:  # the same hands: one stretch
            out[-1] = replace(out[-1], until=after)
        elif who or out:  # nobody before anyone held it is no stretch of its history
            out.append(Holding(at, after, who, tuple(evidence.get(at, ()))))
    return out


def holder_history(
    conn: Connection, subject: str, names: set[str], shown: str, as_of: int | None
) -> list[MemoryItem]:
    """`holdings` as versions of the item's field `holder` (持有者): the holder's name as chapter
    `as_of` knew them (names, when several hold a thing of that name; None when nobody does),
    oldest first, the one that holds last."""
    found = holdings(conn, names, as_of)
    people = names_as_of(conn, {h for held in found for h in held.holders}, as_of)
    out = []
    for held in found:
        named = [people.get(h, h) for h in held.holders]
        value: str | list[str] | None = (named[0] if len(named) == 1 else named) or None
        digest = hashlib.blake2b(dumps(value).encode("utf-8"), digest_size=3).hexdigest()
        out.append(
            MemoryItem(
                id=f"fact:{subject}:{HOLDER}:{held.since}:{digest}",
                subject=subject,
                field=HOLDER,
                value=value,
                status="active" if held.until is None else "outdated",
                valid_from=held.since,
                valid_to=held.until,
                source_chapter=held.since,
                source_type="items",
                evidence=held.evidence
                or tuple(
                    {"chapter": held.since, "ref": f"state_change:{h}:items"} for h in held.holders
                ),
                subject_name=shown,
            )
        )
    return out
