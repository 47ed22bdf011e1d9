"""The author's changes to the cast that rewrite chapter results, and how they are undone.

- **Merging two entities** (`candidates merge 金兀术 --into 兀术` when both are entities) is a
  real merge, history and all: every chapter whose result names the merged entity's id is
  committed again with the id replaced by the target's, its introduction turned into the
  target's (its names becoming the target's aliases), in chapter order. Before, the name became
  an alias of both and both entities stayed.
- **Every accept and merge can be undone**: the commit each chapter stood on before is noted
  (its id: the commit log keeps its result) with a digest of what the change wrote, and
  `candidates undo NAME` commits them again as they were,
  refusing (naming the chapter) when a chapter was changed since. A rejection is undone by
  taking the name off the rejected list; rejecting a name that was merged or accepted undoes
  that first, so a wrong merge leaves no alias behind.
- **All or nothing**: a merge or an undo commits its chapters and records (or drops) its
  decision in one transaction (`all_or_nothing`), so an error, Ctrl-C or a kill part way leaves
  the book as it was, never half rewritten with no decision to undo it by. Measured: accepting
  a name in 450 chapters took 0.7 s of CPU in one transaction, 1.2 s in 450.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from ..memory.write.reference_places import REFERENCE_KEYS, REFERENCE_LISTS
from . import author_layer

if TYPE_CHECKING:
    from .handles import Rewriting


def digest(result: Any) -> str:
    text = json.dumps(result, ensure_ascii=False, sort_keys=True)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def commit_with_undo(
    book: Rewriting, rewritten: list[tuple[int, dict[str, Any], dict[str, Any], str | None]]
) -> list[dict[str, Any]]:
    """Commit each (chapter, result before, result after, text) in chapter order; returns what
    undoing it needs: each chapter's commit before (its id: the log keeps its result) and a
    digest of the result written."""
    undo = []
    for chapter, _, after, text in sorted(rewritten, key=lambda r: r[0]):
        before_id = (book.stored_commit(chapter) or {}).get("commit_id")
        # the author's own decision: past the published line too, logged as its revision
        book.commit(after, text=text, as_given=True, force=True)
        written = (book.stored_commit(chapter) or {}).get("result")
        undo.append({"chapter": chapter, "before": before_id, "after": digest(written)})
    return undo


def merge_entities(book: Rewriting, source_id: str, target_id: str) -> list[int]:
    """Fold entity `source_id` into `target_id` in every chapter result naming it; returns the
    chapters rewritten (and keeps what undoing it needs in the author's layer)."""
    source, target = book.entity(source_id), book.entity(target_id)
    names = [source.name, *source.aliases]
    rewritten = []
    introduced_by_target = False
    for row in book.chapters():
        stored = book.stored_commit(row["chapter"]) or {}
        result = stored.get("result")
        if not isinstance(result, dict):
            continue
        after, changed, introduced_by_target = _folded(
            result, source_id, target, names, introduced_by_target
        )
        if changed:
            rewritten.append((row["chapter"], result, after, stored.get("text")))
    if not rewritten:
        raise InvalidInput.of("merge_nothing_to_fold", name=source.name)
    with book.all_or_nothing():
        undo = commit_with_undo(book, rewritten)
        author_layer.record(
            book.storage,
            {
                "action": "merged",
                "name": source.name,
                "entity_id": target_id,
                "merged_id": source_id,
                "undo": undo,
            },
        )
    return [u["chapter"] for u in undo]


def _folded(
    result: dict[str, Any],
    source_id: str,
    target: Any,
    names: list[str],
    introduced: bool,
) -> tuple[dict[str, Any], bool, bool]:
    """The result with `source_id` replaced by the target: its introduction the target's (the
    first one seen becomes the target's introduction if the target has none before it),
    references following. Returns (result, changed, whether the target is introduced by now)."""
    out = dict(result)
    changed = False
    new = []
    for item in result.get("entities_new") or []:
        if isinstance(item, dict) and item.get("id") == target.id and not item.get("revealed"):
            introduced = True
        if not (isinstance(item, dict) and item.get("id") == source_id):
            new.append(item)
            continue
        changed = True
        aliases = sorted({*target.aliases, *names} - {target.name})
        new.append(
            {
                "id": target.id,
                "name": target.name,
                "type": target.type,
                "aliases": aliases,
                **({"revealed": True} if introduced else {}),
            }
        )
        introduced = True
    new = _one_per_id(new)
    if changed:
        out["entities_new"] = new
    for key, ref in REFERENCE_KEYS:
        items = result.get(key) or []
        moved = [
            {**i, ref: target.id} if isinstance(i, dict) and i.get(ref) == source_id else i
            for i in items
        ]
        if moved != items:
            out[key], changed = moved, True
    for key, ref in REFERENCE_LISTS:
        items = result.get(key) or []
        moved = [
            {**i, ref: [target.id if v == source_id else v for v in i[ref]]}
            if isinstance(i, dict) and isinstance(i.get(ref), list)
            else i
            for i in items
        ]
        if moved != items:
            out[key], changed = moved, True
    return out, changed, introduced


def _one_per_id(items: list[Any]) -> list[Any]:
    """A result holds one introduction per id: the target's own and the folded one become one
    (the one that is not a reveal, with both's aliases)."""
    out: list[Any] = []
    by_id: dict[str, dict[str, Any]] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            out.append(item)
            continue
        held = by_id.get(item["id"])
        if held is None:
            by_id[item["id"]] = dict(item)
            out.append(by_id[item["id"]])
            continue
        aliases = sorted({*(held.get("aliases") or []), *(item.get("aliases") or [])})
        if held.get("revealed") and not item.get("revealed"):
            held.clear()
            held.update(item)
        held["aliases"] = [a for a in aliases if a != held.get("name")]
    return out


def undo(book: Rewriting, name: str) -> list[int]:
    """Undo the author's decision about `name`: an accept or merge is taken back chapter by
    chapter (each as it was before), a rejection taken off the list. Returns the chapters."""
    decided = author_layer.decisions(book.store)  # the latest first: a rename to a merged name
    decision = next((d for d in reversed(decided) if d.get("name") == name), None)
    if decision is None:
        raise InvalidInput.of("candidate_nothing_to_undo", name=name)
    return undo_decision(book, decision, name)


def undo_decision(book: Rewriting, decision: dict[str, Any], name: str) -> list[int]:
    """Commit again, chapter by chapter, what `decision` rewrote, as it was (refused, naming
    `name` and the chapter, when a chapter was changed since), and drop the decision."""
    steps = decision.get("undo") or []
    for step in steps:  # every chapter first: nothing is undone if one was changed since
        current = (book.stored_commit(step["chapter"]) or {}).get("result")
        if digest(current) != step["after"]:
            raise InvalidInput.of("candidate_undo_changed", name=name, chapter=step["chapter"])
    with book.all_or_nothing():
        for step in sorted(steps, key=lambda s: s["chapter"], reverse=True):
            stored = book.stored_commit(step["chapter"]) or {}
            before = book.store.commits.logged_result(step["chapter"], step["before"])
            book.commit(before, text=stored.get("text"), as_given=True, force=True)
        author_layer.forget_decision(book.storage, decision)
    return sorted(s["chapter"] for s in steps)
