"""A seeded generator of chapter results at scale, with its own ground truth.

`generate_saga(chapters, seed)` writes ~30 memory items a chapter — new entities with aliases,
realm promotions along the ladder, journeys, items gained and lost (set fields), relations moving
inside the exclusive group, threads planted / advanced / resolved, rules revealed / revised /
retired, deaths, timeline events, scenes — and keeps, as it goes, the answer to every as-of
question in `Truth`. Tests use it to check memory at scale; benchmarks use it to time memory.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

LADDER = ["炼气", "筑基", "金丹", "元婴", "化神", "炼虚", "合体", "大乘", "渡劫"]
GROUP = ["陌生", "相识", "朋友", "挚友", "盟友", "对手", "敌对", "仇敌"]
OTHER_RELATIONS = ["师徒", "同门", "恋人"]
SURNAMES = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章苏潘葛范彭鲁韦马苗凤方俞任袁柳鲍史唐费薛雷贺倪汤殷罗毕郝安常乐于傅齐康伍余顾孟黄穆萧尹姚邵汪祁毛狄米贝明臧计伏成戴宋庞熊纪舒屈项祝董梁杜阮蓝闵席季麻强贾路娄危江童颜郭梅盛林钟徐邱骆高夏蔡田樊胡凌霍虞万柯管卢莫房解应宗丁宣邓郁单杭洪包左石崔吉龚程邢裴陆荣翁荀惠甄曲家封储靳焦牧山谷车侯班仰秋仲伊宫宁仇栾暴甘厉戎祖武符刘景詹龙叶司黎薄印宿白怀蒲邰从鄂索咸籍赖卓蔺屠蒙池乔阳胥能苍双闻党翟谭贡劳姬申扶堵冉宰雍桑桂濮牛寿通边扈燕冀浦尚农温别庄晏柴瞿阎充慕连茹习艾鱼容向古易慎戈廖庾终居衡步都耿满弘匡国文寇广禄东欧沃利蔚越夔隆师巩聂晁勾敖融冷訾辛阚那简饶空曾沙养鞠须丰巢关蒯相查后荆红游竺权逯盖益桓公"
GIVEN = "云风雨雪霜月星辰山川河海松竹梅兰菊青玄白紫金银玉珠明清灵秀逸飞鸿鹤凌霄尘羽墨砚剑琴书画诗酒茶烟霞岚泽"
PLACES = [
    "青云城",
    "落霞山",
    "黑风谷",
    "赤炎城",
    "天剑宗",
    "万妖林",
    "东海岛",
    "北冥渊",
    "西漠",
    "南疆",
    "玄霄门",
    "紫竹林",
    "寒冰崖",
    "血衣堂",
    "藏经阁",
    "问心亭",
    "灵泉洞",
    "断魂桥",
    "望月楼",
    "百花谷",
]
ITEMS = [
    "玄铁剑",
    "青灯",
    "筑基丹",
    "聚灵珠",
    "储物袋",
    "寒玉佩",
    "烈火符",
    "金丝甲",
    "乾坤袋",
    "定魂铃",
    "雷击木",
    "紫金葫芦",
    "冰魄针",
    "火云旗",
    "天机盘",
    "九转丹",
    "玉简",
    "龙鳞",
    "凤羽",
    "灵兽蛋",
]
DOMAINS = ["修炼", "法宝", "门规", "阵法", "地理", "丹道"]
FILLER = (
    "山风吹过林间，远处传来几声鹤鸣。",
    "众人屏息凝神，谁也不敢先开口。",
    "灵气在经脉中缓缓流转，",
    "夜色渐深，月光洒在青石板上。",
    "他握紧了手中的剑，目光坚定。",
    "这一战，注定要载入史册。",
    "茶已凉透，人却迟迟未归。",
    "阵法的光芒忽明忽暗，仿佛随时都会崩塌。",
)


@dataclass
class Truth:
    """What every as-of question should answer, recorded while generating."""

    facts: dict[tuple[str, str], list[tuple[int, Any]]] = field(default_factory=dict)
    relations: dict[tuple[str, str, str], list[tuple[int, str | None]]] = field(
        default_factory=dict
    )
    threads: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    rules: dict[str, list[tuple[int, str | None]]] = field(default_factory=dict)
    names: dict[str, tuple[str, list[str]]] = field(default_factory=dict)

    @staticmethod
    def _at(history: list[tuple[int, Any]], as_of: int) -> Any:
        value = None
        for chapter, v in history:
            if chapter > as_of:
                break
            value = v
        return value

    def fact(self, entity: str, field_name: str, as_of: int) -> Any:
        return self._at(self.facts.get((entity, field_name), []), as_of)

    def relations_of(self, entity: str, as_of: int) -> set[tuple[str, str, str]]:
        out = set()
        for (source, target, _), history in self.relations.items():
            if entity in (source, target):
                rel_type = self._at(history, as_of)
                if rel_type is not None:
                    out.add((source, target, rel_type))
        return out

    def thread_status(self, thread_id: str, as_of: int) -> str | None:
        return self._at(self.threads.get(thread_id, []), as_of)

    def rule_text(self, rule_id: str, as_of: int) -> str | None:
        return self._at(self.rules.get(rule_id, []), as_of)


@dataclass
class Saga:
    results: list[dict[str, Any]]
    texts: list[str | None]
    truth: Truth
    # (entity, the chapter that names it first, the later one that introduces it): see
    # `_mention_early`
    late: list[tuple[str, int, int]] = field(default_factory=list)


class _Generator:
    def __init__(self, seed: int, text_chars: int) -> None:
        self.rng = random.Random(seed)
        self.text_chars = text_chars
        self.truth = Truth()
        self.alive: list[str] = []
        self.dead: set[str] = set()
        self.state: dict[tuple[str, str], Any] = {}
        self.relations: dict[tuple[str, str, str], str] = {}
        self.open_threads: dict[str, int] = {}
        self.rules: dict[str, str] = {}
        self.used_names: set[str] = set()
        self.counter = 0

    # -- bookkeeping ----------------------------------------------------------------------------

    def _set(self, chapter: int, entity: str, field_name: str, value: Any) -> None:
        self.state[(entity, field_name)] = value
        history = self.truth.facts.setdefault((entity, field_name), [])
        if history and history[-1][0] == chapter:
            history[-1] = (chapter, value)
        else:
            history.append((chapter, value))

    def _relate(self, chapter: int, key: tuple[str, str, str], value: str | None) -> None:
        if value is None:
            self.relations.pop(key, None)
        else:
            self.relations[key] = value
        history = self.truth.relations.setdefault(key, [])
        if history and history[-1][0] == chapter:
            history[-1] = (chapter, value)
        else:
            history.append((chapter, value))

    def _name(self) -> str:
        while True:
            name = self.rng.choice(SURNAMES) + "".join(self.rng.sample(GIVEN, 2))
            if name not in self.used_names:
                self.used_names.add(name)
                return name

    def _short_alias(self, name: str) -> str:
        """A unique short alias: 凌辰儿, or 凌辰儿2 once a book has two 凌辰 (the pool of given
        names runs out near two thousand characters)."""
        alias, n = name[1:] + "儿", 1
        while alias in self.used_names:
            n += 1
            alias = f"{name[1:]}儿{n}"
        self.used_names.add(alias)
        return alias

    # -- one chapter ----------------------------------------------------------------------------

    def chapter(self, n: int) -> tuple[dict[str, Any], str | None]:
        result: dict[str, Any] = {
            "chapter": n,
            "title": f"第{n}章",
            "entities_new": [],
            "state_changes": [],
            "relationships_new": [],
            "plot_threads": [],
            "world_rules": [],
            "timeline_events": [],
            "scenes": [],
        }
        for _ in range(3 if n == 1 else (1 if n % 2 == 0 else 0)):
            result["entities_new"].append(self._new_entity(n))
        cast = self.rng.sample(self.alive, min(len(self.alive), 8))
        self._changes(n, cast, result)
        self._relations(n, cast, result)
        self._threads(n, cast, result)
        self._rules(n, result)
        if n % 50 == 25 and len(self.alive) > 10:
            victim = self.alive[-1] if self.alive[-1] != "e0" else self.alive[-2]
            result["state_changes"].append(
                {"entity_id": victim, "field": "status", "new": "死亡", "old": "存活"}
            )
            self._set(n, victim, "status", "死亡")
            self.alive.remove(victim)
            self.dead.add(victim)
            cast = [c for c in cast if c != victim]
        place = self.rng.choice(PLACES)
        result["entities_appeared"] = [{"id": c} for c in cast[:5]]
        result["timeline_events"] = [
            {
                "event": f"{self.truth.names[c][0]}在{place}遭遇变故",
                "participants": [c],
                "location": place,
            }
            for c in cast[:2]
        ]
        result["scenes"] = [
            {
                "index": i + 1,
                "location": place,
                "characters": cast[i : i + 2],
                "summary": f"{'、'.join(self.truth.names[c][0] for c in cast[i : i + 2])}"
                f"在{place}相会",
            }
            for i in range(min(3, len(cast)))
        ]
        names = "、".join(self.truth.names[c][0] for c in cast[:3])
        result["summary"] = f"第{n}章：{names}在{place}各有际遇。"
        result["word_count"] = self.text_chars
        return result, self._text(n, cast, place)

    def _new_entity(self, n: int) -> dict[str, Any]:
        entity_id = f"e{self.counter}"
        self.counter += 1
        name = self._name()
        aliases = [self._short_alias(name), "小" + name[0] + str(self.counter)]
        self.truth.names[entity_id] = (name, aliases)
        current = {"realm": LADDER[0], "location": self.rng.choice(PLACES), "status": "存活"}
        for key, value in current.items():
            self._set(n, entity_id, key, value)
        self.alive.append(entity_id)
        return {
            "id": entity_id,
            "name": name,
            "aliases": aliases,
            "type": "角色",
            "is_protagonist": entity_id == "e0",
            "current": current,
        }

    def _changes(self, n: int, cast: list[str], result: dict[str, Any]) -> None:
        changes = result["state_changes"]
        for entity in cast[:3]:
            realm = self.state[(entity, "realm")]
            index = LADDER.index(realm)
            if index + 1 < len(LADDER) and self.rng.random() < 0.5:
                changes.append(
                    {
                        "entity_id": entity,
                        "field": "realm",
                        "old": realm,
                        "new": LADDER[index + 1],
                        "reason": "突破",
                    }
                )
                self._set(n, entity, "realm", LADDER[index + 1])
        for entity in cast[:4]:
            old = self.state[(entity, "location")]
            new = self.rng.choice([p for p in PLACES if p != old])
            ref = self.rng.choice(
                [entity, self.truth.names[entity][0], *self.truth.names[entity][1]]
            )
            changes.append({"entity_id": ref, "field": "location", "old": old, "new": new})
            self._set(n, entity, "location", new)
        for entity in cast[:3]:
            held = list(self.state.get((entity, "items"), []))
            if held and self.rng.random() < 0.4:
                item = self.rng.choice(held)
                changes.append({"entity_id": entity, "field": "items", "op": "remove", "new": item})
                held.remove(item)
            else:
                item = self.rng.choice(ITEMS)
                changes.append({"entity_id": entity, "field": "items", "op": "add", "new": item})
                held = sorted({*held, item})
            self._set(n, entity, "items", sorted(held))
        for entity in cast[4:6]:
            mood = self.rng.choice(["平静", "愤怒", "悲伤", "喜悦", "警惕"])
            changes.append({"entity_id": entity, "field": "mood", "new": mood})
            self._set(n, entity, "mood", mood)

    def _relations(self, n: int, cast: list[str], result: dict[str, Any]) -> None:
        if len(cast) < 2:
            return
        for _ in range(3):
            source, target = self.rng.sample(cast, 2)
            key = (source, target, "group0")
            current = self.relations.get(key)
            if current is not None and self.rng.random() < 0.2:
                result["relationships_new"].append(
                    {"from": source, "to": target, "type": current, "action": "end"}
                )
                self._relate(n, key, None)
                continue
            rel_type = self.rng.choice([t for t in GROUP if t != current])
            result["relationships_new"].append(
                {
                    "from": source,
                    "to": target,
                    "type": rel_type,
                    "action": "update" if current else "create",
                }
            )
            self._relate(n, key, rel_type)
        if n % 7 == 0:
            source, target = self.rng.sample(cast, 2)
            rel_type = self.rng.choice(OTHER_RELATIONS)
            result["relationships_new"].append({"from": source, "to": target, "type": rel_type})
            self._relate(n, (source, target, f"type:{rel_type}"), rel_type)

    def _threads(self, n: int, cast: list[str], result: dict[str, Any]) -> None:
        threads = result["plot_threads"]
        thread_id = f"t{n}"
        kind = self.rng.choice(["foreshadowing", "open_loop", "reader_promise", "subplot"])
        threads.append(
            {
                "id": thread_id,
                "kind": kind,
                "action": "plant",
                "content": f"第{n}章埋下的线索",
                "due_chapter": n + self.rng.randint(5, 60),
                "urgency": self.rng.randint(10, 95),
                "related": cast[:2],
            }
        )
        self.open_threads[thread_id] = n
        self.truth.threads[thread_id] = [(n, "open")]
        candidates = sorted(t for t in self.open_threads if t != thread_id)
        if candidates:
            threads.append(
                {"id": self.rng.choice(candidates), "action": "advance", "content": f"第{n}章推进"}
            )
        if len(candidates) > 3 and self.rng.random() < 0.8:
            closing = self.rng.choice(candidates)
            action = "resolve" if self.rng.random() < 0.85 else "abandon"
            threads.append({"id": closing, "action": action, "content": f"第{n}章回收"})
            del self.open_threads[closing]
            self.truth.threads[closing].append(
                (n, "resolved" if action == "resolve" else "abandoned")
            )

    def _rules(self, n: int, result: dict[str, Any]) -> None:
        rules = result["world_rules"]
        if n % 3 == 1:
            rule_id = f"r{n}"
            text = f"{self.rng.choice(DOMAINS)}规则{n}：{self.rng.choice(LADDER)}以上方可{self.rng.choice(ITEMS)}"
            rules.append({"id": rule_id, "rule": text, "domain": self.rng.choice(DOMAINS)})
            self.rules[rule_id] = text
            self.truth.rules[rule_id] = [(n, text)]
        if n % 10 == 0 and self.rules:
            rule_id = self.rng.choice(sorted(self.rules))
            text = self.rules[rule_id] + f"（第{n}章修订）"
            rules.append({"id": rule_id, "action": "revise", "rule": text})
            self.rules[rule_id] = text
            self.truth.rules[rule_id].append((n, text))
        if n % 25 == 0 and len(self.rules) > 2:
            rule_id = self.rng.choice(sorted(self.rules))
            rules.append({"id": rule_id, "action": "retire"})
            del self.rules[rule_id]
            self.truth.rules[rule_id].append((n, None))

    def _text(self, n: int, cast: list[str], place: str) -> str | None:
        if self.text_chars <= 0:
            return None
        parts, size = [f"# 第{n}章\n\n"], 0
        while size < self.text_chars:
            who = self.truth.names[self.rng.choice(cast)][0] if cast else "众人"
            sentence = f"{who}来到{place}，" + "".join(self.rng.sample(FILLER, 3)) + "\n\n"
            parts.append(sentence)
            size += len(sentence)
        return "".join(parts)


def generate_saga(
    chapters: int, seed: int = 7, text_chars: int = 0, late_mentions: int = 0
) -> Saga:
    """`late_mentions`: that many entities are named (as pending references) in a chapter
    before the one that introduces them, which then adopts those references."""
    generator = _Generator(seed, text_chars)
    results, texts = [], []
    for n in range(1, chapters + 1):
        result, text = generator.chapter(n)
        results.append(result)
        texts.append(text)
    saga = Saga(results, texts, generator.truth)
    if late_mentions:
        _mention_early(saga, late_mentions, random.Random(seed + 1))
    return saga


def _mention_early(saga: Saga, count: int, rng: random.Random) -> None:
    """Name `count` entities in a chapter before their introduction, by name, alias or id: a
    pending reference that moves them, makes one appear, maybe an `uncertain` mention that
    takes them for someone, maybe an item they give away before they could hold one. A
    separate random stream: the rest of the saga is as it would be without them."""
    introduced = [
        (entity["id"], result["chapter"])
        for result in saga.results
        for entity in result["entities_new"]
        if result["chapter"] > 1
    ]
    for entity, intro in sorted(rng.sample(introduced, min(count, len(introduced)))):
        early = rng.randint(1, intro - 1)
        result = saga.results[early - 1]
        name, aliases = saga.truth.names[entity]
        ref = rng.choice([name, name, *aliases, entity])
        place = rng.choice(PLACES)
        result["state_changes"].append({"entity_id": ref, "field": "location", "new": place})
        saga.truth.facts[(entity, "location")].insert(0, (early, place))
        result.setdefault("entities_appeared", []).append({"id": ref})
        if rng.random() < 0.5:
            mention = f"神秘人{entity}"
            result["state_changes"].append({"entity_id": mention, "field": "mood", "new": "警惕"})
            result.setdefault("uncertain", []).append(
                {"mention": mention, "candidates": [ref], "adopted": ref, "confidence": 0.9}
            )
            saga.truth.facts.setdefault((entity, "mood"), []).insert(0, (early, "警惕"))
        if rng.random() < 0.5:  # a thing never held: a conflict, and no change to the truth
            item = rng.choice(ITEMS)
            result["state_changes"].append(
                {"entity_id": ref, "field": "items", "op": "remove", "new": item}
            )
        saga.late.append((entity, early, intro))


def items_per_chapter(saga: Saga) -> float:
    keys = (
        "entities_new",
        "state_changes",
        "relationships_new",
        "plot_threads",
        "world_rules",
        "timeline_events",
        "scenes",
        "entities_appeared",
    )
    total = sum(len(r.get(k, [])) for r in saga.results for k in keys)
    return total / max(1, len(saga.results))
