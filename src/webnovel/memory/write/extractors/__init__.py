"""Extractors turn a validated chapter result into normalized memory items.

Each is a pure function of (result, resolve) where `resolve(reference)` gives the canonical entity
id and a confidence cap (below 1 when the reference came from an `uncertain` mention). They return
values; the write pipeline stores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...records import TimelineEvent
from ..chain_folds import Activity, Assertion

Resolve = Callable[[str], tuple[str, float]]


@dataclass
class Extraction:
    assertions: list[Assertion] = field(default_factory=list)
    activities: list[Activity] = field(default_factory=list)
    events: list[TimelineEvent] = field(default_factory=list)
    scenes: list[dict[str, Any]] = field(default_factory=list)

    def extend(self, other: Extraction) -> None:
        self.assertions += other.assertions
        self.activities += other.activities
        self.events += other.events
        self.scenes += other.scenes


def evidence(chapter: int, ref: str, quote: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"chapter": chapter, "ref": ref}
    if quote:
        item["quote"] = quote[:120]
    return item
