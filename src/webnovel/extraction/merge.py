"""Putting a model's answer together with what the book already holds for the chapter.

A chapter brought in by `import text` stands on a minimal result: its title, its word count
(counted from the text, so more trustworthy than a model's), its volume, and the cast entities it
introduces and the people it names. The extracted result keeps those, and adds what the model
read. (Whom the answer's entities are is settled against memory in `identity`.)
"""

from __future__ import annotations

import copy
from typing import Any

from ..memory.write.import_shape import is_minimal
from .identity import renamed_references

# What an extraction marks its results with (an import's mark, and the shape of a chapter not
# yet extracted, are memory's: `memory.write.import_shape`)
EXTRACT_ORIGIN = "extract"


def source_title(result: dict[str, Any] | None) -> str | None:
    """The chapter's title as its text gave it (kept through extraction, so that a request
    made again is the same request)."""
    if not isinstance(result, dict):
        return None
    meta = result.get("chapter_meta")
    if isinstance(meta, dict) and isinstance(meta.get("imported_title"), str):
        return str(meta["imported_title"])
    title = result.get("title")
    return title if isinstance(title, str) else None


def merge_with_stored(
    answer: dict[str, Any],
    stored: dict[str, Any] | None,
    chapter: int,
    marks: dict[str, str],
    author: dict[str, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The answer, numbered as the chapter asked, with the stored result's facts kept and the
    author's decisions for the chapter (`author`, from `book.author_layer`, and the cast an
    imported result holds) written in over the model's."""
    merged = dict(answer)
    merged["chapter"] = chapter
    stored = stored if isinstance(stored, dict) else {}
    base = stored if is_minimal(stored) else {}
    if stored.get("title") and not merged.get("title"):
        merged["title"] = stored["title"]
    if isinstance(stored.get("word_count"), int):
        merged["word_count"] = stored["word_count"]
    meta = merged.get("chapter_meta")
    meta = dict(meta) if isinstance(meta, dict) else {} if meta is None else meta
    if isinstance(meta, dict):
        stored_meta = stored.get("chapter_meta")
        stored_meta = stored_meta if isinstance(stored_meta, dict) else {}
        for kept in ("volume", "front_matter"):  # the import's, from the text itself
            if kept in stored_meta and kept not in meta:
                meta[kept] = stored_meta[kept]
        title = source_title(stored)
        if title is None and stored and is_minimal(stored):
            title = ""  # an imported chapter with no title (第二章): asked again, it has none
        if title is not None:  # the text's own heading, which a request made again shows again
            meta["imported_title"] = title
        meta["origin"] = EXTRACT_ORIGIN
        meta["extracted"] = marks
    merged["chapter_meta"] = meta
    author = author or {}
    intros = _combined(
        copy.deepcopy([*(author.get("entities_new") or []), *(base.get("entities_new") or [])])
    )
    appeared = [*(author.get("entities_appeared") or []), *(base.get("entities_appeared") or [])]
    return _author_wins(merged, intros, appeared)


def with_author_layer(
    result: dict[str, Any], author: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """A result (an imported chapter's) with the author's decisions for its chapter written in
    over what it holds, as `merge_with_stored` does for a model's answer: so `import text` run
    again keeps the cast the author accepted, merged or renamed since."""
    if not (author.get("entities_new") or author.get("entities_appeared")):
        return result
    intros = _combined(
        copy.deepcopy([*(author.get("entities_new") or []), *(result.get("entities_new") or [])])
    )
    return _author_wins(dict(result), intros, list(author.get("entities_appeared") or []))


def _combined(intros: list[Any]) -> list[dict[str, Any]]:
    """One introduction per id (a result may not hold two): the first that is not a reveal,
    with every alias any of them gives."""
    by_id: dict[str, dict[str, Any]] = {}
    for intro in intros:
        if not isinstance(intro, dict) or not isinstance(intro.get("id"), str):
            continue
        held = by_id.get(intro["id"])
        if held is None or (held.get("revealed") and not intro.get("revealed")):
            aliases = [*(intro.get("aliases") or []), *((held or {}).get("aliases") or [])]
            by_id[intro["id"]] = {**intro, "aliases": aliases}
        else:
            held["aliases"] = [*(held.get("aliases") or []), *(intro.get("aliases") or [])]
    for intro in by_id.values():
        names = {intro.get("name")}
        intro["aliases"] = [a for a in dict.fromkeys(intro["aliases"]) if a not in names]
        if not intro["aliases"]:
            del intro["aliases"]
    return list(by_id.values())


def _author_wins(
    merged: dict[str, Any], intros: list[dict[str, Any]], appeared: list[Any]
) -> dict[str, Any]:
    """The author's introductions replace the model's of the same entity (by id, name or
    alias), whose references then follow the author's id; the author's appearances are added
    to the model's."""
    theirs = merged.get("entities_new")
    if intros and (theirs is None or isinstance(theirs, list)):
        kept, renamed = [], {}
        for item in theirs or []:
            mine = _same_entity(item, intros)
            if mine is None:
                kept.append(item)
                continue
            # the model's id too: its later answers name the person by it
            extra = [a for a in [item["id"], *(item.get("aliases") or [])] if isinstance(a, str)]
            extra = [a for a in extra if a != mine["id"]]
            mine["aliases"] = list(dict.fromkeys([*(mine.get("aliases") or []), *extra]))
            mine["aliases"] = [a for a in mine["aliases"] if a != mine.get("name")]
            if isinstance(item.get("current"), dict) and "current" not in mine:
                mine["current"] = item["current"]
            if item.get("id") != mine["id"]:
                renamed[item["id"]] = mine["id"]
        merged["entities_new"] = [*intros, *kept]
        if renamed:
            merged = renamed_references(merged, renamed)
    listed = merged.get("entities_appeared")
    if appeared and (listed is None or isinstance(listed, list)):
        out = [dict(a) if isinstance(a, dict) else a for a in listed or []]
        by_id = {a.get("id"): a for a in out if isinstance(a, dict)}
        for entry in appeared:
            if not isinstance(entry, dict):
                continue
            held = by_id.get(entry.get("id"))
            if held is None:
                out.append(dict(entry))
                by_id[entry.get("id")] = out[-1]
            elif entry.get("mentions"):
                mentions = [*(held.get("mentions") or []), *entry["mentions"]]
                held["mentions"] = list(dict.fromkeys(mentions))
        merged["entities_appeared"] = out
    return merged


def _same_entity(item: Any, intros: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        return None
    for intro in intros:
        names = {intro["id"], intro.get("name"), *(intro.get("aliases") or [])}
        if item["id"] in names or item.get("name") in names:
            return intro
    return None
