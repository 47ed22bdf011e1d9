"""The words the facade speaks to an author, for the adapters to show without importing `memory`
(an import contract): the vocabulary's labels (declared in memory/vocabulary.py, worded in the
catalogue; each table a mapping said on access, in the reader's language), the pack's tasks and
chapter templates, and output made safe to print. Light enough for a fresh `webnovel fact`; the
rulebook and the pack recipes, which only some pages show, are in `rulebook.py`."""

from __future__ import annotations

from ..memory.clock.shown import clock_lines, clock_text, day_words, when_words
from ..memory.packs.tasks import CHAPTER_TEMPLATES, TASKS
from ..memory.vocabulary import (
    ADVICE_KIND,
    CHUNK_KIND,
    COMMIT_STATUS,
    CONFLICT_KIND,
    CONFLICT_STATUS,
    ENDING,
    ENTITY_TYPE,
    ENTITY_TYPE_PLURAL,
    FIELD,
    SCENE_MODE,
    SECRET_ACTION,
    SECRET_KIND,
    SECTION,
    SEVERITY,
    SOURCE,
    STATUS,
    TASK,
    THREAD_ACTION,
    THREAD_KIND,
    THREAD_STATUS,
    TIER,
    chapter_named,
    ending_words,
    label,
)
from ..memory.write.json_hygiene import printable
from ..messages import say


def sizes_shown(sizes: dict[str, int], in_store: bool) -> dict[str, int]:
    """A book's sizes as an author reads them: a shared store's book has no index.db here,
    its memory is the book's schema in the store."""
    if not in_store:
        return sizes
    shown = say("store_size_book")  # where index.db would be: its schema's size in the store
    return {shown if name == "index.db" else name: size for name, size in sizes.items()}


__all__ = [
    "ADVICE_KIND",
    "CHAPTER_TEMPLATES",
    "CHUNK_KIND",
    "COMMIT_STATUS",
    "CONFLICT_KIND",
    "CONFLICT_STATUS",
    "ENDING",
    "chapter_named",
    "ending_words",
    "ENTITY_TYPE",
    "ENTITY_TYPE_PLURAL",
    "FIELD",
    "SECRET_ACTION",
    "SECRET_KIND",
    "SCENE_MODE",
    "SECTION",
    "SEVERITY",
    "SOURCE",
    "STATUS",
    "TASK",
    "TASKS",
    "THREAD_ACTION",
    "THREAD_KIND",
    "THREAD_STATUS",
    "TIER",
    "clock_lines",
    "clock_text",
    "day_words",
    "when_words",
    "label",
    "printable",
    "sizes_shown",
]
