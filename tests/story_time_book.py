"""A hand-written book of six chapters that spans three years of story time, for the story
clock's tests: relative times, a flashback with a dead man in it, a deadline in story time
crossed without payoff, another paid off, and an age that grows with the clock.

Day by day: ch1 清晨/黄昏 day 1 (韩啸闭关 四十九日后: due day 50; ending 黄昏); ch2 次日清晨
day 2, 周伯 dies that night (三年之约 三年后: due day 1082); ch3 a flashback ten years back
with 周伯 in it, then 三日后 day 5; ch4 四十日后 day 45, 半月后 day 60 (the 49 days pass);
ch5 翌年开春 day 420; ch6 两年后 day 1140, where the 三年之约 is kept."""

from __future__ import annotations

from typing import Any

CAST = [
    {"id": "linyan", "name": "林砚", "type": "角色", "current": {"age": "十六岁"}},
    {"id": "suwanqing", "name": "苏晚晴", "type": "角色"},
    {"id": "zhoubo", "name": "周伯", "type": "角色"},
    {"id": "hanxiao", "name": "韩啸", "type": "角色"},
]


def _scene(index: int, time: str | None, where: str, *who: str, **more: Any) -> dict[str, Any]:
    scene: dict[str, Any] = {"index": index, "location": where, "characters": list(who)}
    if time is not None:
        scene["time"] = time
    return scene | more


CHAPTERS: list[dict[str, Any]] = [
    {
        "chapter": 1,
        "title": "青石镇",
        "summary": "林砚在青石镇随周伯习字，黄昏上后山；韩啸闭关四十九日。",
        "entities_new": CAST,
        "scenes": [
            _scene(1, "清晨", "青石镇", "linyan", "zhoubo"),
            _scene(2, "黄昏", "后山", "linyan"),
        ],
        "plot_threads": [
            {
                "id": "hanxiao-seclusion",
                "kind": "foreshadowing",
                "content": "韩啸出关",
                "due_time": "四十九日后",
            }
        ],
        "chapter_meta": {"ending": {"time": "黄昏", "location": "后山"}},
    },
    {
        "chapter": 2,
        "title": "周伯之死",
        "summary": "次日清晨林砚与苏晚晴立下三年之约；当夜周伯身死。",
        "scenes": [
            _scene(1, "次日清晨", "青石镇", "linyan", "suwanqing"),
            _scene(2, "当夜", "青石镇", "linyan", "zhoubo"),
        ],
        "state_changes": [{"entity_id": "zhoubo", "field": "status", "new": "死亡"}],
        "timeline_events": [
            {
                "event": "周伯身死",
                "location": "青石镇",
                "participants": ["zhoubo"],
                "time_hint": "当夜",
            }
        ],
        "plot_threads": [
            {
                "id": "three-year-pact",
                "kind": "reader_promise",
                "content": "三年之约",
                "due_time": "三年后",
            }
        ],
    },
    {
        "chapter": 3,
        "title": "旧宅",
        "summary": "林砚忆起十年前周伯抱他出火场；三日后他到了青云宗。",
        "scenes": [
            _scene(1, "十年前", "林家旧宅", "linyan", "zhoubo", flashback=True),
            _scene(2, "三日后", "青云宗", "linyan", "suwanqing"),
        ],
        "timeline_events": [
            {"event": "林家大火，周伯抱出林砚", "location": "林家旧宅", "participants": ["zhoubo"]},
            {"event": "林砚拜入青云宗", "location": "青云宗", "participants": ["linyan"]},
        ],
    },
    {
        "chapter": 4,
        "title": "黑风谷",
        "summary": "四十日后林砚苦修；半月后他在黑风谷撞见出关的韩啸。",
        "scenes": [
            _scene(1, "四十日后", "青云宗", "linyan"),
            _scene(2, "半月后", "黑风谷", "linyan", "hanxiao"),
        ],
        "timeline_events": [{"event": "韩啸出关", "location": "黑风谷"}],
    },
    {
        "chapter": 5,
        "title": "开春",
        "summary": "翌年开春，林砚与苏晚晴在青云宗重逢。",
        "scenes": [_scene(1, "翌年开春", "青云宗", "linyan", "suwanqing")],
    },
    {
        "chapter": 6,
        "title": "三年",
        "summary": "两年后，林砚赴三年之约。",
        "scenes": [_scene(1, "两年后", "青石镇", "linyan", "suwanqing")],
        "plot_threads": [{"id": "three-year-pact", "action": "resolve", "content": "林砚赴约"}],
        "chapter_meta": {"ending": {"time": "黄昏", "location": "青石镇"}},
    },
]
