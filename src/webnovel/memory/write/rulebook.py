"""What each finding means to the author: its severity, in one table; how to fix it is said from
the catalogue (`messages/hints.py`, `hint_<kind>`), in the reader's language.

The findings themselves come from one place, the write path's rules (`chain_folds` and the
pipeline): committing a chapter records them as conflicts (or, for advice, as notes), and review
runs the same commit on a copy of memory that is thrown away. So review and commit cannot
disagree: every conflict kind at commit is an issue in review with the severity below, and every
blocking issue in review is a conflict kind at commit, save BLOCKING_ADVICE: a name that two
entities may mean, which review blocks under check and commit says as a warning (what it refuses
is a write that silently hands the name to one of them; forced, the author has chosen).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...messages import MESSAGES, say

Severity = Literal["critical", "high", "medium", "low"]
SEVERITIES: tuple[Severity, ...] = ("critical", "high", "medium", "low")
BLOCKING: frozenset[str] = frozenset({"critical", "high"})


@dataclass(frozen=True)
class Rule:
    kind: str
    severity: Severity
    recorded: bool = True  # a conflict kind at commit; False: advice only (a note)

    @property
    def fix_hint(self) -> str:
        """How to fix it, in the reader's language (the catalogue's `hint_<kind>`); a kind the
        table does not know has none."""
        key = f"hint_{self.kind}"
        return say(key) if key in MESSAGES else ""


RULES: dict[str, Rule] = {
    # conflicts: recorded at commit, raised by review
    "dead_entity_active": Rule("dead_entity_active", "critical"),
    "regression": Rule("regression", "critical"),
    "old_value_mismatch": Rule("old_value_mismatch", "high"),
    "relation_end_missing": Rule("relation_end_missing", "high"),
    "thread_closed": Rule("thread_closed", "high"),
    "rule_unknown": Rule("rule_unknown", "high"),
    "unknown_entity": Rule("unknown_entity", "high"),
    "duplicate_entity": Rule("duplicate_entity", "high"),
    "reveal_takes_name": Rule("reveal_takes_name", "high"),
    "name_reintroduced": Rule("name_reintroduced", "high"),
    "secret_source_unaware": Rule("secret_source_unaware", "high"),
    "secret_unknown": Rule("secret_unknown", "medium"),
    "thread_unknown": Rule("thread_unknown", "medium"),
    "set_remove_missing": Rule("set_remove_missing", "medium"),
    "item_not_held": Rule("item_not_held", "high"),
    "two_places_at_once": Rule("two_places_at_once", "high"),
    # notes: advice at commit (a warning), an issue in review, never a conflict
    "ladder_regression": Rule("ladder_regression", "medium", recorded=False),
    "name_taken": Rule("name_taken", "medium", recorded=False),
    # high, so blocking under check: from then on the name silently means the newcomer, or a
    # write naming it goes to one of the two (name_rules.py, reference_resolver.py)
    "alias_taken": Rule("alias_taken", "high", recorded=False),
    "ambiguous_alias": Rule("ambiguous_alias", "high", recorded=False),
    "relation_jump": Rule("relation_jump", "low", recorded=False),
    "early_reveal": Rule("early_reveal", "low", recorded=False),
    "already_known": Rule("already_known", "low", recorded=False),
    # review's look around the draft (what it leaves undone), never a conflict
    "promise_due": Rule("promise_due", "medium", recorded=False),
    "thread_overdue": Rule("thread_overdue", "low", recorded=False),
    "item_held_elsewhere": Rule("item_held_elsewhere", "medium", recorded=False),
    # story time (memory/write/time_rules.py)
    "time_backwards": Rule("time_backwards", "medium", recorded=False),
    "unstated_night": Rule("unstated_night", "low", recorded=False),
    "deadline_passed": Rule("deadline_passed", "medium", recorded=False),
    "location_continuity": Rule("location_continuity", "low", recorded=False),
    "scene_location": Rule("scene_location", "medium", recorded=False),
    "knowledge_unrecorded": Rule("knowledge_unrecorded", "low", recorded=False),
}

RECORDED_KINDS = tuple(kind for kind, rule in RULES.items() if rule.recorded)
BLOCKING_ADVICE = frozenset(
    kind for kind, rule in RULES.items() if not rule.recorded and rule.severity in BLOCKING
)


def rule_for(kind: str) -> Rule:
    return RULES.get(kind, Rule(kind, "medium"))
