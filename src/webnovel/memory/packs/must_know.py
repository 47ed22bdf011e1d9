"""「本章须知」: what the chapter being written must honour, first in the pack and kept under a
tight budget.

The sections mark their items (`PackItem.must_know`): threads due now or overdue, reveals due,
the dead among the people in play or near them, who in play does not know what, the items the
people in play hold. This module moves them into one block, adds the open conflicts that touch
the people in play, and pins them in order of how badly a chapter goes wrong without them, up
to a share of the budget; under pressure, history, distant events and passages go first.
"""

from __future__ import annotations

from collections.abc import Callable

from ...messages import say
from ..records import Conflict
from ..vocabulary import SEVERITY
from ..write.rulebook import RULES
from .memory_pack import PackItem
from .reasons import because

# worst first: what a chapter must not get wrong before what it had better remember
KINDS = (
    "critical_conflict",
    "dead",
    "reveal",
    "thread_due",
    "unaware",
    "items",
    "conflict",
    "overdue",
)
PINNED_SHARE = 0.5  # of the budget, at most, kept whatever the scores say
OVERDUE_PINNED = 3  # overdue threads pile up in a long book; the latest few are pinned
CONFLICTS_SHOWN = 10


def conflict_items(conflicts: list[Conflict], in_play: set[str]) -> list[PackItem]:
    """Open conflicts as 本章须知 lines: critical ones always, then those touching the people in
    play (or no one: a thread's, a rule's), newest first."""
    chosen = [
        c
        for c in conflicts
        if _severity(c) == "critical"
        or c.entity_id is None
        or c.entity_id in in_play
        or c.target in in_play
    ]
    chosen.sort(key=lambda c: (_severity(c) != "critical", -c.chapter, c.id))
    items = []
    for conflict in chosen[:CONFLICTS_SHOWN]:
        severity = _severity(conflict)
        item = PackItem(
            id=f"conflict:{conflict.id}",
            layer="semantic",
            category="conflict",
            subject=conflict.entity_id or conflict.id,
            field=conflict.kind,
            value=conflict.message,
            status="open",
            source_chapter=conflict.chapter,
            source_type="conflict",
            evidence=list(conflict.evidence),
            score=1.0 if severity == "critical" else 0.9,
            why=because("open_conflict", severity),
            line=say(
                "pack_line_conflict",
                severity=SEVERITY.get(severity, severity),
                message=conflict.message,
            ),
        )
        item.must_know = "critical_conflict" if severity == "critical" else "conflict"
        items.append(item)
    return items


def gather_must_know(
    sections: dict[str, list[PackItem]],
    conflicts: list[PackItem],
    budget: int,
    count_tokens: Callable[[str], int],
) -> list[PackItem]:
    """Moves the marked items out of their sections into the block, in `KINDS` order, and pins
    them while they fit `PINNED_SHARE` of the budget; the rest stay in the block unpinned."""
    marked = list(conflicts)
    for name, items in sections.items():
        marked += [item for item in items if item.must_know]
        sections[name] = [item for item in items if not item.must_know]
    for item in conflicts:
        item.tokens = count_tokens(item.line) + 1
    order = {kind: i for i, kind in enumerate(KINDS)}
    # within a kind: the people most in play first (their score carries it), then the newest
    marked.sort(
        key=lambda i: (order.get(i.must_know, len(KINDS)), -i.score, -(i.source_chapter or 0))
    )
    room = int(budget * PINNED_SHARE)
    overdue = 0
    for item in marked:
        if item.must_know == "overdue":
            overdue += 1
            if overdue > OVERDUE_PINNED:
                continue
        if item.tokens <= room:
            item.pinned = True
            room -= item.tokens
    return marked


def _severity(conflict: Conflict) -> str:
    rule = RULES.get(conflict.kind)
    return rule.severity if rule else "medium"
