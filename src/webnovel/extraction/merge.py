"""Putting a model's answer together with what the book already holds for the chapter.

A chapter brought in by `import text` stands on a minimal result: its title, its word count
(counted from the text, so more trustworthy than a model's), its volume, and the cast entities it
introduces and the people it names. The extracted result keeps those, and adds what the model
read. An entity the model introduces although memory already knows it by that exact name (a
chapter asked ahead of the one that introduced it) is referenced instead of introduced twice.
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
REFERENCE_KEYS = (
    ("entities_appeared", "id"),
    ("state_changes", "entity_id"),
    ("relationships_new", "from"),
    ("relationships_new", "to"),
    ("knowledge_changes", "entity_id"),
    ("knowledge_changes", "from"),
)
REFERENCE_LISTS = (
    ("timeline_events", "participants"),
    ("scenes", "characters"),
    ("plot_threads", "related"),
    ("secrets", "known_by"),
)


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


def reference_known(
    result: dict[str, Any], known: dict[str, str]
) -> tuple[dict[str, Any], list[str]]:
    """Entities the result introduces under a name memory already knows (`known`: name → id)
    become references to the known entity; their `current` becomes state changes. Returns the
    result and a warning for each."""
    new = result.get("entities_new")
    if not isinstance(new, list) or not known:
        return result, []
    kept: list[Any] = []
    known_ids = set(known.values())
    renamed: dict[str, str] = {}
    changes: list[dict[str, Any]] = []
    for item in new:
        name = item.get("name") if isinstance(item, dict) else None
        entity_id = item.get("id") if isinstance(item, dict) else None
        existing = known.get(name) if isinstance(name, str) else None
        # a known entity under another's name is no newcomer to fold in: the commit (and,
        # before it, the repair turn) says what it is, a reveal taking a name
        if (
            existing is None
            or existing == entity_id
            or not isinstance(entity_id, str)
            or entity_id in known_ids
        ):
            kept.append(item)
            continue
        renamed[entity_id] = existing
        current = item.get("current")
        if isinstance(current, dict):
            changes += [{"entity_id": existing, "field": f, "new": v} for f, v in current.items()]
    if not renamed:
        return result, []
    out = dict(result)
    out["entities_new"] = kept
    for key, field in REFERENCE_KEYS:
        out[key] = [_renamed_item(i, field, renamed) for i in out.get(key) or []]
    for key, field in REFERENCE_LISTS:
        out[key] = [_renamed_list(i, field, renamed) for i in out.get(key) or []]
    out["state_changes"] = changes + list(out.get("state_changes") or [])
    warnings = [
        f"entities_new 中的 {old} 与已知实体 {new_id} 同名，已改为引用 {new_id}"
        for old, new_id in renamed.items()
    ]
    return {k: v for k, v in out.items() if v != [] or k in result}, warnings


def _renamed_item(item: Any, field: str, renamed: dict[str, str]) -> Any:
    if isinstance(item, dict) and isinstance(item.get(field), str) and item[field] in renamed:
        return {**item, field: renamed[item[field]]}
    return item


def _renamed_list(item: Any, field: str, renamed: dict[str, str]) -> Any:
    if isinstance(item, dict) and isinstance(item.get(field), list):
        return {
            **item,
            field: [renamed.get(v, v) if isinstance(v, str) else v for v in item[field]],
        }
    return item
