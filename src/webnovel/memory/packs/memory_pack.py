"""The memory pack: what the orchestrator hands a writer, a reviewer or a question, and its three
renderings — `json` (the CONTRACT shape), `text` (for a person) and `prompt` (compact Markdown
for an LLM, sections in priority order, every fact with its chapter reference)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...messages import say
from ..records import Conflict
from ..vocabulary import SECTION, TASK
from .reasons import Reason
from .tasks import Task


@dataclass(frozen=True, kw_only=True)
class Passage:
    chunk_id: str
    chapter: int
    kind: str
    text: str
    score: float


class Retriever(Protocol):
    """Episodic retrieval: passages about `text` from chapters up to `as_of`."""

    def __call__(self, text: str, as_of: int, top_k: int) -> list[Passage]: ...


@dataclass(frozen=True, kw_only=True)
class PackRequest:
    task: Task
    chapter: int
    outline: str | None = None
    query: str | None = None
    budget_tokens: int | None = None
    focus: tuple[str, ...] = ()  # entity ids put in play directly (a draft's references)


@dataclass
class PackItem:
    id: str
    layer: str
    category: str
    subject: str
    field: str
    value: Any
    status: str
    source_chapter: int | None
    source_type: str
    evidence: list[dict[str, Any]]
    score: float
    why: Reason
    subject_name: str = ""
    tokens: int = 0
    line: str = ""  # the prompt rendering; its size is what the budget counts
    pinned: bool = False  # kept whatever its score, if it fits the budget at all
    must_know: str = ""  # what the chapter must honour (`must_know.KINDS`): moved to 本章须知

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "layer": self.layer,
            "category": self.category,
            "subject": self.subject,
            "subject_name": self.subject_name,
            "field": self.field,
            "value": self.value,
            "status": self.status,
            "source": {"chapter": self.source_chapter, "type": self.source_type},
            "evidence": self.evidence,
            "score": round(self.score, 4),
            "why": str(self.why),
            "why_zh": self.why.shown(),
        }


@dataclass
class PackSection:
    name: str
    items: list[PackItem]

    @property
    def tokens(self) -> int:
        return sum(i.tokens for i in self.items)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tokens": self.tokens,
            "items": [i.to_dict() for i in self.items],
        }


@dataclass
class MemoryPack:
    task: Task
    chapter: int
    budget_tokens: int
    used_tokens: int
    sections: list[PackSection]
    conflicts: list[Conflict] = field(default_factory=list)
    dropped: int = 0
    entities_in_play: list[dict[str, str]] = field(default_factory=list)
    # chapters before this one whose text was edited by hand after their result (`sync`)
    stale_chapters: list[int] = field(default_factory=list)
    # chapters before this one standing on their imported text alone (numbers, [from, to]
    # runs), and the line that says so; filled by the facade (`book.coverage`)
    text_only_chapters: list[Any] = field(default_factory=list)
    coverage_line: str | None = None
    memory_through: int | None = None  # the last chapter memory holds for it (None: chapter − 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "chapter": self.chapter,
            "budget_tokens": self.budget_tokens,
            "used_tokens": self.used_tokens,
            "sections": [s.to_dict() for s in self.sections],
            "conflicts": [c.to_dict() for c in self.conflicts],
            "dropped": self.dropped,
            "entities_in_play": self.entities_in_play,
            "stale_chapters": self.stale_chapters,
            "text_only_chapters": self.text_only_chapters,
        }

    def render(self, fmt: str) -> str:
        if fmt == "json":
            return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)
        if fmt == "prompt":
            return render_prompt(self)
        return render_text(self)


def chapter_span(first: int, last: int) -> str:
    return say("chapter_n", n=first) if first == last else say("chapter_span", a=first, b=last)


def value_text(value: Any) -> str:
    if isinstance(value, list):
        return say("argument_list_separator").join(map(str, value)) or say("value_none")
    return str(value)


def render_prompt(pack: MemoryPack) -> str:
    """Compact Markdown for an LLM: the facts it must not contradict, each with its chapter."""
    lines = [
        say("pack_prompt_head", chapter=pack.chapter, task=TASK.get(pack.task, pack.task)),
        say(
            "pack_prompt_as_of",
            chapter=pack.chapter - 1 if pack.memory_through is None else pack.memory_through,
        ),
        *_stale_line(pack),
    ]
    if pack.coverage_line:
        lines.append(pack.coverage_line)
    lines += _nothing_fits(pack)
    for section in pack.sections:
        lines += ["", "## " + SECTION.get(section.name, section.name)]
        lines += [item.line for item in section.items]
    return "\n".join(lines) + "\n"


def _nothing_fits(pack: MemoryPack) -> list[str]:
    """A pack whose budget left out every item says so, rather than showing a bare header."""
    if not pack.dropped or any(section.items for section in pack.sections):
        return []
    return [say("pack_nothing_fits", budget=pack.budget_tokens, dropped=pack.dropped)]


def _stale_line(pack: MemoryPack) -> list[str]:
    if not pack.stale_chapters:
        return []
    return [
        say(
            "pack_stale",
            chapters=say("argument_list_separator").join(map(str, pack.stale_chapters)),
        )
    ]


def render_text(pack: MemoryPack) -> str:
    """For a person: the prompt lines plus why each item is there, in the reader's language."""
    dropped = say("pack_text_dropped", dropped=pack.dropped) if pack.dropped else ""
    lines = [
        say(
            "pack_text_head",
            chapter=pack.chapter,
            task=TASK.get(pack.task, pack.task),
            used=pack.used_tokens,
            budget=pack.budget_tokens,
            dropped=dropped,
        )
    ]
    lines += _stale_line(pack)
    if pack.coverage_line:
        lines.append(pack.coverage_line)
    lines += _nothing_fits(pack)
    if pack.entities_in_play:
        lines.append(
            say(
                "pack_text_in_play",
                entities=say("argument_list_separator").join(
                    say("pack_text_in_play_one", name=e["name"], why=e["why_zh"])
                    for e in pack.entities_in_play
                ),
            )
        )
    for section in pack.sections:
        title = SECTION.get(section.name, section.name)
        lines += ["", say("pack_text_section", title=title, tokens=section.tokens)]
        lines += [
            say("pack_text_item", line=item.line, why=item.why.shown()) for item in section.items
        ]
    return "\n".join(lines) + "\n"
