"""A new entity may not come into the book under a name a known one already goes by.

The commonest slip of an agent is to forget an id and invent another for a known character:
`entities_new: [{"id": "lin_yan", "name": "林砚"}]` when 林砚 is `linyan`. Written, it splits every
later reference to 林砚 between the two (`fact 林砚` is ambiguous from then on) and packs mix
what each knows. So an entity introduced under the *name* another settled entity of its type
was introduced with in an earlier chapter is a blocking conflict, `name_reintroduced`, on the
newcomer, whose message names the known one and its id. A newcomer that takes a name or alias
of a settled entity of its type introduced in an earlier chapter (`陆长老`, the elder's alias,
given to a new 陆鸣) is `alias_taken`, blocking under check: from then on the name silently means
the newcomer. What remains is advice (`name_taken`): namesakes of another type, or two
introduced in one chapter, which are often two people of one name on purpose.

Both are judged from the stored introductions, the same way at commit, in review and at rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..chains import TARGET, ConflictDraft
from ..records import Conflict
from ..said import Said
from ..store import entity_ops, name_ops
from ..store.connection import Connection
from .chapter_inputs import ChapterResult
from .conflict_records import to_conflict


def names_reintroduced(
    conn: Connection, entity_ids: Iterable[str]
) -> dict[str, list[ConflictDraft]]:
    """For each settled entity, the conflict if its introduction took the name a settled
    entity of the same type was introduced (or revealed) with in an earlier chapter; the one
    named is the earliest such holder."""
    ids = sorted(set(entity_ids))
    if not ids:
        return {}
    first, holders = name_ops.names_shared_with(conn, ids)
    found: dict[str, list[ConflictDraft]] = {}
    for entity_id, (chapter, name, kind) in sorted(first.items()):
        earlier = [
            (at, holder)
            for holder, at, held, holder_kind in holders
            if held == name
            and holder != entity_id
            and at < chapter
            and _same_kind(kind, holder_kind)
        ]
        if not earlier:
            continue
        holder = min(earlier)[1]
        found[entity_id] = [
            ConflictDraft(
                kind="name_reintroduced",
                chapter=chapter,
                entity_id=entity_id,
                expected=holder,
                found=name,
                message=Said(
                    "conflict_name_reintroduced",
                    chapter=chapter,
                    name=name,
                    entity=entity_id,
                    target=TARGET,
                    holder=holder,
                ),
                evidence=({"chapter": chapter, "ref": f"entity_new:{entity_id}:{chapter}"},),
                target=holder,
            )
        ]
    return found


def _same_kind(kind: str, other: str) -> bool:
    """Types unknown (an old book's rows) count as the same: the names collide all the same."""
    return not kind or not other or kind == other


def namesakes(conn: Connection, entity_ids: set[str]) -> set[str]:
    """The other settled entities introduced under a name these were introduced with, and
    those recorded as having taken a name of theirs: whether one took the other's name depends
    on both, so they are judged again together (a holder introduced late, or taken away)."""
    if not entity_ids:
        return set()
    found = name_ops.namesakes_of(conn, sorted(entity_ids), "name_reintroduced")
    return found - entity_ids


def names_taken(conn: Connection, result: ChapterResult) -> list[Conflict]:
    """Advice: a new entity named like another one, so references to that name become
    ambiguous. (A reveal taking a name is `reveal_takes_name`; a name re-introduced is
    `name_reintroduced`, both conflicts: `without_reintroduced` drops the advice they repeat.)"""
    notes = []
    names = {n for e in result.entities_new for n in (e.name, *e.aliases)}
    known = name_ops.resolve_references(conn, names)  # one read for all
    kinds = entity_ops.kinds_of(conn, sorted({i for ids in known.values() for i in ids}))
    for entity in result.entities_new:
        if entity.revealed and _known_before(conn, entity.id, result.chapter):
            continue
        for name in dict.fromkeys((entity.name, *entity.aliases)):
            others = [other for other in known.get(name, []) if other != entity.id]
            state = entity_ops.intro_state(conn, others[0]) if others else None
            if state is None or not state.settled:  # a tentative name is adopted, not taken
                continue
            earlier = state.chapter is not None and state.chapter < result.chapter
            same = earlier and _same_kind(entity.type, kinds.get(others[0], ""))
            draft = ConflictDraft(
                kind="alias_taken" if same else "name_taken",
                chapter=result.chapter,
                entity_id=entity.id,
                expected=others[0],
                found=name,
                message=Said(
                    "conflict_name_taken",
                    name=entity.name,
                    entity=entity.id,
                    taken=name,
                    target=TARGET,
                    other=others[0],
                ),
                evidence=({"chapter": result.chapter, "ref": f"entity_new:{entity.id}"},),
                target=others[0],
            )
            notes.append(to_conflict(draft, f"entity:{entity.id}"))
    return notes


def without_reintroduced(notes: list[Conflict], conflicts: list[Conflict]) -> list[Conflict]:
    """The notes, less the `name_taken` advice a `name_reintroduced` conflict already says."""
    said = {(c.entity_id, c.found) for c in conflicts if c.kind == "name_reintroduced"}
    taken = {"name_taken", "alias_taken"}
    return [n for n in notes if n.kind not in taken or (n.entity_id, n.found) not in said]


def _known_before(conn: Connection, entity_id: str, chapter: int) -> bool:
    chapters = entity_ops.intro_chapters_of(conn, [entity_id]).get(entity_id, [])
    return bool(chapters) and chapters[0] < chapter
