"""A small book for pack tests: 林砚 reads in the library night after night, and each test adds
the rules, threads and deaths it needs to a chapter."""

from __future__ import annotations

from typing import Any

OUTLINE = "林砚夜入藏经阁，想起灵气只在子时充盈的规矩。"


def night(chapter: int, **parts: Any) -> dict[str, Any]:
    """Chapter `chapter`'s result, with `parts` (world_rules=..., plot_threads=...) added;
    chapter 1 introduces 林砚 and 老道."""
    result: dict[str, Any] = {
        "chapter": chapter,
        "title": f"第{chapter}章",
        "summary": f"林砚在藏经阁的第{chapter}夜，翻到一卷残经。",
        "entities_appeared": [{"id": "linyan"}],
    }
    if chapter == 1:
        result["entities_new"] = [
            {"id": "linyan", "name": "林砚", "type": "character", "is_protagonist": True},
            {"id": "laodao", "name": "老道", "type": "character"},
        ]
    result.update(parts)
    return result
