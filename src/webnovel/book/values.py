"""What the facade answers with: the value types of its answers and the chapter result's schema,
for the adapters (CLI, MCP, the dashboard, the query table) to name without importing `memory`.
An import contract keeps it so: the adapters depend on the facade, and memory's inside can move.

The types of modules that load heavier parts (search, chapter reports, packs), and the records
other than facts and entities (`schema.RECORDS`), are named here for type checkers and fetched on
first use at run time, so naming one costs a process nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..memory.schema import (
    RECORDS,
    THREAD_FILTERS,
    Entity,
    Evidence,
    MemoryItem,
    missing_fact,
)
from ..memory.vocabulary import THREAD_FILTER_WORDS

if TYPE_CHECKING:
    from ..memory.clock import Stamp
    from ..memory.clock.answer import Deadline, StoryClock
    from ..memory.packs.memory_pack import MemoryPack, PackItem
    from ..memory.packs.reasons import Reason
    from ..memory.read.chapter_report import (
        Change,
        ChapterReport,
        EventSeen,
        SceneSeen,
        SecretTouched,
        ThreadTouched,
    )
    from ..memory.records import (
        CommitEntry,
        CommitReport,
        Conflict,
        Knowledge,
        RelationEdge,
        Secret,
        Thread,
        ThreadStep,
        TimelineEvent,
        Together,
        WorldRule,
    )
    from ..memory.retrieval.search_hit import SearchHit
    from ..memory.review.draft_review import ReviewIssue, ReviewReport
    from ..memory.review.impact import AnswerChange, Impact

__all__ = [
    "AnswerChange",
    "Change",
    "ChapterReport",
    "CommitEntry",
    "CommitReport",
    "Conflict",
    "Deadline",
    "Entity",
    "EventSeen",
    "Evidence",
    "Impact",
    "Knowledge",
    "MemoryItem",
    "MemoryPack",
    "PackItem",
    "Reason",
    "RelationEdge",
    "ReviewIssue",
    "ReviewReport",
    "SceneSeen",
    "SearchHit",
    "Secret",
    "SecretTouched",
    "Stamp",
    "StoryClock",
    "THREAD_FILTERS",
    "THREAD_FILTER_WORDS",
    "Thread",
    "ThreadStep",
    "ThreadTouched",
    "TimelineEvent",
    "Together",
    "WorldRule",
    "chapter_result_schema",
    "missing_fact",
]

_LAZY = {
    **{name: "..memory.records" for name in RECORDS},
    "MemoryPack": "..memory.packs.memory_pack",
    "PackItem": "..memory.packs.memory_pack",
    "Reason": "..memory.packs.reasons",
    "Change": "..memory.read.chapter_report",
    "ChapterReport": "..memory.read.chapter_report",
    "EventSeen": "..memory.read.chapter_report",
    "SceneSeen": "..memory.read.chapter_report",
    "SecretTouched": "..memory.read.chapter_report",
    "ThreadTouched": "..memory.read.chapter_report",
    "SearchHit": "..memory.retrieval.search",
    "ReviewIssue": "..memory.review.draft_review",
    "ReviewReport": "..memory.review.draft_review",
    "AnswerChange": "..memory.review.impact",
    "Impact": "..memory.review.impact",
    "Deadline": "..memory.clock.answer",
    "StoryClock": "..memory.clock.answer",
    "Stamp": "..memory.clock",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name], __package__), name)


def chapter_result_schema() -> dict[str, Any]:
    """The JSON Schema of a chapter result, as `webnovel schema` prints it and MCP publishes it."""
    from ..memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA

    return CHAPTER_RESULT_SCHEMA
