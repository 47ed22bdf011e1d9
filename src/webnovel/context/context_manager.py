"""ContextManager: renders memory packs for the writing, review and query commands.

It assembles nothing itself: it asks the facade for a pack, with the task's recipe reweighted by a
chapter template, and renders it as text, json or a prompt. Templates are data: a battle chapter
leans on power levels, items and rules; a dialogue chapter on relations and open threads; a
transition chapter on recent context and events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InvalidInput
from ..messages import say

if TYPE_CHECKING:  # the facade imports nothing from here; this is for type checking only
    from ..memory.packs.memory_pack import MemoryPack
    from ..project import Project

TEMPLATES: dict[str, dict[str, float]] = {
    "battle": {
        "character_state": 1.4,
        "constraints": 1.3,
        "world_rules": 1.5,
        "relations": 0.8,
        "timeline": 0.7,
        "episodic": 0.7,
    },
    "dialogue": {
        "relations": 1.6,
        "threads": 1.4,
        "history": 1.2,
        "world_rules": 0.6,
        "constraints": 0.9,
    },
    "transition": {
        "working_memory": 1.5,
        "timeline": 1.5,
        "threads": 1.2,
        "world_rules": 0.7,
        "history": 0.8,
    },
}


class ContextManager:
    def __init__(self, project: Project) -> None:
        self.project = project

    def pack(
        self,
        chapter: int,
        task: str = "chapter_write",
        *,
        template: str | None = None,
        outline: str | None = None,
        query: str | None = None,
        budget_tokens: int | None = None,
        draft: object = None,
    ) -> MemoryPack:
        if template is not None and template not in TEMPLATES:
            raise InvalidInput(say("unknown_template", name=template, choices=", ".join(TEMPLATES)))
        return self.project.build_memory_pack(
            task=task,
            chapter=chapter,
            outline=outline,
            query=query,
            budget_tokens=budget_tokens,
            weights=TEMPLATES.get(template or ""),
            draft=draft,
        )

    def render(self, chapter: int, fmt: str = "prompt", **kwargs: object) -> str:
        return self.pack(chapter, **kwargs).render(fmt)  # type: ignore[arg-type]
