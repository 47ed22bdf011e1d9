"""Candidate names as a queue the author works through: list them, accept one as an entity,
merge one into a known entity as an alias, or reject one, which is remembered so that the name
does not come back.

Accepting and merging write memory through `commit`, like everything else: the name is
introduced (or added as an alias, a `revealed` re-introduction) in the first chapter whose text
holds it, and every chapter that names it records the appearance, all in one transaction with
the decision (`all_or_nothing`): a kill part way leaves the book as it was, and the command can
simply be run again. Rejections are kept in the book's meta table (`rejected_candidates`), which
a rebuild leaves alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..errors import InvalidInput
from ..ingest.name_finder import Candidate
from ..memory import vocabulary
from ..memory.schema import JsonRecord
from ..messages import say
from ..untrusted import json_limits
from . import author_layer, cast_changes

if TYPE_CHECKING:
    from ..memory.schema import Entity
    from ..memory.store.parts import StoreParts
    from .handles import Rewriting


@dataclass(frozen=True, kw_only=True)
class Settled(JsonRecord):
    """What answering a candidate did: the entity it became or joined, and the chapters that
    name it; or, for a rejection, every name now rejected."""

    name: str
    action: Literal["accepted", "merged", "rejected", "undone"]
    entity_id: str | None = None
    chapters: tuple[int, ...] = ()
    rejected: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        if self.action == "rejected":
            return {"name": self.name, "action": self.action, "rejected": list(self.rejected)}
        return {
            "name": self.name,
            "action": self.action,
            "entity_id": self.entity_id,
            "chapters": list(self.chapters),
        }


REJECTED_KEY = "rejected_candidates"


def rejected(store: StoreParts) -> list[str]:
    """The names the author rejected, read through the book's reader or inside a write."""
    raw = store.commits.meta(REJECTED_KEY)
    names = json_limits.loads(raw, REJECTED_KEY) if raw else []
    return [n for n in names if isinstance(n, str)]


# `Project.candidate_names`: (min_count, limit, as_of) -> the names the texts suggest
NamesFound = Callable[[int, int, "int | None"], list[Candidate]]


def queue(
    store: StoreParts, names_found: NamesFound, min_count: int, limit: int, as_of: int | None = None
) -> list[Candidate]:
    """Candidate names no entity has and the author has not rejected, most frequent first."""
    skip = set(rejected(store))
    found = names_found(min_count, limit + len(skip), as_of)
    return [c for c in found if c.name not in skip][:limit]


def reject(book: Rewriting, name: str) -> Settled:
    """Never offer `name` again; a name accepted or merged before is taken back first, so a
    wrong merge leaves no alias behind."""
    name = _name(name)
    with book.all_or_nothing():  # the undo and the rejection, or neither
        if any(d.get("name") == name for d in author_layer.decisions(book.store)):
            cast_changes.undo(book, name)
        with book.storage.writing() as store:
            names = sorted({*rejected(store), name})
            store.commits.set_meta(REJECTED_KEY, json.dumps(names, ensure_ascii=False))
    return Settled(name=name, action="rejected", rejected=tuple(names))


def undo(book: Rewriting, name: str) -> Settled:
    """Take back the author's last answer about `name`: an accept or a merge (every chapter it
    rewrote, as it was), or a rejection (the name is offered again)."""
    name = _name(name)
    if name in rejected(book.store):
        with book.storage.writing() as store:
            names = [n for n in rejected(store) if n != name]
            store.commits.set_meta(REJECTED_KEY, json.dumps(names, ensure_ascii=False))
        return Settled(name=name, action="undone")
    chapters = cast_changes.undo(book, name)
    return Settled(name=name, action="undone", chapters=tuple(chapters))


ACTIONS = ("accept", "merge", "reject", "undo")


def settle(book: Rewriting, action: str, name: str, entity_type: str, into: str | None) -> Settled:
    """One of the three answers to a candidate, as the CLI and the dashboard give it."""
    if action == "accept":
        return accept(book, name, entity_type)
    if action == "merge":
        if not into:
            raise InvalidInput.of("merge_needs_into")
        return merge(book, name, into)
    if action == "reject":
        return reject(book, name)
    if action == "undo":
        return undo(book, name)
    raise InvalidInput.of("unknown_candidate_action", action=action)


def accept(
    book: Rewriting,
    name: str,
    entity_type: str = "角色",
    entity_id: str | None = None,
    confirmed: bool = False,
) -> Settled:
    """Introduce `name` as a new entity where the text first names it. A name that looks like
    a known entity's (金兀术 beside 兀术) is refused unless `confirmed`: it is more often the
    same person, to merge."""
    name = _name(name)
    # the arguments' own checks first: a wrong type is said before the lookalike question
    entity_type = vocabulary.ENTITY_TYPES.find(entity_type) or entity_type  # 人物 is 角色
    if entity_type not in vocabulary.ENTITY_TYPES.values:  # the choices in the reader's words
        raise InvalidInput.of(
            "entity_type_unknown", choices=vocabulary.ENTITY_TYPES.described(), got=entity_type
        )
    cast = book.entities()  # one read for the three questions below
    known = next((e for e in cast if name in (e.name, *e.aliases)), None)
    if known is not None:  # nothing to accept: the name already means someone
        raise InvalidInput.of("candidate_known", name=name, entity=known.name, id=known.id)
    alike = lookalikes(cast, name)
    if alike and not confirmed:
        others = say("argument_list_separator").join(alike)
        raise InvalidInput.of("candidate_lookalike", name=name, others=others, first=alike[0])
    new_id = entity_id or name
    if any(new_id == e.id for e in cast):
        raise InvalidInput.of("entity_id_taken", id=new_id)
    intro = {"id": new_id, "name": name, "type": entity_type}
    with book.all_or_nothing():  # every chapter and the decision, or nothing (a kill part way)
        chapters, steps = _write(book, name, new_id, intro)
        _remember(book, "accepted", name, new_id, intro, chapters, steps)
    return Settled(name=name, action="accepted", entity_id=new_id, chapters=tuple(chapters))


def merge(book: Rewriting, name: str, into: str) -> Settled:
    """Make `name` an alias of the entity `into` names, from the first chapter holding it."""
    name = _name(name)
    entity = book.entity(into)
    cast = book.entities()
    merged = next((e for e in cast if name in (e.id, e.name) and e.id != entity.id), None)
    if merged is not None:  # two entities: one, history and all
        chapters = cast_changes.merge_entities(book, merged.id, entity.id)
        return Settled(name=name, action="merged", entity_id=entity.id, chapters=tuple(chapters))
    _refuse_known_name(cast, name, entity)  # a name that means no one yet, then
    intro = {
        "id": entity.id,
        "name": entity.name,
        "type": entity.type,
        "aliases": sorted({*entity.aliases, name}),
        "revealed": True,
    }
    with book.all_or_nothing():
        chapters, steps = _write(book, name, entity.id, intro)
        _remember(book, "merged", name, entity.id, intro, chapters, steps)
    return Settled(name=name, action="merged", entity_id=entity.id, chapters=tuple(chapters))


def _refuse_known_name(cast: list[Entity], name: str, into: Entity) -> None:
    """Refuse, before anything is written, a name that already means the entity (its name, id
    or alias: nothing would change, yet every chapter naming it was rewritten), or another one
    by an alias (it would mean both, and `fact` could no longer tell which; `rename` refuses
    such a name too)."""
    if name in (into.id, into.name, *into.aliases):
        raise InvalidInput.of(
            "candidate_merge_into_itself", name=name, into=into.name, into_id=into.id
        )
    holder = next((e for e in cast if e.id != into.id and name in e.aliases), None)
    if holder is not None:
        raise InvalidInput.of(
            "candidate_merge_alias_taken",
            name=name,
            into=into.name,
            into_id=into.id,
            holder=holder.name,
            holder_id=holder.id,
        )


def _remember(
    book: Rewriting,
    action: str,
    name: str,
    entity_id: str,
    intro: dict[str, Any],
    chapters: list[int],
    steps: list[dict[str, Any]],
) -> None:
    """The decision, kept as the author's own layer (it outlives any re-extraction), with what
    undoing it needs."""
    author_layer.record(
        book.storage,
        {
            "action": action,
            "name": name,
            "entity_id": entity_id,
            "intro": intro,
            "chapters": chapters,
            "undo": steps,
        },
    )


def lookalikes(cast: list[Entity], name: str) -> list[str]:
    """The names of the entities in `cast` that look like `name` (`look_alike`)."""
    found = [e.name for e in cast if any(look_alike(name, n) for n in (e.name, *e.aliases))]
    return sorted(set(found))


def look_alike(name: str, known: str) -> bool:
    """Whether two different names look alike: one holds the other (兀术 in 金兀术), or they
    differ in one character of the same length (林砚, 林言)."""
    if known == name or min(len(known), len(name)) < 2:
        return False
    if known in name or name in known:
        return True
    return len(known) == len(name) and sum(a != b for a, b in zip(known, name, strict=True)) == 1


def _name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput.of("candidate_name_text")
    return name.strip()


def _write(
    book: Rewriting, name: str, entity_id: str, intro: dict[str, Any]
) -> tuple[list[int], list[dict[str, Any]]]:
    """Commit the introduction in the first chapter naming `name` and the appearance in every
    chapter naming it; returns those chapters, and what undoing it needs."""
    current_commit = book.store.commits.current_commit
    pattern = re.compile(re.escape(name))
    naming = []
    for row in book.chapters():
        stored = current_commit(row["chapter"]) or {}
        text = stored.get("text") or ""
        if pattern.search(text):
            naming.append((row["chapter"], stored))
    if not naming:
        raise InvalidInput.of("name_in_no_text", name=name)
    rewritten = []
    for i, (chapter, stored) in enumerate(naming):
        before = stored.get("result") or {"chapter": chapter}
        result = dict(before)
        if i == 0:
            result["entities_new"] = [
                e
                for e in result.get("entities_new") or []
                if not (isinstance(e, dict) and e.get("id") == entity_id)
            ] + [intro]
        appeared = [
            a
            for a in result.get("entities_appeared") or []
            if not (isinstance(a, dict) and a.get("id") == entity_id)
        ]
        result["entities_appeared"] = [
            *appeared,
            {"id": entity_id, "mentions": [name]},
        ]
        rewritten.append((chapter, before, result, stored["text"]))
    steps = cast_changes.commit_with_undo(book, rewritten)
    return [chapter for chapter, _ in naming], steps
