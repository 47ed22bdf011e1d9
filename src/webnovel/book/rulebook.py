"""The book's rules as an adapter shows them without importing `memory`: the severity and
advice of each conflict kind, and the recipe of each pack task (the dashboard's pages on them,
a chapter's conflicts in text)."""

from __future__ import annotations

from ..memory.packs.recipes import RECIPES
from ..memory.write.rulebook import RULES, SEVERITIES, rule_for

__all__ = ["RECIPES", "RULES", "SEVERITIES", "rule_for"]
