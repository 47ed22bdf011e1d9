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
from ..store import name_ops
from ..store.connection import Connection


def reveals_taking_names(
    conn: Connection, entity_ids: Iterable[str]
) -> dict[str, list[ConflictDraft]]:
    """For each entity, a conflict per name or alias one of its reveals took from another
    settled entity that held it by then (introduced no later than the reveal)."""
    ids = sorted(set(entity_ids))
    if not ids:
        return {}
    reveals = name_ops.revealed_intros(conn, ids)
    found: dict[str, list[ConflictDraft]] = {}
    for entity_id, chapter, name, aliases in reveals:
        for taken in dict.fromkeys([name, *aliases]):
            holder = name_ops.own_holder_of_name(conn, taken, entity_id, chapter)
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
                        who=name_ops.name_before(conn, entity_id, chapter) or WHO,
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
