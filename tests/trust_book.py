"""A small serial written the way agents write it (JSON chapter results, as in
examples/sample-book/results/), for the checks of a pack an agent can trust: the dead in
memories, who knows what, items as things, the realm under its genre's words, places against
scenes. Each function is one chapter; `BOOK` is the book in order."""

from __future__ import annotations

from typing import Any

Result = dict[str, Any]


def ch1() -> Result:
    return {
        "chapter": 1,
        "title": "青石",
        "summary": "林砚在青石镇与苏晚晴相遇；挚友韩啸在黑风谷，屠七得血色骨哨。",
        "entities_new": [
            {
                "id": "linyan",
                "name": "林砚",
                "type": "角色",
                "is_protagonist": True,
                "current": {"realm": "金丹", "location": "青石镇"},
            },
            {
                "id": "suwanqing",
                "name": "苏晚晴",
                "type": "角色",
                "current": {"location": "青石镇"},
            },
            {"id": "hanxiao", "name": "韩啸", "type": "角色", "current": {"location": "黑风谷"}},
            {"id": "tuqi", "name": "屠七", "type": "角色", "current": {"location": "焚骨岭"}},
            {"id": "baimei", "name": "白眉", "type": "角色", "current": {"location": "玄霄门"}},
            {"id": "yansong", "name": "严松", "type": "角色", "current": {"location": "玄霄门"}},
            {
                "id": "linyuanshan",
                "name": "林远山",
                "type": "角色",
                "current": {"location": "黑风谷"},
            },
        ],
        "state_changes": [
            {
                "entity_id": "屠七",
                "field": "items",
                "op": "add",
                "new": "血色骨哨",
                "reason": "夺得",
            }
        ],
        "relationships_new": [{"from": "林砚", "to": "韩啸", "type": "挚友"}],
        "secrets": [
            {
                "id": "yansong-mole",
                "content": "严松是血衣堂安插在玄霄门的内奸",
                "known_by": ["屠七"],
                "about": ["严松"],
            },
            {
                "id": "father-alive",
                "content": "林远山没死，被困在黑风谷",
                "known_by": ["白眉"],
                "about": ["林远山"],
                "unaware": ["林远山"],
            },
            {
                "id": "stele-lock",
                "content": "玄字碑的封印以白眉的血为锁",
                "known_by": ["白眉"],
            },
        ],
        "scenes": [
            {"index": 1, "location": "青石镇", "characters": ["林砚", "苏晚晴"], "summary": "相遇"},
        ],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "青石镇"}},
    }


def ch2() -> Result:
    return {
        "chapter": 2,
        "title": "断刀",
        "summary": "韩啸在黑风谷为屠七所杀。",
        "entities_appeared": [{"id": "韩啸"}, {"id": "屠七"}],
        "state_changes": [
            {"entity_id": "韩啸", "field": "status", "new": "死亡", "reason": "为屠七所杀"}
        ],
        "timeline_events": [
            {"event": "韩啸战死", "participants": ["韩啸", "屠七"], "location": "黑风谷"}
        ],
        "scenes": [
            {"index": 1, "location": "黑风谷", "characters": ["韩啸", "屠七"], "summary": "断刀"},
        ],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "黑风谷"}},
    }


def ch3() -> Result:
    """A memory of the dead friend, told as agents tell it: he is listed as appearing."""
    return {
        "chapter": 3,
        "title": "旧梦",
        "summary": "林砚忆起与韩啸在玄霄门论剑，醒来与苏晚晴仍在青石镇。",
        "entities_appeared": [{"id": "林砚"}, {"id": "韩啸"}, {"id": "苏晚晴"}],
        "timeline_events": [
            {
                "event": "韩啸与林砚论剑",
                "participants": ["韩啸", "林砚"],
                "location": "玄霄门",
                "flashback": "回忆",
            }
        ],
        "scenes": [
            {
                "index": 1,
                "location": "玄霄门",
                "characters": ["林砚", "韩啸"],
                "flashback": True,
                "time": "三年前",
            },
            {"index": 2, "location": "青石镇", "characters": ["林砚", "苏晚晴"]},
            {"index": 3, "location": "玄霄门", "characters": ["韩啸"], "flashback": "梦境"},
        ],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "青石镇"}},
    }


BOOK = [ch1, ch2, ch3]
