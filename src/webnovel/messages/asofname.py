"""Items as things over time: an item nobody holds any more, and its history of holders."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "holder_nobody": ("无人持有", "held by nobody"),
    "fact_holder_gone": (
        "{name}的持有者：无人持有（第{since}章起；此前 {before}）",
        "{name} is held by nobody (from chapter {since}; before that {before})",
    ),
}
