"""What each finding means to the author: its severity and how to fix it, in one table.

The findings themselves come from one place, the write path's rules (`chain_folds` and the
pipeline): committing a chapter records them as conflicts (or, for advice, as notes), and review
runs the same commit on a copy of memory that is thrown away. So review and commit cannot
disagree: every conflict kind at commit is an issue in review with the severity below, and every
blocking issue in review is a conflict kind at commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["critical", "high", "medium", "low"]
SEVERITIES: tuple[Severity, ...] = ("critical", "high", "medium", "low")
BLOCKING: frozenset[str] = frozenset({"critical", "high"})


@dataclass(frozen=True)
class Rule:
    severity: Severity
    fix_hint: str
    recorded: bool = True  # a conflict kind at commit; False: advice only (a note)


RULES: dict[str, Rule] = {
    # conflicts: recorded at commit, raised by review
    "dead_entity_active": Rule(
        "critical",
        "删去该角色的出场，或把出场方式写为「提及」（回忆或他人提到）；若确为复活，"
        "请在 state_changes 中把「状态」改为存活",
    ),
    "regression": Rule("critical", "若是跌落境界，请在 reason 中写明原因；否则改回不低于当前的值"),
    "old_value_mismatch": Rule(
        "high", "把 old 改为记忆中的值，或确认记忆有误后照常提交（提交会记录矛盾）"
    ),
    "relation_end_missing": Rule("high", "确认关系类型；不存在的关系无需结束"),
    "thread_closed": Rule("high", "若要重启该线索，请重新埋设；否则删去这条动作"),
    "rule_unknown": Rule("high", "若规则恢复，请重新揭示（确立）它；否则检查规则 id"),
    "unknown_entity": Rule(
        "high", "若是新角色，请在 entities_new 中登记；否则检查名字或别名是否写错"
    ),
    "duplicate_entity": Rule(
        "high", "已登场的实体请写在 entities_appeared / state_changes 中，不要再放进 entities_new"
    ),
    "reveal_takes_name": Rule(
        "high",
        "若两者本是同一人，请由作者用 candidates merge 合并；若是同名的两个人，"
        "去掉 revealed 或换用能区分的名字；否则删去这条揭示",
    ),
    "secret_source_unaware": Rule(
        "high", "换一个知情的来源，或先写明这个人是怎么得知的（knowledge_changes）"
    ),
    "secret_unknown": Rule("medium", "先在 secrets 中埋设这个秘密，或检查秘密 id 是否写错"),
    "thread_unknown": Rule("medium", "检查线索 id 是否写错，或补上埋设的章节"),
    "set_remove_missing": Rule("medium", "确认要移除的物品；记忆中没有的无需移除"),
    "item_not_held": Rule(
        "high",
        "由真正的持有者交出，或先写明它是怎么到了此人手里（state_changes 的物品 add）",
    ),
    "two_places_at_once": Rule(
        "high", "改掉其中一场的地点或人物，或去掉「同一时刻」，写明两场之间过了多久"
    ),
    # notes: advice at commit (a warning), an issue in review, never a conflict
    "ladder_regression": Rule("medium", "确认跌落境界的原因已在正文中交代", recorded=False),
    "name_taken": Rule("medium", "换一个名字，或在 uncertain 中写明指的是哪一个", recorded=False),
    "ambiguous_alias": Rule("medium", "改用实体 id，或在 uncertain 中写明 adopted", recorded=False),
    "relation_jump": Rule("low", "若是剧情转折（如背叛），无需修改", recorded=False),
    "early_reveal": Rule("low", "若是有意提前揭示，无需修改；否则推迟到原定章节", recorded=False),
    "already_known": Rule(
        "low", "此人早已知情，删去这条「得知」，或改写为确认/回忆", recorded=False
    ),
    # review's look around the draft (what it leaves undone), never a conflict
    "promise_due": Rule("medium", "在本章兑现承诺，或推进并顺延 due_chapter", recorded=False),
    "thread_overdue": Rule("low", "安排回收，或推进它并更新 due_chapter", recorded=False),
    "item_held_elsewhere": Rule(
        "medium",
        "若是转交，请在同一章把它从原持有者的物品中移除；若确有两件，请把其中一件登记为另一实体",
        recorded=False,
    ),
    # story time (memory/write/time_rules.py)
    "time_backwards": Rule(
        "medium", "若是回忆，请在场景上标 flashback；否则改成晚于上一场的时间", recorded=False
    ),
    "unstated_night": Rule(
        "low", "在时间前加上「次日」（如「次日清晨」），或补一句交代过了一夜", recorded=False
    ),
    "deadline_passed": Rule(
        "medium",
        "在本章兑现（resolve）这条线索，或让时间不越过期限，或改写它的 due_time",
        recorded=False,
    ),
    "location_continuity": Rule(
        "low", "在开头补一句转场，或确认这是有意的时空跳跃", recorded=False
    ),
    "scene_location": Rule(
        "medium",
        "若此人移动了，请在 state_changes 中记下位置变化（写明 reason）；否则改正场景的地点或人物",
        recorded=False,
    ),
    "knowledge_unrecorded": Rule(
        "low",
        "若此人已得知，请在 knowledge_changes 中记下（或在 secrets 的揭示中写 to）；"
        "若仍不知情，无需修改",
        recorded=False,
    ),
}

RECORDED_KINDS = tuple(kind for kind, rule in RULES.items() if rule.recorded)


def rule_for(kind: str) -> Rule:
    return RULES.get(kind, Rule("medium", ""))
