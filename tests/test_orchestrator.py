"""Memory packs on a generated 300-chapter saga and on the sample book."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidInput
from webnovel.ingest.sample_book import sample_chapters

from pack_quality import check_pack, evaluate, outline_for
from saga import Saga
from stores import init_book


@pytest.mark.parametrize("chapter", [301, 151])
def test_chapter_write_pack_on_a_saga(
    saga_book: webnovel.Project, saga300: Saga, chapter: int
) -> None:
    """An outline naming three characters (by name or alias): each one's current realm and
    location is there as an active item, nothing superseded is active, nothing comes from a
    chapter after N, and the pack fits its budget."""
    as_of = chapter - 1
    source = saga300.results[min(chapter, 300) - 1]
    named = list(dict.fromkeys(c for s in source["scenes"] for c in s["characters"]))[:3]
    names = [saga300.truth.names[e][0] for e in named]
    outline = f"{names[0]}与{saga300.truth.names[named[1]][1][0]}在城中重逢，{names[2]}暗中窥视。"
    pack = saga_book.build_memory_pack(
        "chapter_write", chapter, outline=outline, budget_tokens=4000
    )
    assert pack.used_tokens <= pack.budget_tokens == 4000
    state = next(s for s in pack.sections if s.name == "character_state")
    active = {(i.subject, i.field): i.value for i in state.items if i.status == "active"}
    for entity in named:
        for field in ("realm", "location"):
            assert active[(entity, field)] == saga300.truth.fact(entity, field, as_of)
    report = check_pack(pack, saga300, named, as_of)
    assert (report["stale"], report["future"], report["duplicate_active"]) == (0, 0, 0)
    assert {e["id"] for e in pack.entities_in_play} >= set(named)
    shape = pack.to_dict()
    assert set(shape) >= {
        "task",
        "chapter",
        "budget_tokens",
        "used_tokens",
        "sections",
        "conflicts",
        "dropped",
    }
    item = shape["sections"][0]["items"][0]
    assert set(item) >= {
        "id",
        "layer",
        "category",
        "subject",
        "field",
        "value",
        "status",
        "source",
        "evidence",
        "score",
        "why",
    }


def test_pack_quality_on_the_saga(saga_book: webnovel.Project, saga300: Saga) -> None:
    chapters = sorted(random.Random(5).sample(range(3, 301), 15))
    report = evaluate(saga_book, saga300, chapters, budget=4000)
    assert report["recall"] >= 0.95
    assert (report["stale"], report["future"], report["over_budget"]) == (0, 0, 0)


@pytest.mark.parametrize(
    "task", ["chapter_write", "consistency_check", "continuity_query", "review"]
)
@pytest.mark.parametrize("budget", [300, 1200, 4000])
def test_every_task_fits_its_budget(
    saga_book: webnovel.Project, saga300: Saga, task: str, budget: int
) -> None:
    outline, _ = outline_for(saga300, 200, random.Random(1))
    pack = saga_book.build_memory_pack(task, 200, outline=outline, budget_tokens=budget)
    assert pack.used_tokens <= budget
    assert pack.sections


def test_bad_requests(saga_book: webnovel.Project) -> None:
    with pytest.raises(InvalidInput):
        saga_book.build_memory_pack("poetry", 10)
    with pytest.raises(InvalidInput):
        saga_book.build_memory_pack("chapter_write", 0)
    with pytest.raises(InvalidInput, match="budget_tokens 应为正整数"):
        saga_book.build_memory_pack("chapter_write", 10, budget_tokens=0)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory, backend: str) -> webnovel.Project:
    book = init_book(backend, tmp_path_factory.mktemp("sample") / "book", title="青灯照剑")
    for chapter in sample_chapters():
        book.commit(chapter.result, text=chapter.text)
    return book


def test_sample_pack_for_chapter_13(sample: webnovel.Project) -> None:
    outline = (
        "林砚与苏晚晴夜探血衣堂赤炎分舵，遭遇手握断刀的韩啸。晚晴救下韩啸，林砚问出厉沉的下落。"
    )
    pack = sample.build_memory_pack("chapter_write", 13, outline=outline)
    prompt = pack.render("prompt")
    assert prompt.startswith("# 记忆包：第13章（写作）")
    assert "- 林砚 境界：金丹（第11章起）" in prompt
    assert "- 周伯 已于第7章死亡，不得再出场或行动" in prompt
    assert "【已逾期】镇口老槐树上窥视铁匠铺的乌鸦" in prompt
    assert "- 林砚 → 韩啸：仇敌（第9章起）" in prompt
    assert "心念至诚者任何时辰皆可点燃青灯" in prompt  # the revised rule, not the old one
    assert "青灯只在子时才能点燃" not in prompt
    in_play = {e["name"]: e["why"] for e in pack.entities_in_play}
    assert in_play["厉沉"].startswith("named in outline")


def test_a_pack_as_of_an_early_chapter_knows_nothing_later(sample: webnovel.Project) -> None:
    pack = sample.build_memory_pack("chapter_write", 5, outline="林砚在玄霄门准备筑基，韩啸来访。")
    text = json.dumps(pack.to_dict(), ensure_ascii=False)
    assert "金丹" not in text and "仇敌" not in text and "苏晚晴" not in text
    state = {
        (i.subject, i.field): i.value
        for s in pack.sections
        if s.name == "character_state"
        for i in s.items
    }
    assert state[("linyan", "realm")] == "炼气"
    assert state[("linyan", "location")] == "玄霄门"


def test_without_an_outline_the_recently_active_are_in_play(sample: webnovel.Project) -> None:
    pack = sample.build_memory_pack("continuity_query", 13)
    assert {e["id"] for e in pack.entities_in_play} >= {"linyan", "suwanqing"}


def test_templates_reweight_sections(sample: webnovel.Project) -> None:
    outline = "林砚在赤炎城与血衣堂修士激战。"
    battle = sample.build_memory_pack(
        "chapter_write", 13, outline, template="battle", budget_tokens=1200
    )
    dialogue = sample.build_memory_pack(
        "chapter_write", 13, outline, template="dialogue", budget_tokens=1200
    )

    def tokens(pack: object, name: str) -> int:
        return sum(s.tokens for s in pack.sections if s.name == name)  # type: ignore[attr-defined]

    assert tokens(battle, "world_rules") > tokens(dialogue, "world_rules")
    with pytest.raises(InvalidInput):
        sample.build_memory_pack("chapter_write", 13, template="romance")


def test_outline_file_convention_and_resume(tmp_path: Path, backend: str) -> None:
    root = tmp_path / "book"
    with init_book(backend, root, title="t") as book:
        for chapter in list(sample_chapters())[:3]:
            book.commit(chapter.result)
        (root / "outlines").mkdir()
        (root / "outlines" / "004.md").write_text("林砚拜入玄霄门，白眉收徒。", encoding="utf-8")
        pack = book.build_memory_pack("chapter_write", 4)
        assert _section(pack, "working_memory")[0].value == "林砚拜入玄霄门，白眉收徒。"
        brief = book.resume()
        assert brief.latest_chapter == 3
        assert brief.to_dict()["next_chapter"] == {
            "chapter": 4,
            "outline_found": True,
            "named_entities": [
                {"id": "linyan", "name": "林砚"},
                {"id": "xuanxiao", "name": "玄霄门"},
                {"id": "baimei", "name": "白眉老道"},
            ],
        }
        assert brief.protagonist is not None and brief.protagonist.now["location"] == "落霞山"
        assert brief.latest_chapter == 3


def test_the_outline_survives_a_small_budget(sample: webnovel.Project) -> None:
    outline = "林砚与苏晚晴夜探血衣堂赤炎分舵。" * 8
    pack = sample.build_memory_pack("chapter_write", 13, outline=outline, budget_tokens=600)
    assert pack.used_tokens <= 600
    assert _section(pack, "working_memory")[0].category == "outline"


def test_open_conflicts_ride_in_the_pack_and_count_against_its_budget(
    tmp_path: Path, backend: str
) -> None:
    with init_book(backend, tmp_path / "c", title="c") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "a", "name": "甲乙", "current": {"realm": "炼气"}},
                    {"id": "b", "name": "丙丁", "current": {"realm": "炼气"}},
                ],
            }
        )
        book.commit(
            {
                "chapter": 2,
                "state_changes": [
                    {"entity_id": "甲乙", "field": "realm", "old": "筑基", "new": "金丹"},
                    {"entity_id": "丙丁", "field": "realm", "old": "筑基", "new": "金丹"},
                ],
            }
        )
        pack = book.build_memory_pack("chapter_write", 3, outline="甲乙独自闭关", budget_tokens=300)
        # an open conflict of the last chapters brings its people into play, 丙丁 too
        assert sorted(c.entity_id or "" for c in pack.conflicts) == ["a", "b"]
        assert {e["name"]: e["why"] for e in pack.entities_in_play}["丙丁"] == (
            "named by an open conflict"
        )
        prompt = pack.render("prompt")
        assert prompt.index("## 本章须知") < prompt.index("## 近期上下文")
        assert "【未解决矛盾·严重】甲乙" in prompt
        assert pack.used_tokens <= 300
        assert sum(len(s.items) for s in pack.sections if s.name == "must_know") >= 2
        later = book.build_memory_pack("chapter_write", 9, outline="甲乙独自闭关")
        assert [c.entity_id for c in later.conflicts] == ["a"]  # 丙丁's is old and not in play
        early = book.build_memory_pack("chapter_write", 2, outline="甲乙独自闭关")
        assert early.conflicts == []  # written in chapter 2: not known when writing chapter 2


def test_graph_depth_is_recipe_data(tmp_path: Path, backend: str) -> None:
    """continuity_query looks two hops out; chapter_write stays at the entities' own relations."""
    with init_book(backend, tmp_path / "g", title="g") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "a", "name": "甲乙"},
                    {"id": "b", "name": "丙丁"},
                    {"id": "c", "name": "戊己"},
                ],
                "relationships_new": [
                    {"from": "a", "to": "b", "type": "师徒"},
                    {"from": "b", "to": "c", "type": "仇敌"},
                ],
            }
        )

        def relations(task: str) -> dict[tuple[str, str], str]:
            pack = book.build_memory_pack(task, 2, query="甲乙的过去")
            return {
                (i.subject, i.field): str(i.why)
                for s in pack.sections
                if s.name == "relations"
                for i in s.items
            }

        assert set(relations("chapter_write")) == {("a", "relation:b")}
        deep = relations("continuity_query")
        assert deep[("b", "relation:c")] == "2 hops out, via 丙丁"


def _section(pack: webnovel.memory.packs.memory_pack.MemoryPack, name: str) -> list:  # type: ignore[type-arg]
    return next(s.items for s in pack.sections if s.name == name)
