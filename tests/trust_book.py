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
            {"id": "chengzhufu", "name": "城主府", "type": "地点"},
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
                "kind": "身份",
                "content": "严松是血衣堂安插在玄霄门的内奸",
                "known_by": ["屠七"],
                "about": ["严松"],
            },
            {
                "id": "father-alive",
                "kind": "生死",
                "content": "林远山没死，被困在黑风谷",
                "known_by": ["白眉"],
                "about": ["林远山"],
            },
            {
                "id": "stele-lock",
                "kind": "秘法",
                "content": "玄字碑的封印以白眉的血为锁",
                "known_by": ["白眉"],
                "thread": "stele",
            },
            {
                "id": "sect-seal",
                "kind": "计划",
                "content": "玄霄门将封山三年",
                "known_by": ["白眉"],
            },
            {
                "id": "tuqi-master",
                "kind": "身份",
                "content": "屠七的师父是血衣堂主",
                "about": ["屠七"],
            },
            {
                "id": "baimei-debt",
                "content": "白眉欠血衣堂一条命",
                "about": ["白眉"],
                "known_by": ["屠七"],
            },
            {
                "id": "yansong-letter",
                "kind": "计划",
                "content": "严松每月初一给血衣堂送信",
                "about": ["严松"],
            },
        ],
        "plot_threads": [
            {"id": "stele", "content": "玄字碑的封印", "related": ["白眉"]},
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


def ch4() -> Result:
    """The sect announces its plan to everyone in the hall: those there learn it."""
    return {
        "chapter": 4,
        "title": "宗门大会",
        "summary": "林砚与苏晚晴回到玄霄门，白眉当众宣布封山三年。",
        "entities_appeared": [{"id": "林砚"}, {"id": "苏晚晴"}, {"id": "白眉"}],
        "state_changes": [
            {"entity_id": "林砚", "field": "location", "new": "玄霄门", "reason": "回山赴会"},
            {"entity_id": "苏晚晴", "field": "location", "new": "玄霄门", "reason": "随林砚回山"},
        ],
        "secrets": [{"id": "sect-seal", "action": "reveal", "to": ["众人"], "scene": 1}],
        "scenes": [
            {"index": 1, "location": "玄霄门", "characters": ["白眉", "林砚", "苏晚晴"]},
        ],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "玄霄门"}},
    }


def ch5() -> Result:
    """The healer treats the man whose death was the secret; the stele's lock is broken."""
    return {
        "chapter": 5,
        "title": "黑风谷",
        "summary": "苏晚晴在黑风谷为林远山疗伤，林砚破开玄字碑的封印。",
        "entities_appeared": [{"id": "林砚"}, {"id": "苏晚晴"}, {"id": "林远山"}],
        "state_changes": [
            {"entity_id": "林砚", "field": "location", "new": "黑风谷", "reason": "寻父"},
            {"entity_id": "苏晚晴", "field": "location", "new": "黑风谷", "reason": "同行疗伤"},
        ],
        "plot_threads": [{"id": "stele", "action": "resolve", "content": "封印已破"}],
        "scenes": [
            {"index": 1, "location": "黑风谷", "characters": ["苏晚晴", "林远山", "林砚"]},
        ],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "黑风谷"}},
    }


def ch6() -> Result:
    """Where the mole went is only an enemy's word."""
    return {
        "chapter": 6,
        "title": "传言",
        "summary": "屠七托人传话，说严松去了焚骨岭；林砚与苏晚晴仍在黑风谷。",
        "entities_appeared": [{"id": "林砚"}, {"id": "苏晚晴"}],
        "state_changes": [
            {"entity_id": "严松", "field": "location", "new": "焚骨岭", "said_by": "屠七"},
        ],
        "scenes": [{"index": 1, "location": "黑风谷", "characters": ["林砚", "苏晚晴"]}],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "黑风谷"}},
    }


def ch7() -> Result:
    """屠七, who has held the whistle since chapter 1, gives it to 白眉."""
    return {
        "chapter": 7,
        "title": "骨哨",
        "summary": "屠七在玄霄门山门外把血色骨哨交给白眉。",
        "entities_appeared": [{"id": "屠七"}, {"id": "白眉"}],
        "state_changes": [
            {"entity_id": "屠七", "field": "location", "new": "玄霄门", "reason": "赴约交哨"},
            {"entity_id": "屠七", "field": "items", "op": "remove", "new": "血色骨哨"},
            {"entity_id": "白眉", "field": "items", "op": "add", "new": "血色骨哨"},
        ],
        "scenes": [{"index": 1, "location": "玄霄门", "characters": ["屠七", "白眉"]}],
        "chapter_meta": {"pov": "林砚", "ending": {"location": "玄霄门"}},
    }


BOOK = [ch1, ch2, ch3, ch4, ch5, ch6, ch7]
