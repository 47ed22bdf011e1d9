"""A reveal may tell more of a known entity, never turn it into another one.

A `revealed` re-introduction (血衣堂主 → 厉沉) gives a known entity its true name. When that name,
or an alias it brings, is already the name or an alias of another settled entity, the reveal
would rename one entity to another's name and leave every reference to that name split between
them: 岳飞 revealed as 秦桧 is two people made one without anybody saying so. Whether they are
one (a merge) or two namesakes is the author's call, so the commit records a blocking
conflict, `reveal_takes_name`, on the revealed entity. The rename itself is applied as written:
a commit records what its result says (and says what it found); `commit --check` and review
refuse it before it is written, and `extract` asks the model again before it commits.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..chains import TARGET, WHO, ConflictDraft
from ..said import Said
from ..store.connection import Connection
from ..store.index_store import loads, rows_in


def reveals_taking_names(
    conn: Connection, entity_ids: Iterable[str]
) -> dict[str, list[ConflictDraft]]:
    """For each entity, a conflict per name or alias one of its reveals took from another
    settled entity that held it by then (introduced no later than the reveal)."""
    ids = sorted(set(entity_ids))
    if not ids:
        return {}
    reveals = rows_in(
        conn,
        "SELECT entity_id, chapter, name, aliases_json FROM entity_intros "
        "WHERE revealed = 1 AND entity_id IN ({marks})",
        ids,
    )
    reveals = sorted(reveals, key=lambda r: (r[0], r[1]))
    found: dict[str, list[ConflictDraft]] = {}
    for entity_id, chapter, name, aliases_json in reveals:
        for taken in dict.fromkeys([name, *loads(aliases_json)]):
            holder = _held_by_another(conn, taken, entity_id, chapter)
            if holder is None:
                continue
            found.setdefault(entity_id, []).append(
                ConflictDraft(
                    kind="reveal_takes_name",
                    chapter=chapter,
                    entity_id=entity_id,
                    expected=holder,
                    found=taken,
                    message=Said(
                        "reveal_takes_name",
                        chapter=chapter,
                        who=_name_before(conn, entity_id, chapter) or WHO,
                        entity_id=entity_id,
                        name=taken,
                        target=TARGET,
                        holder=holder,
                    ),
                    evidence=({"chapter": chapter, "ref": f"entity_new:{entity_id}:{chapter}"},),
                    target=holder,
                )
            )
    return found


def _name_before(conn: Connection, entity_id: str, chapter: int) -> str | None:
    """The name the entity went by before the reveal (its name now is the one taken)."""
    row = conn.execute(
        "SELECT name FROM entity_intros WHERE entity_id = ? AND chapter < ? "
        "ORDER BY chapter DESC, seq DESC LIMIT 1",
        (entity_id, chapter),
    ).fetchone()
    return str(row[0]) if row else None


def _held_by_another(conn: Connection, name: str, entity_id: str, chapter: int) -> str | None:
    """A settled entity other than `entity_id`, introduced by `chapter`, that answers to `name`
    by one of its own introductions (not by a reveal of someone else)."""
    holders = conn.execute(
        "SELECT a.entity_id FROM aliases a JOIN entities e ON e.id = a.entity_id "
        "WHERE a.alias = ? AND a.entity_id <> ? AND a.kind <> 'id' AND e.tentative = 0 "
        "ORDER BY a.entity_id",
        (name, entity_id),
    ).fetchall()
    for (other,) in holders:  # an alias row may come from a later reveal: check by the intros
        intros = conn.execute(
            "SELECT name, aliases_json FROM entity_intros WHERE entity_id = ? AND chapter <= ?",
            (other, chapter),
        ).fetchall()
        if any(name == own or name in loads(aliases) for own, aliases in intros):
            return str(other)
    return None
