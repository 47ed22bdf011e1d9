"""What each kind of item in a chapter result may hold, as forgiving intake (`intake.py`) reads
it: the canonical keys with the synonyms each accepts (Chinese, near misses, English variants),
and which values are read as enums, lists of names, whole numbers, confidences or flags."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..vocabulary import (
    APPEARANCE_ROLES,
    CERTAINTIES,
    ENTITY_TYPES,
    KNOWLEDGE_CHANGES,
    RELATION_ACTIONS,
    RULE_ACTIONS,
    SCENE_MODES,
    SECRET_ACTIONS,
    SECRET_KINDS,
    SET_OPS,
    THREAD_ACTIONS,
    THREAD_KINDS,
    TIERS,
    Terms,
)


@dataclass(frozen=True, kw_only=True)
class Section:
    """What one kind of item may hold: its keys with the synonyms each accepts, and how the
    values of some keys are read."""

    keys: Mapping[str, tuple[str, ...]]
    enums: Mapping[str, tuple[Terms, bool]] = field(default_factory=dict)  # key: (terms, open)
    refs: tuple[str, ...] = ()  # lists of names: a string holding several is split
    numbers: tuple[str, ...] = ()  # whole numbers: 「第二十五章」 is 25, "80" is 80
    confidences: tuple[str, ...] = ()  # 0..1; 95 and "95%" are 0.95
    flags: tuple[str, ...] = ()  # true/false; 「是」/「否」 too
    free: tuple[str, ...] = ()  # keys whose values are objects of the writer's own keys


TOP = Section(
    keys={
        "chapter": ("章", "章节", "章节号", "章号", "chapter_number", "chapter_no", "chapter_num"),
        "title": ("标题", "章名", "章节标题", "chapter_title"),
        "summary": ("摘要", "概要", "梗概", "本章摘要", "chapter_summary"),
        "word_count": ("字数", "words", "wordcount", "word_num"),
        "entities_new": ("新实体", "新登场", "新人物", "new_entities", "entity_new"),
        "entities_appeared": (
            "出场",
            "出场实体",
            "出场人物",
            "appearances",
            "appeared",
            "entity_appeared",
            "characters_appeared",
        ),
        "state_changes": (
            "状态变化",
            "状态变更",
            "状态更新",
            "state_change",
            "state_updates",
            "changes",
        ),
        "relationships_new": (
            "关系",
            "关系变化",
            "新关系",
            "relationships",
            "relations",
            "relationship_changes",
            "relations_new",
        ),
        "plot_threads": ("线索", "伏笔", "情节线索", "threads", "plot_thread", "foreshadowing"),
        "world_rules": ("世界规则", "设定", "规则", "rules", "world_rule"),
        "timeline_events": ("时间线", "事件", "时间线事件", "events", "timeline"),
        "scenes": ("场景", "scene"),
        "chapter_meta": ("章节信息", "元信息", "meta", "metadata"),
        "secrets": ("秘密", "secret"),
        "knowledge_changes": ("认知变化", "知情变化", "knowledge", "knowledge_change"),
        "uncertain": ("不确定", "存疑", "uncertainties"),
        "memory_facts": (),
    },
    numbers=("chapter", "word_count"),
    free=("chapter_meta", "memory_facts"),
)
ENTITY_NEW = Section(
    keys={
        "id": ("suggested_id", "entity_id", "编号"),
        "name": ("名字", "名称", "姓名", "entity_name"),
        "type": ("类型", "entity_type", "kind", "类别"),
        "tier": ("层级", "重要度", "定位", "importance"),
        "desc": ("描述", "简介", "description", "介绍"),
        "aliases": ("别名", "别称", "alias", "又名", "称呼"),
        "current": ("当前", "当前状态", "初始状态", "state", "attributes", "fields"),
        "is_protagonist": ("主角", "是否主角", "protagonist"),
        "revealed": ("揭示身份", "真名揭晓", "reveal", "is_revealed"),
    },
    enums={"type": (ENTITY_TYPES, True), "tier": (TIERS, True)},
    refs=("aliases",),
    flags=("is_protagonist", "revealed"),
    free=("current",),
)
APPEARED = Section(
    keys={
        "id": ("entity_id", "name", "entity", "实体", "角色", "人物"),
        "mentions": ("提及", "称呼", "mention"),
        "confidence": ("置信度", "可信度"),
        "role": ("方式", "出场方式", "appearance"),
    },
    enums={"role": (APPEARANCE_ROLES, False)},
    refs=("mentions",),
    confidences=("confidence",),
)
STATE_CHANGE = Section(
    keys={
        "entity_id": ("entity", "实体", "角色", "人物", "character", "subject", "id", "who"),
        "field": ("字段", "属性", "attribute", "key", "field_path", "field_name", "property"),
        "old": ("旧值", "原值", "old_value", "before", "previous"),
        "new": ("新值", "值", "value", "new_value", "after", "current"),
        "op": ("操作", "operation", "action", "mode"),
        "reason": ("原因", "理由", "cause", "why"),
        "confidence": ("置信度", "可信度"),
        "certainty": ("确定性", "来源可信度", "可信性", "消息来源类型", "reliability"),
        "said_by": ("据", "来源人", "出自", "说话人", "消息来源", "according_to", "speaker"),
    },
    enums={"op": (SET_OPS, False), "certainty": (CERTAINTIES, False)},
    confidences=("confidence",),
)
RELATION = Section(
    keys={
        "from": ("source", "from_entity", "subject", "主体", "一方", "发起者"),
        "to": ("target", "to_entity", "object", "对象", "另一方"),
        "type": ("relation", "relation_type", "relationship", "关系", "类型", "kind"),
        "action": ("动作", "操作", "op", "operation"),
        "description": ("描述", "说明", "desc", "detail"),
        "evidence": ("证据", "依据", "出处"),
        "confidence": ("置信度", "可信度"),
    },
    enums={"action": (RELATION_ACTIONS, False)},
    confidences=("confidence",),
)
THREAD = Section(
    keys={
        "id": ("thread_id", "编号"),
        "kind": ("类型", "种类", "type", "thread_kind", "thread_type"),
        "action": ("动作", "操作", "status", "状态", "op"),
        # `progress`: what `threads` answers an advance said, echoed back by an agent
        "content": ("description", "text", "内容", "描述", "progress", "进展"),
        "due_chapter": (
            "expected_payoff",
            "预计回收",
            "回收章节",
            "due",
            "payoff_chapter",
            "到期章节",
            "deadline",
        ),
        "urgency": ("紧迫度", "紧急度", "priority"),
        "due_time": ("到期时间", "期限", "时限", "故事内期限", "due_in", "due_story_time"),
        "related": ("相关", "相关角色", "相关人物", "entities", "characters", "participants"),
    },
    enums={"kind": (THREAD_KINDS, False), "action": (THREAD_ACTIONS, False)},
    refs=("related",),
    numbers=("due_chapter", "urgency"),
)
RULE = Section(
    keys={
        "id": ("rule_id", "编号"),
        "rule": ("content", "规则", "内容", "text", "description"),
        "domain": ("领域", "类别", "category", "分类"),
        "action": ("动作", "操作", "op"),
    },
    enums={"action": (RULE_ACTIONS, False)},
)
EVENT = Section(
    keys={
        "event": ("description", "事件", "内容", "content", "summary"),
        "time_hint": ("时间", "time", "时间提示", "when"),
        "participants": ("参与者", "人物", "角色", "characters", "entities", "people"),
        "location": ("地点", "位置", "place", "where"),
        "event_type": ("类型", "type", "事件类型", "kind"),
        "flashback": ("闪回", "倒叙", "非当下", "mode", "scene_mode", "is_flashback"),
    },
    enums={"flashback": (SCENE_MODES, False)},
    refs=("participants",),
)
SCENE = Section(
    keys={
        "index": ("序号", "编号", "number", "no", "scene_index"),
        "location": ("地点", "位置", "place", "where"),
        "characters": ("人物", "角色", "participants", "people", "entities", "出场人物"),
        "summary": ("摘要", "概要", "梗概"),
        "content": ("正文", "text", "内容"),
        "time": ("时间", "时刻", "故事时间", "when", "story_time", "time_hint"),
        "flashback": ("闪回", "倒叙", "非当下", "mode", "scene_mode", "is_flashback"),
    },
    enums={"flashback": (SCENE_MODES, False)},
    refs=("characters",),
    numbers=("index",),
)
SECRET = Section(
    keys={
        "id": ("secret_id", "编号"),
        "action": ("动作", "操作", "op"),
        "content": ("内容", "描述", "description", "text"),
        "known_by": ("知情者", "知情人", "knowers", "known", "who_knows"),
        "reader_knows": ("读者已知", "读者知道", "reader_aware", "reader_known"),
        "reveal_due": ("揭示章节", "预计揭示", "due_chapter", "reveal_chapter", "due"),
        "about": ("关于", "涉及", "subject", "subjects", "concerns"),
        "unaware": ("不知情", "本人不知", "unaware_of_it"),
        "kind": ("类型", "秘密类型", "type", "category"),
        "to": ("告知", "对象", "告知对象", "revealed_to", "told_to", "audience", "learners"),
        "scene": ("场景", "scene_index", "在场景"),
        "thread": ("线索", "thread_id", "相关线索"),
    },
    enums={"action": (SECRET_ACTIONS, False), "kind": (SECRET_KINDS, False)},
    refs=("known_by", "about", "unaware", "to"),
    numbers=("reveal_due", "scene"),
    flags=("reader_knows",),
)
KNOWLEDGE = Section(
    keys={
        "entity_id": ("entity", "角色", "人物", "character", "who", "实体"),
        "secret_id": ("secret", "秘密"),
        "change": ("变化", "action", "动作", "type"),
        "how": ("方式", "途径", "method", "means"),
        "from": ("来源", "source", "告知者", "informant", "told_by"),
    },
    enums={"change": (KNOWLEDGE_CHANGES, False)},
)
UNCERTAIN = Section(
    keys={
        "mention": ("提及", "指代", "原文"),
        "candidates": ("候选", "可能"),
        "adopted": ("采用", "选定", "chosen"),
        "confidence": ("置信度", "可信度"),
    },
    refs=("candidates",),
    confidences=("confidence",),
)
SECTIONS: Mapping[str, Section] = {
    "entities_new": ENTITY_NEW,
    "entities_appeared": APPEARED,
    "state_changes": STATE_CHANGE,
    "relationships_new": RELATION,
    "plot_threads": THREAD,
    "world_rules": RULE,
    "timeline_events": EVENT,
    "scenes": SCENE,
    "secrets": SECRET,
    "knowledge_changes": KNOWLEDGE,
    "uncertain": UNCERTAIN,
}
# The older upstream shape (CONTRACT §1, compatibility) nests some lists here.
MEMORY_FACTS = {
    "timeline_events": EVENT,
    "world_rules": RULE,
    "open_loops": THREAD,
    "reader_promises": THREAD,
}
