"""Putting a model's answer together with what the book already holds for the chapter.

A chapter brought in by `import text` stands on a minimal result: its title, its word count
(counted from the text, so more trustworthy than a model's), its volume, and the cast entities it
introduces and the people it names. The extracted result keeps those, and adds what the model
read. (Whom the answer's entities are is settled against memory in `identity`.)
"""

from __future__ import annotations

from typing import Any

# What `import text` writes: a chapter standing on no more than this is "not yet extracted".
MINIMAL_KEYS = frozenset(
    {"chapter", "title", "word_count", "chapter_meta", "entities_new", "entities_appeared"}
)
MINIMAL_META = frozenset({"volume", "front_matter", "origin", "ending_passage", "scene_breaks"})
IMPORT_ORIGIN = "text_import"
EXTRACT_ORIGIN = "extract"


def is_minimal(result: dict[str, Any] | None) -> bool:
    """Whether a stored result is only what a text import wrote (so extraction may replace it)."""
    if not isinstance(result, dict):
        return True
    meta = result.get("chapter_meta") or {}
    if isinstance(meta, dict) and meta.get("origin") == IMPORT_ORIGIN:
        return True
    return set(result) <= MINIMAL_KEYS and isinstance(meta, dict) and set(meta) <= MINIMAL_META


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
    answer: dict[str, Any], stored: dict[str, Any] | None, chapter: int, marks: dict[str, str]
) -> dict[str, Any]:
    """The answer, numbered as the chapter asked, with the stored result's facts kept."""
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
        if title:  # the text's own heading, which a request made again shows again
            meta["imported_title"] = title
        meta["origin"] = EXTRACT_ORIGIN
        meta["extracted"] = marks
    merged["chapter_meta"] = meta
    _keep_listed(merged, base, "entities_new", ("id", "name"))
    _keep_listed(merged, base, "entities_appeared", ("id",))
    return merged


def _keep_listed(
    merged: dict[str, Any], base: dict[str, Any], key: str, identity: tuple[str, ...]
) -> None:
    ours = base.get(key) or []
    theirs = merged.get(key)
    if not ours or (theirs is not None and not isinstance(theirs, list)):
        return
    theirs = list(theirs or [])
    seen = {item.get(name) for item in theirs if isinstance(item, dict) for name in identity}
    theirs += [
        item
        for item in ours
        if isinstance(item, dict) and not any(item.get(name) in seen for name in identity)
    ]
    merged[key] = theirs
