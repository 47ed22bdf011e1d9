"""The Chinese words an author reads for the engine's vocabulary: statuses, sources, thread kinds
and states, severities, conflict kinds, tasks and common fields. The CLI's text output and the
dashboard use the same words; JSON keeps the contract's English values."""

from __future__ import annotations

import re
from collections.abc import Callable

from .memory.memory_pack import SECTION_TITLES

STATUS = {"active": "当前", "outdated": "已过时", "contradicted": "被推翻", "tentative": "待定"}
SOURCE = {
    "state_change": "状态变化",
    "entity_new": "登场",
    "relationship": "关系",
    "world_rule": "世界规则",
    "thread": "线索",
    "summary": "摘要",
    "manual": "手动",
    "review": "审阅",
}
THREAD_STATUS = {"open": "未回收", "resolved": "已回收", "abandoned": "已放弃"}
THREAD_KIND = {
    "foreshadowing": "伏笔",
    "open_loop": "悬念",
    "reader_promise": "读者承诺",
    "subplot": "支线",
}
SEVERITY = {"critical": "致命", "high": "严重", "medium": "中等", "low": "轻微"}
CHUNK_KIND = {
    "chapter_summary": "章节摘要",
    "scene_summary": "场景摘要",
    "scene_slice": "正文片段",
}
COMMIT_STATUS = {"committed": "已提交", "unchanged": "未变化", "retracted": "已撤回"}
CONFLICT_KIND = {
    "dead_entity_active": "死者行动",
    "regression": "境界倒退",
    "old_value_mismatch": "旧值不符",
    "relation_end_missing": "结束不存在的关系",
    "thread_closed": "线索已关闭",
    "rule_unknown": "未知规则",
    "unknown_entity": "未知实体",
    "duplicate_entity": "重复登场",
    "secret_source_unaware": "消息来源不知情",
    "secret_unknown": "未埋设的秘密",
    "thread_unknown": "未知线索",
    "set_remove_missing": "移除不存在之物",
}
ADVICE_KIND = {
    "ladder_regression": "有理由的境界跌落",
    "name_taken": "重名",
    "ambiguous_alias": "指代不明",
    "relation_jump": "关系突变",
    "early_reveal": "提前揭示",
    "already_known": "已知的秘密",
    "promise_due": "承诺到期",
    "thread_overdue": "线索逾期",
    "location_continuity": "地点不连贯",
}
CONFLICT_STATUS = {"open": "未决", "accepted": "有意为之", "resolved": "已解决"}
SECTION = SECTION_TITLES  # the pack's own headings, as the agent reads them
TASK = {
    "chapter_write": "写作",
    "consistency_check": "一致性检查",
    "continuity_query": "连续性提问",
    "review": "审阅",
}
FIELD = {
    "realm": "境界",
    "location": "位置",
    "status": "状态",
    "faction": "阵营",
    "identity": "身份",
    "health": "伤势",
    "items": "物品",
    "title": "称号",
    "age": "年龄",
    "goal": "目标",
    "mood": "心境",
    "spirit_root": "灵根",
    "cultivation": "修为",
    "occupation": "职业",
    "weapon": "兵器",
}
ENTITY_TYPE_PLURAL = {"角色": "人物", "地点": "地点", "势力": "势力", "物品": "物品"}


def label(table: dict[str, str], key: str | None) -> str:
    """The Chinese word for a key, or the key itself where the table has none."""
    if key is None:
        return ""
    return table.get(key, key)


# A pack item's `why` is English in JSON (the contract's field, read by agents and tools); an
# author reading the dashboard gets it in Chinese. Patterns are tried in order.
_SOURCES = {"outline": "大纲", "query": "提问", "draft": "草稿"}
_WHY: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern), say)
    for pattern, say in (
        (r"^the chapter's outline", lambda m: "本章大纲（放得下就一定保留）"),
        (r"^where the previous chapter ended$", lambda m: "上一章的结尾"),
        (r"^summary of recent chapter (\d+)$", lambda m: f"近期第{m[1]}章的摘要"),
        (r"^named in (\w+) as (.+)$", lambda m: f"{_SOURCES.get(m[1], m[1])}中以「{m[2]}」提及"),
        (r"^named in (\w+)$", lambda m: f"{_SOURCES.get(m[1], m[1])}中提及"),
        (r"^protagonist$", lambda m: "主角"),
        (r"^active in the last chapters$", lambda m: "最近几章出场"),
        (r"^touched by the draft$", lambda m: "草稿涉及"),
        (r"^between two entities in play$", lambda m: "两个在场实体之间"),
        (r"^relation of (.+) \((.+)\)$", lambda m: f"{m[1]}的关系（{why_text(m[2])}）"),
        (r"^(\d+) hops out, via (.+)$", lambda m: f"经{m[2]}相连，隔{m[1]}层"),
        (r"^overdue since ch (\d+)$", lambda m: f"自第{m[1]}章起逾期"),
        (
            r"^thread due at ch (\d+), (-?\d+) chapters left$",
            lambda m: f"应于第{m[1]}章回收，还剩{m[2]}章",
        ),
        (r"^involves (.+)$", lambda m: f"涉及{m[1]}"),
        (r"^a reveal due in this chapter$", lambda m: "本章应揭示"),
        (r"^(.+) is in play and does not know it$", lambda m: f"{m[1]}在场且不知情"),
        (r"^died at ch (\d+)$", lambda m: f"第{m[1]}章已死"),
        (r"^named for this chapter but dead$", lambda m: "本章被提及，但已死亡"),
        (r"^rule in force since ch (\d+)$", lambda m: f"自第{m[1]}章起生效的规则"),
        (r"^event involving (.+) \(ch (\d+)\)$", lambda m: f"与{m[1]}有关的事件（第{m[2]}章）"),
        (
            r"^recent change of (.+) \(until ch (\d+)\)$",
            lambda m: f"{m[1]}的近期变化（至第{m[2]}章）",
        ),
        (r"^shares terms with the outline: (.+)$", lambda m: f"与大纲共有词：{m[1]}"),
        (r"^(\w+) from ch (\d+)$", lambda m: f"第{m[2]}章的{label(CHUNK_KIND, m[1])}"),
        (r"^([^:]+): (.+)$", lambda m: f"{m[1]}：{why_text(m[2])}"),
    )
)


def why_text(why: str) -> str:
    """A pack item's reason in Chinese; a reason no pattern knows is shown as it is."""
    for pattern, say in _WHY:
        found = pattern.match(why)
        if found:
            return say(found)
    return why
