"""Whether a chapter's result is the import's own: no more than what `import text` writes
from the text alone, so an import (or `sync`) may make it again from the text, a checked commit
may replace it without weighing what it erases, and a result committed over it keeps the cast it
introduced (kept_results.py, kept_cast.py)."""

from __future__ import annotations

from typing import Any

# What an import writes beyond `extraction.merge`'s minimal shape (`importing.with_text_memory`
# adds the summary, the ending, the scenes), and the fields of its scenes and appearances
MORE_KEYS = frozenset({"summary", "scenes"})
MORE_META = frozenset({"ending"})
SCENE_KEYS = frozenset({"index", "characters", "summary", "time"})
APPEARANCE_KEYS = frozenset({"id", "mentions"})
# the role an import gives each name it finds (a mention, not an appearance): an agent's
# "present" is the agent's own word
_IMPORT_ROLE = {"mentioned": {"role"}}


def import_made(result: Any) -> bool:
    """Whether a stored result is no more than what an import writes, so an import may make it
    again from the text: the import's mark (or an import older than the mark, in the minimal
    shape), and no key, scene field or appearance field an import does not write (an empty
    list or a null counts as absent)."""
    # a write's question: a process that only reads (`fact`) does not load extraction
    from ..extraction.merge import IMPORT_ORIGIN, MINIMAL_KEYS, MINIMAL_META, is_minimal

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
    from ..extraction.merge import IMPORT_ORIGIN

    meta = result.get("chapter_meta") if isinstance(result, dict) else None
    return isinstance(meta, dict) and meta.get("origin") == IMPORT_ORIGIN
