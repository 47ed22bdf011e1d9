"""What `extract` did, or (a dry run) would do: a row per chapter and the run's total.

The two shapes are two kinds of rows and totals: a dry run's carry estimates, a run's carry the
tokens the server counted and what was committed. `to_dict()` is the contract's JSON, in its
keys' order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..memory.schema import JsonRecord
from .chat_client import Usage
from .skipped import Skipped


@dataclass(frozen=True, kw_only=True)
class Estimate(JsonRecord):
    """Tokens a request would take, by the characters of its messages (no server asked)."""

    input: int
    output: int


@dataclass(frozen=True, kw_only=True)
class PlannedChapter(JsonRecord):
    """A chapter of a dry run: asked already (its answer is kept in the book) or to be asked."""

    chapter: int
    title: str | None
    status: str  # "cached" or "planned"
    requests: int
    estimated_tokens: Estimate
    estimated_cost: float | None  # None without [llm] prices


@dataclass(frozen=True, kw_only=True)
class ExtractedChapter(JsonRecord):
    """A chapter of a run: what was asked, what it cost and how its commit went."""

    chapter: int
    title: str | None
    status: str  # "committed", "unchanged" or "failed"
    requests: int
    cache_hits: int
    repairs: int  # answers asked again, quoting their problems
    tokens: Usage
    cost: float | None
    conflicts: int = 0
    warnings: list[str] = field(default_factory=list)
    problem: str | None = None  # why a failed chapter failed, when a model's answer was the cause
    # asked ahead (--concurrency), then asked again once the chapters before it were committed
    # (its requests and tokens count both)
    asked_again: bool = False
    # the version of the chapter this commit replaced, as the run planned (the import's or an
    # earlier extraction's commit id); the text report sums these up in one line
    replaced: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.problem is None:
            del out["problem"]
        return out


@dataclass(frozen=True, kw_only=True)
class PlannedTotal(JsonRecord):
    chapters: int
    requests: int
    estimated_tokens: Estimate
    estimated_cost: float | None
    cached: int  # chapters whose answers are kept already


@dataclass(frozen=True, kw_only=True)
class ExtractedTotal(JsonRecord):
    chapters: int
    requests: int
    tokens: Usage
    cost: float | None
    cache_hits: int
    committed: int
    unchanged: int
    failed: int


@dataclass(frozen=True, kw_only=True)
class ExtractionReport(JsonRecord):
    """One run of `extract`, or its dry run."""

    dry_run: bool
    model: str | None
    endpoint: str | None
    response_mode: str | None  # how the server was asked for JSON
    prompt_version: str
    batch: int  # chapters whose requests carry the same memory
    concurrency: int
    prices: dict[str, Any] | None
    chapters: Sequence[PlannedChapter | ExtractedChapter]
    total: PlannedTotal | ExtractedTotal
    # why chapters of the range were left unread (skipped.py), when the run read none of them
    # or was asked for one chapter: an empty answer says why it is empty
    skipped: Sequence[Skipped] = ()

    def to_dict(self) -> dict[str, Any]:
        out = {key: getattr(self, key) for key in self.__dataclass_fields__}
        out["chapters"] = [row.to_dict() for row in self.chapters]
        out["total"] = self.total.to_dict()
        out["skipped"] = [row.to_dict() for row in self.skipped]
        return out

    @property
    def planned(self) -> list[PlannedChapter]:
        return [row for row in self.chapters if isinstance(row, PlannedChapter)]

    @property
    def extracted(self) -> list[ExtractedChapter]:
        return [row for row in self.chapters if isinstance(row, ExtractedChapter)]
