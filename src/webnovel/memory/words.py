"""The one home of the Chinese words an author reads: statuses, sources, thread kinds and states,
severities, conflict kinds, tasks, pack sections and common fields. Packs, the CLI's text output
and the dashboard use the same words; JSON keeps the contract's English values. The enumerations'
own labels and synonyms live with their values in `vocabulary`."""

from __future__ import annotations

from .vocabulary import FIELDS, SCENE_MODES, SECRET_KINDS, THREAD_ACTIONS, THREAD_KINDS

TASK = {
    "chapter_write": "写作",
    "consistency_check": "一致性检查",
    "continuity_query": "连续性提问",
    "review": "审阅",
}

CHUNK_WORDS = {
    "chapter_title": "章名",
    "chapter_summary": "章节摘要",
    "scene_summary": "场景摘要",
    "scene_slice": "正文片段",
}

SECTION_TITLES = {
    "must_know": "本章须知",
    "working_memory": "近期上下文",
    "character_state": "人物当前状态",
    "constraints": "硬性约束",
    "relations": "人物关系",
    "threads": "伏笔与承诺",
    "world_rules": "世界规则",
    "timeline": "近期事件",
    "history": "状态变化",
    "episodic": "相关片段",
}

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
THREAD_KIND = THREAD_KINDS.labels
SCENE_MODE = SCENE_MODES.labels  # a scene that is not now: 回忆, 梦境
SECRET_KIND = SECRET_KINDS.labels  # what a secret is about: 身份, 生死, 下落…
SEVERITY = {"critical": "致命", "high": "严重", "medium": "中等", "low": "轻微"}
CHUNK_KIND = CHUNK_WORDS
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
    "reveal_takes_name": "揭示占用他人之名",
    "name_reintroduced": "已知之名另立新人",
    "secret_source_unaware": "消息来源不知情",
    "secret_unknown": "未埋设的秘密",
    "thread_unknown": "未知线索",
    "set_remove_missing": "移除不存在之物",
    "item_not_held": "交出未持有之物",
    "two_places_at_once": "同时身处两地",
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
    "item_held_elsewhere": "物品已有主",
    "knowledge_unrecorded": "是否已得知",
    "scene_location": "场景与位置不符",
    "time_backwards": "时间倒流",
    "unstated_night": "未交代的一夜",
    "deadline_passed": "期限已过",
}
CONFLICT_STATUS = {"open": "未决", "accepted": "有意为之", "resolved": "已解决"}
SECTION = SECTION_TITLES  # the pack's own headings, as the agent reads them
FIELD = FIELDS.labels  # the built-in fields; a book's own come from `Project.fields`
ENTITY_TYPE_PLURAL = {"角色": "人物", "地点": "地点", "势力": "势力", "物品": "物品"}


def label(table: dict[str, str], key: str | None) -> str:
    """The Chinese word for a key, or the key itself where the table has none."""
    if key is None:
        return ""
    return table.get(key, key)


__all__ = [
    "ADVICE_KIND",
    "CHUNK_KIND",
    "COMMIT_STATUS",
    "CONFLICT_KIND",
    "CONFLICT_STATUS",
    "ENTITY_TYPE_PLURAL",
    "FIELD",
    "SCENE_MODE",
    "SECRET_KIND",
    "SECTION",
    "SEVERITY",
    "SOURCE",
    "STATUS",
    "TASK",
    "THREAD_KIND",
    "THREAD_STATUS",
    "label",
]

# one chapter's report (`webnovel chapter N`, the dashboard's chapter page)
THREAD_ACTION = THREAD_ACTIONS.labels
SECRET_ACTION = {
    "plant": "埋设",
    "reveal": "向读者揭示",
    "retire": "废弃",
    "learns": "得知",
    "suspects": "开始怀疑",
    "forgets": "遗忘",
}
# chapter_meta.ending: what agents write, and the passage a text import keeps (`passage`)
ENDING = {"time": "时间", "location": "地点", "emotion": "情绪", "passage": "原文"}
