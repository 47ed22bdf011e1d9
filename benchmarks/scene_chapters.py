"""The sample serial continued, chapters 13–19, for the scene benchmark (`pack_quality.py
--scenes`): the story an agent wrote through MCP when packs followed the outline's names and
not the scene. 韩啸 dies covering the retreat (14); 霍忠, a guide, is 血衣堂's eye (14, a
secret about him); 苏晚晴 finds him out (15) and tells 林砚 (16); 林远山 is chained in the blood
pool where chapter 17 and 18 end; and 韩啸, dead, fights in 18 (a critical conflict).
"""

from __future__ import annotations

from typing import Any


def _scene(index: int, location: str, *characters: str, summary: str = "") -> dict[str, Any]:
    return {
        "index": index,
        "location": location,
        "characters": list(characters),
        "summary": summary,
    }


CHAPTERS: list[dict[str, Any]] = [
    {
        "chapter": 13,
        "title": "断刀",
        "summary": "林砚与苏晚晴夜探血衣堂赤炎分舵，分舵人去楼空；废墟中遇重伤的韩啸。苏晚晴压住其血煞，"
        "韩啸道出救林远山的关键：血煞锁需青灯与《青灯剑诀》同时破之。追兵将至，韩啸断后。",
        "state_changes": [
            {"entity_id": "韩啸", "field": "health", "new": "重伤", "reason": "被血衣堂追兵所伤"},
            {"entity_id": "韩啸", "field": "location", "new": "赤炎分舵废墟"},
            {"entity_id": "林砚", "field": "location", "new": "赤炎分舵废墟"},
            {"entity_id": "苏晚晴", "field": "location", "new": "赤炎分舵废墟"},
        ],
        "scenes": [
            _scene(1, "赤炎分舵", "林砚", "苏晚晴", summary="分舵人去楼空"),
            _scene(2, "赤炎分舵废墟", "林砚", "苏晚晴", "韩啸", summary="遇韩啸，压住血煞"),
            _scene(3, "赤炎分舵废墟", "林砚", "苏晚晴", "韩啸", summary="韩啸断后，二人先走"),
        ],
        "timeline_events": [
            {
                "event": "韩啸道出破血煞锁之法",
                "participants": ["韩啸", "林砚"],
                "location": "赤炎分舵废墟",
            }
        ],
        "chapter_meta": {"ending": {"time": "夜", "location": "赤炎分舵废墟", "emotion": "紧迫"}},
    },
    {
        "chapter": 14,
        "title": "向导",
        "summary": "韩啸断后战死的消息传来。林砚与苏晚晴赶到黑风谷外的山村，雇猎户霍忠为向导；"
        "霍忠夜里放出信鸽。",
        "entities_new": [
            {
                "id": "huozhong",
                "name": "霍忠",
                "type": "角色",
                "current": {"location": "黑风谷外山村", "status": "存活", "identity": "猎户"},
            }
        ],
        "state_changes": [
            {"entity_id": "韩啸", "field": "status", "new": "死亡", "reason": "断后战死"},
            {"entity_id": "林砚", "field": "location", "new": "黑风谷外山村"},
            {"entity_id": "苏晚晴", "field": "location", "new": "黑风谷外山村"},
            {"entity_id": "林砚", "field": "items", "op": "add", "new": "血煞锁图"},
        ],
        "secrets": [
            {
                "id": "huozhong-spy",
                "content": "霍忠是血衣堂的眼线",
                "about": ["霍忠"],
                "known_by": ["血衣堂主"],
                "reader_knows": False,
                "reveal_due": 16,
            }
        ],
        "scenes": [
            _scene(1, "黑风谷外山村", "林砚", "苏晚晴", summary="得知韩啸战死"),
            _scene(2, "黑风谷外山村", "林砚", "苏晚晴", "霍忠", summary="雇霍忠为向导"),
            _scene(3, "山村猎户屋", "林砚", "苏晚晴", "霍忠", summary="夜里信鸽振翅"),
        ],
        "chapter_meta": {"ending": {"time": "夜", "location": "山村猎户屋", "emotion": "不安"}},
    },
    {
        "chapter": 15,
        "title": "信鸽",
        "summary": "苏晚晴截下霍忠的信鸽，识破他是血衣堂的眼线；霍忠逃入黑风谷。",
        "knowledge_changes": [
            {"entity_id": "苏晚晴", "secret_id": "huozhong-spy", "how": "截下信鸽，读到密信"}
        ],
        "state_changes": [
            {"entity_id": "霍忠", "field": "location", "new": "黑风谷", "reason": "事败逃走"},
            {"entity_id": "苏晚晴", "field": "items", "op": "add", "new": "密信"},
        ],
        "scenes": [
            _scene(1, "山村猎户屋", "苏晚晴", "霍忠", summary="截下信鸽"),
            _scene(2, "山村外", "林砚", "苏晚晴", "霍忠", summary="霍忠逃走"),
            _scene(3, "山村外", "林砚", "苏晚晴", summary="苏晚晴欲言又止"),
        ],
        "chapter_meta": {"ending": {"time": "清晨", "location": "山村外", "emotion": "警觉"}},
    },
    {
        "chapter": 16,
        "title": "入谷",
        "summary": "苏晚晴告诉林砚霍忠是眼线。二人进入黑风谷，血衣堂主现身谷口，又隐去。",
        "secrets": [{"id": "huozhong-spy", "action": "reveal"}],
        "knowledge_changes": [
            {
                "entity_id": "林砚",
                "secret_id": "huozhong-spy",
                "how": "苏晚晴出示密信",
                "from": "苏晚晴",
            }
        ],
        "state_changes": [
            {"entity_id": "林砚", "field": "location", "new": "黑风谷"},
            {"entity_id": "苏晚晴", "field": "location", "new": "黑风谷"},
        ],
        "scenes": [
            _scene(1, "山村外", "林砚", "苏晚晴", summary="出示密信"),
            _scene(2, "黑风谷口", "林砚", "苏晚晴", "血衣堂主", summary="血衣堂主现身"),
            _scene(3, "黑风谷", "林砚", "苏晚晴", summary="深入谷中"),
        ],
        "chapter_meta": {"ending": {"time": "黄昏", "location": "黑风谷", "emotion": "肃杀"}},
    },
    {
        "chapter": 17,
        "title": "血池",
        "summary": "谷底血池中，林远山被血煞锁锁住。血衣堂主守在池边，霍忠站在他身后。",
        "state_changes": [
            {"entity_id": "林远山", "field": "location", "new": "血池"},
            {"entity_id": "林砚", "field": "location", "new": "血池"},
            {"entity_id": "苏晚晴", "field": "location", "new": "血池"},
            {"entity_id": "霍忠", "field": "location", "new": "血池"},
        ],
        "scenes": [
            _scene(1, "黑风谷", "林砚", "苏晚晴", summary="循血腥味下行"),
            _scene(2, "血池", "林砚", "苏晚晴", "林远山", "血衣堂主", "霍忠", summary="见父被锁"),
        ],
        "chapter_meta": {"ending": {"time": "夜", "location": "血池", "emotion": "悲愤"}},
    },
    {
        "chapter": 18,
        "title": "血战",
        "summary": "林砚与血衣堂主血战，青灯照破三道血煞锁；韩啸持断刀杀出，替林砚挡下一击。"
        "林远山仍锁在血池中。",
        "state_changes": [
            {"entity_id": "林远山", "field": "health", "new": "垂危", "reason": "血煞反噬"},
            {"entity_id": "血衣堂主", "field": "health", "new": "重伤"},
        ],
        "timeline_events": [
            {
                "event": "韩啸持断刀替林砚挡下一击",
                "participants": ["韩啸", "林砚"],
                "location": "血池",
            }
        ],
        "scenes": [
            _scene(1, "血池", "林砚", "血衣堂主", "韩啸", summary="血战"),
            _scene(2, "血池", "林砚", "苏晚晴", "林远山", summary="父仍在池中"),
        ],
        "chapter_meta": {"ending": {"time": "夜", "location": "血池", "emotion": "决绝"}},
    },
    {
        "chapter": 19,
        "title": "破锁",
        "summary": "林砚以青灯与剑诀同时破开最后的血煞锁，苏晚晴施针护住林远山心脉。",
        "state_changes": [
            {"entity_id": "林远山", "field": "status", "new": "获救"},
        ],
        "scenes": [
            _scene(1, "血池", "林砚", "苏晚晴", "林远山", summary="破锁救父"),
        ],
        "chapter_meta": {"ending": {"time": "拂晓", "location": "血池", "emotion": "悲喜"}},
    },
]
