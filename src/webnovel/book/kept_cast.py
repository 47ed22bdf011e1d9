"""A result committed over a chapter keeps the cast that chapter introduced.

`import text --cast` (or an accepted candidate) registers each entity in the chapter that first
names it, in that chapter's import result (`entities_new`). An agent writing the chapter's result
from scratch, as docs/contract.md teaches, leaves out entities it knows are registered: committed,
its result would replace the import's and un-introduce them, and every later chapter naming them
would then refer to an unknown entity. So when a result that is not the import's replaces
another, each introduction of the replaced result it leaves out is kept, when the book still
refers to the entity (the new result names it, by id, name or alias, or another chapter has it
appear) and, over a result not the import's, when an import of the chapter made it: the
agent's second version of the chapter must not lose the cast its first one kept, while an
introduction the author or an agent made can still be taken back.
Over the import's own result (`memory.write.import_shape`, and marked), the imported title, volume and
front matter are kept too where the new result gives none. The commit says what was kept. A
result that introduces the entity itself is taken as it is; an entity nothing else refers to
goes with the introduction left out."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Protocol

from ..memory.schema import MAX_CHAPTER
from ..memory.write.import_shape import names_found
from ..messages import say

if TYPE_CHECKING:
    from ..memory.read.reading import Reading

KEPT_META = ("volume", "front_matter")  # an import's chapter_meta a new result may leave out


class Carrying(Protocol):
    """A book whose stored results and appearances are read."""

    @property
    def store(self) -> Reading: ...

    def appearances(self, subject: str, as_of: int | None = None) -> list[int]: ...


def carried(book: Carrying, result: Any, chapter: int | None) -> tuple[Any, list[str]]:
    """`result` with what it keeps of the result it replaces, and what is said of it (nothing
    kept: the same result, no words)."""
    if not isinstance(result, dict) or names_found(result):
        return result, []  # the import's own, made again from the text: as it is
    number = chapter if chapter is not None else result.get("chapter")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_CHAPTER:
        return result, []  # the commit refuses it, naming what is wrong
    stored = book.store.commits.current_commit(number)
    before = stored["result"] if stored else None
    if not isinstance(before, dict):
        return result, []
    out = copy.deepcopy(result)
    said = []
    kept = _introductions(book, out, before, number)
    if kept:
        own = out.get("entities_new")
        out["entities_new"] = [*(own if isinstance(own, list) else []), *kept]
        names = "、".join(str(e.get("name") or e.get("id")) for e in kept)
        said.append(say("commit_kept_cast", chapter=number, names=names))
    if names_found(before) and (kept_words := _words(out, before)):
        said.append(say("commit_kept_import_words", chapter=number, kept="、".join(kept_words)))
    return (out, said) if said else (result, [])


def _introductions(
    book: Carrying, result: dict[str, Any], before: dict[str, Any], number: int
) -> list[dict[str, Any]]:
    """The replaced result's introductions the new one leaves out and the book still refers to:
    over the import's own result, any; over another, those an import of the chapter made (the
    cast an earlier version kept), not one the author or an agent made and now takes back."""
    own = {e.get("id") for e in result.get("entities_new") or [] if isinstance(e, dict)}
    named = _strings(result)
    imported = None if names_found(before) else _imported_ids(book, number)
    kept = []
    for intro in before.get("entities_new") or []:
        if not isinstance(intro, dict) or not isinstance(intro.get("id"), str):
            continue
        if intro["id"] in own or (imported is not None and intro["id"] not in imported):
            continue
        names = {intro["id"], intro.get("name"), *(intro.get("aliases") or [])}
        if names & named or any(c != number for c in book.appearances(intro["id"])):
            kept.append(intro)
    return kept


def _imported_ids(book: Carrying, number: int) -> set[str]:
    """The ids an import's own result of the chapter, in its log, introduced."""
    return {
        intro["id"]
        for logged in book.store.commits.logged_results(number)
        if names_found(logged)
        for intro in logged.get("entities_new") or []
        if isinstance(intro, dict) and isinstance(intro.get("id"), str)
    }


def _words(result: dict[str, Any], before: dict[str, Any]) -> list[str]:
    """The imported title, volume and front matter the new result gives none of, written into
    it; their names, as said."""
    kept = []
    if not result.get("title") and before.get("title"):
        result["title"] = before["title"]
        kept.append(say("kept_import_title"))
    stood = before.get("chapter_meta")
    was: dict[str, Any] = stood if isinstance(stood, dict) else {}
    meta = result.get("chapter_meta")
    if meta is not None and not isinstance(meta, dict):
        return kept  # the commit refuses it, naming what is wrong
    meta = dict(meta or {})
    for key in KEPT_META:
        if not meta.get(key) and was.get(key):
            meta[key] = was[key]
            kept.append(say(f"kept_import_{key}"))
    if meta:
        result["chapter_meta"] = meta
    return kept


def _strings(value: Any) -> set[str]:
    """Every string a result holds, as a value: the ids and names it refers to are among them."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()
