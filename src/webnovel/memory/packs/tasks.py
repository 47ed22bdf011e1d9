"""What a pack is for: the tasks, and the chapter templates that reweight a task's recipe. Kept
apart from the recipes and the allocation so that the CLI's and the MCP server's choices cost a
one-question process nothing to load."""

from __future__ import annotations

from typing import Literal, get_args

from ...errors import InvalidInput

Task = Literal["chapter_write", "consistency_check", "continuity_query", "review"]
TASKS: tuple[Task, ...] = get_args(Task)


def task_named(name: str) -> Task:
    """`name` as a task, or a clear error naming the tasks there are."""
    for task in TASKS:
        if name == task:
            return task
    raise InvalidInput.of("unknown_task", name=name, choices=", ".join(TASKS))


# Chapter templates reweight a recipe's section shares: a battle chapter leans on power levels,
# items and rules; a dialogue chapter on relations and open threads; a transition chapter on
# recent context and events.
CHAPTER_TEMPLATES: dict[str, dict[str, float]] = {
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


def template_weights(name: str) -> dict[str, float]:
    """A chapter template's weights, or a clear error naming the templates there are."""
    if name not in CHAPTER_TEMPLATES:
        raise InvalidInput.of("unknown_template", name=name, choices=", ".join(CHAPTER_TEMPLATES))
    return CHAPTER_TEMPLATES[name]
