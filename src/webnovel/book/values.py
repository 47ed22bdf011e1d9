"""What the facade answers with: the value types of its answers and the chapter result's schema,
for the adapters (CLI, MCP, the dashboard, the query table) to name without importing `memory`.
An import contract keeps it so: the adapters depend on the facade, and memory's inside can move.

Each name is written once, as an explicit re-export (`import Name as Name`). The facts, entities
and thread filters load with this module; the records and the types of modules that load heavier
parts (search, chapter reports, packs, review) are imported for the type checker only, and
fetched on first use at run time (`lazy_exports`), so naming one costs a process nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..memory.schema import THREAD_FILTERS as THREAD_FILTERS
from ..memory.schema import Entity as Entity
from ..memory.schema import Evidence as Evidence
from ..memory.schema import MemoryItem as MemoryItem
from ..memory.schema import missing_fact as missing_fact
from ..memory.vocabulary import THREAD_FILTER_WORDS as THREAD_FILTER_WORDS
from .lazy_exports import lazy_exports

if TYPE_CHECKING:
    from ..memory.clock import Stamp as Stamp
    from ..memory.clock.answer import Deadline as Deadline
    from ..memory.clock.answer import StoryClock as StoryClock
    from ..memory.packs.memory_pack import MemoryPack as MemoryPack
    from ..memory.packs.memory_pack import PackItem as PackItem
    from ..memory.packs.reasons import Reason as Reason
    from ..memory.read.chapter_report import Change as Change
    from ..memory.read.chapter_report import ChapterReport as ChapterReport
    from ..memory.read.chapter_report import EventSeen as EventSeen
    from ..memory.read.chapter_report import SceneSeen as SceneSeen
    from ..memory.read.chapter_report import SecretTouched as SecretTouched
    from ..memory.read.chapter_report import ThreadTouched as ThreadTouched
    from ..memory.records import CommitEntry as CommitEntry
    from ..memory.records import CommitReport as CommitReport
    from ..memory.records import Conflict as Conflict
    from ..memory.records import Knowledge as Knowledge
    from ..memory.records import RelationEdge as RelationEdge
    from ..memory.records import Secret as Secret
    from ..memory.records import Thread as Thread
    from ..memory.records import ThreadStep as ThreadStep
    from ..memory.records import TimelineEvent as TimelineEvent
    from ..memory.records import Together as Together
    from ..memory.records import WorldRule as WorldRule
    from ..memory.retrieval.search_hit import SearchHit as SearchHit
    from ..memory.review.draft_review import ReviewIssue as ReviewIssue
    from ..memory.review.draft_review import ReviewReport as ReviewReport
    from ..memory.review.impact import AnswerChange as AnswerChange
    from ..memory.review.impact import Impact as Impact

__getattr__ = lazy_exports(__name__)


def chapter_result_schema() -> dict[str, Any]:
    """The JSON Schema of a chapter result, as `webnovel schema` prints it and MCP publishes it."""
    from ..memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA

    return CHAPTER_RESULT_SCHEMA
