"""What `import text` writes into a chapter's result, and whether a stored result is still no
more than that: the one definition of an import's shape, read by the write path (an import's
names are mentions, not acting), by extraction (a chapter not yet extracted) and by the book
(a result an import may make again, the cast a result committed over it keeps).

It lives in memory because memory may import neither the book nor extraction; they import it.
Standard library only: a process that only reads (`fact`) may load it at no cost.
"""

from __future__ import annotations

from typing import Any

# What `import text` marks its results with (`chapter_meta.origin`)
IMPORT_ORIGIN = "text_import"
# The minimal shape `import text` once wrote: a chapter standing on no more than this is
# "not yet extracted"
MINIMAL_KEYS = frozenset(
    {"chapter", "title", "word_count", "chapter_meta", "entities_new", "entities_appeared"}
)
MINIMAL_META = frozenset({"volume", "front_matter", "origin", "ending_passage", "scene_breaks"})
# What an import writes now beyond the minimal shape (the summary, the ending, the scenes), and
# the fields of its scenes and appearances
MORE_KEYS = frozenset({"summary", "scenes"})
MORE_META = frozenset({"ending"})
SCENE_KEYS = frozenset({"index", "characters", "summary", "time"})
APPEARANCE_KEYS = frozenset({"id", "mentions"})
# the role an import gives each name it finds (a mention, not an appearance): an agent's
# "present" is the agent's own word
_IMPORT_ROLE = {"mentioned": {"role"}}


def is_minimal(result: dict[str, Any] | None) -> bool:
    """Whether a stored result is only what a text import wrote (so extraction may replace it)."""
    if not isinstance(result, dict):
        return True
    meta = result.get("chapter_meta") or {}
    if isinstance(meta, dict) and meta.get("origin") == IMPORT_ORIGIN:
        return True
    return set(result) <= MINIMAL_KEYS and isinstance(meta, dict) and set(meta) <= MINIMAL_META


def import_made(result: Any) -> bool:
    """Whether a stored result is no more than what an import writes, so an import may make it
    again from the text: the import's mark (or an import older than the mark, in the minimal
    shape), and no key, scene field or appearance field an import does not write (an empty
    list or a null counts as absent)."""
    if not isinstance(result, dict):
        return result is None
    meta = result.get("chapter_meta") or {}
    if not isinstance(meta, dict) or meta.get("origin") not in (None, IMPORT_ORIGIN):
        return False
    if meta.get("origin") is None and not is_minimal(result):
        return False
    if not _held(result) <= MINIMAL_KEYS | MORE_KEYS or not _held(meta) <= MINIMAL_META | MORE_META:
        return False
    scenes, appeared = result.get("scenes") or [], result.get("entities_appeared") or []
    return all(isinstance(s, dict) and _held(s) <= SCENE_KEYS for s in scenes) and all(
        isinstance(a, dict)
        and _held(a) - _IMPORT_ROLE.get(str(a.get("role")), set()) <= APPEARANCE_KEYS
        for a in appeared
    )


def _held(values: dict[str, Any]) -> set[str]:
    return {key for key, value in values.items() if value not in (None, [], {}, "")}


def import_marked(result: Any) -> bool:
    """Whether a result carries the import's mark: an agent's short result (appearances only)
    may have the import's shape, but not its mark."""
    meta = result.get("chapter_meta") if isinstance(result, dict) else None
    return isinstance(meta, dict) and meta.get("origin") == IMPORT_ORIGIN


def names_found(result: Any) -> bool:
    """Whether the people in a result are names an import found in the text, not who acts:
    the result carries the import's mark and is still the import's own. An agent who fills in
    an imported chapter (`webnovel result N` edited, committed with a death, a realm, a role)
    keeps the mark, but what it commits is its word: a scene where the dead master teaches is
    the master acting again."""
    return import_marked(result) and import_made(result)
