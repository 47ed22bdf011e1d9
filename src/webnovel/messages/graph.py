"""The relation graph's and the recent commits' own sentences (dashboard)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "graph_no_faction": ("未标阵营", "no faction recorded"),
}
