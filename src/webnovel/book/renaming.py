"""`rename`: the author gives an entity another name from a chapter on (default: the chapter
that introduces it). The old name stays an alias, so every earlier reference still finds it.

A rename is written into memory like the candidates' answers, through `commit`: in the chapter
it starts from, the entity's introduction is named anew (its first one, or a `revealed`
re-introduction in a later chapter, the way 血衣堂主 becomes 厉沉); any later introduction
still giving it the old name (an accept or merge decided before) gives the new one. It is also
kept in the author's own layer (`author_layer`, action `renamed`), so extraction, even
`--force`, and `import text` run again write it in again, and the extraction prompt shows the
chapter's settled cast under its new name. `undo` takes the latest rename of an entity back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..errors import InvalidInput
from ..memory.schema import Entity, JsonRecord
from ..messages import say
from . import author_layer, cast_changes

if TYPE_CHECKING:
    from ..memory.store.parts import StoreParts
    from .handles import Rewriting


@dataclass(frozen=True, kw_only=True)
class Renamed(JsonRecord):
    """What a rename (or its undoing) did: the entity, its name before and after, the chapter
    the new name holds from, and the chapters whose results were committed again."""

    entity_id: str
    name: str
    old_name: str
    action: Literal["renamed", "undone"]
    from_chapter: int
    chapters: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "entity_id": self.entity_id,
            "name": self.name,
            "old_name": self.old_name,
            "action": self.action,
            "from_chapter": self.from_chapter,
            "chapters": list(self.chapters),
        }


def rename(
    book: Rewriting, reference: str, new_name: Any, from_chapter: int | None = None
) -> Renamed:
    entity = book.entity(reference)
    new = _new_name(book, entity, new_name)
    introduced = _introducing_chapters(book, entity.id)
    if not introduced:  # only named, never introduced: nothing holds a name to change
        raise InvalidInput.of("rename_not_introduced", name=entity.name)
    start = introduced[0] if from_chapter is None else from_chapter
    if start < introduced[0]:
        raise InvalidInput(
            say("rename_from_chapter", name=entity.name, chapter=start, first=introduced[0])
        )
    if book.stored_commit(start) is None:
        raise InvalidInput.of("rename_from_no_chapter", name=entity.name, chapter=start)
    intro: dict[str, Any] = {
        "id": entity.id,
        "name": new,
        "type": entity.type,
        "aliases": [entity.name],
    }
    if start != introduced[0]:
        intro["revealed"] = True
    decision: dict[str, Any] = {
        "action": author_layer.RENAMED,
        "name": new,
        "old_name": entity.name,
        "entity_id": entity.id,
        "intro": intro,
        "chapters": [start],
    }
    rewritten = []
    for chapter in sorted({start, *(c for c in introduced if c > start)}):
        stored = book.stored_commit(chapter) or {}
        before = stored.get("result") or {"chapter": chapter}
        after = _renamed_result(before, decision, chapter)
        if after != before:
            rewritten.append((chapter, before, after, stored.get("text")))
    with book.all_or_nothing():  # a kill between the two leaves no half rename behind
        decision["undo"] = cast_changes.commit_with_undo(book, rewritten)
        author_layer.record(book.storage, decision)
    return Renamed(
        entity_id=entity.id,
        name=new,
        old_name=entity.name,
        action="renamed",
        from_chapter=start,
        chapters=tuple(step["chapter"] for step in decision["undo"]),
    )


def undo(book: Rewriting, reference: str) -> Renamed:
    """Take back the latest rename of the entity `reference` names (every chapter it rewrote,
    as it was)."""
    entity = book.entity(reference)
    latest = latest_rename(book.store, entity.id)
    if latest is None:
        raise InvalidInput.of("rename_nothing_to_undo", name=entity.name)
    chapters = cast_changes.undo_decision(book, latest, latest["name"])
    return Renamed(
        entity_id=entity.id,
        name=str(latest["name"]),
        old_name=str(latest.get("old_name")),
        action="undone",
        from_chapter=(latest.get("chapters") or [0])[0],
        chapters=tuple(chapters),
    )


def latest_rename(store: StoreParts, entity_id: str) -> dict[str, Any] | None:
    """The entity's latest rename kept in the author's layer (what `undo` takes back), or None:
    read through the book's reader (`book.store`), so a page can offer its undo."""
    renames = [
        d
        for d in author_layer.decisions(store)
        if d.get("action") == author_layer.RENAMED and d.get("entity_id") == entity_id
    ]
    return renames[-1] if renames else None


def _new_name(book: Rewriting, entity: Entity, new_name: Any) -> str:
    """The new name, refused when empty, the entity's own already, or another entity's name
    or alias (naming that entity: two would answer to it)."""
    if not isinstance(new_name, str) or not new_name.strip():
        raise InvalidInput.of("rename_name_text")
    new = new_name.strip()
    if new == entity.name:
        raise InvalidInput.of("rename_same_name", name=new)
    holder = next(
        (e for e in book.entities() if e.id != entity.id and new in (e.id, e.name, *e.aliases)),
        None,
    )
    if holder is not None:
        raise InvalidInput(
            say("rename_name_taken", name=new, holder=holder.name, holder_id=holder.id)
        )
    return new


def _introducing_chapters(book: Rewriting, entity_id: str) -> list[int]:
    """The chapters whose current results introduce (or re-introduce) the entity."""
    found = []
    for row in book.chapters():
        result = (book.stored_commit(row["chapter"]) or {}).get("result") or {}
        intros = result.get("entities_new") if isinstance(result, dict) else None
        if any(isinstance(i, dict) and i.get("id") == entity_id for i in intros or []):
            found.append(row["chapter"])
    return found


def _renamed_result(
    result: dict[str, Any], decision: dict[str, Any], chapter: int
) -> dict[str, Any]:
    """The chapter's result with the rename written in: its introductions of the entity named
    anew (`author_layer.renamed_intros`), and in the chapter the rename starts from, the
    rename's own introduction where the result has none of the entity."""
    intros = list(result.get("entities_new") or [])
    entity_id = decision["entity_id"]
    if chapter == decision["chapters"][0] and not any(
        isinstance(i, dict) and i.get("id") == entity_id for i in intros
    ):
        intros.append(dict(decision["intro"]))
    renamed = author_layer.renamed_intros([decision], intros, chapter)
    return (
        {**result, "entities_new": renamed}
        if renamed != list(result.get("entities_new") or [])
        else result
    )
