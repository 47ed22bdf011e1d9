"""A pack's words for a person: the tasks' names and each item's reason in Chinese. JSON keeps
the contract's English (`task`, `why`), which agents and tools read; text output and the
dashboard show these."""

from __future__ import annotations

import re
from collections.abc import Callable

TASK = {
    "chapter_write": "写作",
    "consistency_check": "一致性检查",
    "continuity_query": "连续性提问",
    "review": "审阅",
}

# A pack item's `why` is English in JSON (the contract's field, read by agents and tools); an
# author reading the dashboard gets it in Chinese. Patterns are tried in order.
CHUNK_WORDS = {
    "chapter_summary": "章节摘要",
    "scene_summary": "场景摘要",
    "scene_slice": "正文片段",
}
_SOURCES = {"outline": "大纲", "query": "提问", "draft": "草稿"}
_SEVERITY = {"critical": "严重", "high": "高", "medium": "中", "low": "低"}
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
        (r"^in play but dead$", lambda m: "在场人物中已死亡者"),
        (r"^near the scene but dead$", lambda m: "近期同场者中已死亡者"),
        (r"^in the last scene of ch (\d+)$", lambda m: f"第{m[1]}章最后一场在场"),
        (r"^point of view$", lambda m: "视角人物"),
        (r"^named by a thread due at ch (\d+)$", lambda m: f"第{m[1]}章到期的伏笔涉及"),
        (r"^named by an open conflict$", lambda m: "未解决的矛盾涉及"),
        (r"^shared recent scenes with (.+)$", lambda m: f"近期与{m[1]}同场"),
        (r"^(.+) is in play and only suspects it$", lambda m: f"{m[1]}在场且仅怀疑"),
        (r"^an open (\w+) conflict$", lambda m: f"未解决的矛盾（{_SEVERITY.get(m[1], m[1])}）"),
        (r"^rule in force since ch (\d+)$", lambda m: f"自第{m[1]}章起生效的规则"),
        (r"^event involving (.+) \(ch (\d+)\)$", lambda m: f"与{m[1]}有关的事件（第{m[2]}章）"),
        (
            r"^recent change of (.+) \(until ch (\d+)\)$",
            lambda m: f"{m[1]}的近期变化（至第{m[2]}章）",
        ),
        (r"^shares terms with the outline: (.+)$", lambda m: f"与大纲共有词：{m[1]}"),
        (
            r"^shares terms with the scene: (.+)$",
            lambda m: f"与在场人物的物品或所在共有词：{m[1]}",
        ),
        (r"^(\w+) from ch (\d+)$", lambda m: f"第{m[2]}章的{CHUNK_WORDS.get(m[1], m[1])}"),
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
