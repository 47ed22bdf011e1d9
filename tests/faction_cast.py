"""A generated book whose cast is big enough to crowd a relation graph: `people` characters in
`factions` factions (each a 势力 entity and the `faction` field of its members), linked inside a
faction (each to its leader and to the one before) and across factions (rivals), and one
defector in chapter 2, so a graph as of chapter 1 and as of chapter 2 group differently; with
`hub`, the first person meets that many of the other factions in chapter 2 (a centre too big
for one ring)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import webnovel

SURNAMES = "林苏韩白赵厉周陆沈叶顾秦萧楚温江"
GIVEN = [
    "远山",
    "晚晴",
    "啸",
    "眉",
    "衡",
    "沉",
    "伯言",
    "砚",
    "清风",
    "云舒",
    "雪",
    "霜华",
    "月",
    "星河",
]
FACTION_NAMES = ["玄霄门", "血衣堂", "青城剑派", "天机阁", "北冥王府", "落霞谷", "万妖山"]


def person_name(i: int) -> str:
    """A distinct name of two to four characters (every seventh a title-like long one)."""
    name = SURNAMES[i % len(SURNAMES)] + GIVEN[(i // len(SURNAMES) + i) % len(GIVEN)]
    if i % 7 == 3:
        name += "长老"
    return name


def cast(people: int, factions: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the entities to introduce, the relations among them)."""
    sides = [{"id": f"f{k}", "name": FACTION_NAMES[k], "type": "势力"} for k in range(factions)]
    members: list[list[str]] = [[] for _ in range(factions)]
    entities: list[dict[str, Any]] = list(sides)
    seen: set[str] = set()
    for i in range(people):
        name = person_name(i)
        while name in seen:
            name += "二"
        seen.add(name)
        side = i % factions
        members[side].append(f"p{i:02d}")
        entities.append(
            {
                "id": f"p{i:02d}",
                "name": name,
                "type": "角色",
                "current": {"faction": FACTION_NAMES[side], "status": "存活"},
            }
        )
    relations = []
    for side, ids in enumerate(members):
        leader = ids[0]
        relations.append({"from": leader, "to": f"f{side}", "type": "效忠"})
        for before, one in zip(ids, ids[1:], strict=False):
            relations.append({"from": one, "to": leader, "type": "师徒"})
            if before != leader:
                relations.append({"from": one, "to": before, "type": "同门"})
        rival = members[(side + 1) % factions]
        relations.append({"from": ids[1], "to": rival[1], "type": "仇敌"})
    return entities, relations


def acquaintances(people: int, factions: int, hub: int) -> list[dict[str, Any]]:
    """The first person's acquaintances in the other factions: `hub` of them."""
    others = [f"p{i:02d}" for i in range(people) if i % factions != 0]
    return [{"from": "p00", "to": one, "type": "相识"} for one in others[:hub]]


def build_faction_book(folder: Path, people: int = 50, factions: int = 5, hub: int = 0) -> Path:
    entities, relations = cast(people, factions)
    with webnovel.init_project(folder, title="群像", genre="仙侠") as book:
        book.commit(
            {
                "chapter": 1,
                "title": "群英会",
                "summary": "各派齐聚。",
                "entities_new": entities,
                "entities_appeared": [{"id": e["id"]} for e in entities],
                "relationships_new": relations,
            }
        )
        book.commit(
            {
                "chapter": 2,
                "title": "叛门",
                "summary": "一人改投他派。",
                "state_changes": [
                    {"entity_id": "p05", "field": "faction", "new": FACTION_NAMES[1]}
                ],
                "relationships_new": acquaintances(people, factions, hub),
            }
        )
    return folder
