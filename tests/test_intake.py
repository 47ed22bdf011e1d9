"""Forgiving intake: every synonym and near miss an agent writes commits to exactly the memory
the canonical result gives (answers compared, not rows), and what cannot be read for sure is
refused naming what was written and what was meant."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import InvalidChapterResult
from webnovel.memory import vocabulary
from webnovel.memory.schema import (
    THREAD_ACTIONS,
    THREAD_KINDS,
)
from webnovel.memory.write.numbers import chinese_chapter_number, chinese_numeral

from answers import book_answers

CHAPTER_1 = {
    "chapter": 1,
    "summary": "林砚在青石镇遇见苏晚晴。",
    "entities_new": [
        {
            "id": "linyan",
            "name": "林砚",
            "is_protagonist": True,
            "current": {"location": "青石镇", "realm": "炼气"},
        },
        {"id": "suwan", "name": "苏晚晴", "current": {"location": "青石镇"}},
        {"id": "huozhong", "name": "霍忠"},
    ],
    "state_changes": [{"entity_id": "linyan", "field": "items", "op": "add", "new": "青灯"}],
    "plot_threads": [{"id": "lamp", "kind": "foreshadowing", "content": "青灯来历"}],
    "secrets": [{"id": "spy", "content": "霍忠是眼线", "known_by": ["huozhong"]}],
}
ENTITIES = ["linyan", "suwan", "huozhong"]
FIELDS = ["location", "realm", "items", "status"]

# (name, what an agent wrote for chapter 2, the canonical chapter 2 it means)
VARIANTS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "thread action in the past tense",
        {"chapter": 2, "plot_threads": [{"id": "lamp", "action": "resolved"}]},
        {"chapter": 2, "plot_threads": [{"id": "lamp", "action": "resolve"}]},
    ),
    (
        "thread action and kind in Chinese",
        {
            "chapter": 2,
            "plot_threads": [
                {
                    "id": "ring",
                    "kind": "伏笔",
                    "action": "埋下",
                    "content": "玉佩",
                    "due_chapter": 9,
                }
            ],
        },
        {
            "chapter": 2,
            "plot_threads": [
                {
                    "id": "ring",
                    "kind": "foreshadowing",
                    "action": "plant",
                    "content": "玉佩",
                    "due_chapter": 9,
                }
            ],
        },
    ),
    (
        "due chapter in Chinese numerals",
        {
            "chapter": 2,
            "plot_threads": [{"id": "pact", "content": "三年之约", "due_chapter": "第二十五章"}],
        },
        {"chapter": 2, "plot_threads": [{"id": "pact", "content": "三年之约", "due_chapter": 25}]},
    ),
    (
        "expected_payoff, status for action, kind as type",
        {
            "chapter": 2,
            "plot_threads": [
                {
                    "id": "pact",
                    "content": "三年之约",
                    "status": "open",
                    "type": "promise",
                    "expected_payoff": "25",
                }
            ],
        },
        {
            "chapter": 2,
            "plot_threads": [
                {
                    "id": "pact",
                    "content": "三年之约",
                    "action": "plant",
                    "kind": "reader_promise",
                    "due_chapter": 25,
                }
            ],
        },
    ),
    (
        "chapter as a string",
        {"chapter": "2", "summary": "次日。"},
        {"chapter": 2, "summary": "次日。"},
    ),
    (
        "chapter as 第二章 under a Chinese key",
        {"章节": "第二章", "摘要": "次日。"},
        {"chapter": 2, "summary": "次日。"},
    ),
    (
        "knowledge change in the past tense",
        {
            "chapter": 2,
            "knowledge_changes": [
                {"entity_id": "suwan", "secret_id": "spy", "change": "learned", "from": "huozhong"}
            ],
        },
        {
            "chapter": 2,
            "knowledge_changes": [
                {"entity_id": "suwan", "secret_id": "spy", "change": "learns", "from": "huozhong"}
            ],
        },
    ),
    (
        "op delete",
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "linyan", "field": "items", "op": "delete", "new": "青灯"}
            ],
        },
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "linyan", "field": "items", "op": "remove", "new": "青灯"}
            ],
        },
    ),
    (
        "two items as a list",
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "linyan", "field": "items", "op": "add", "new": ["玉佩", "长剑"]}
            ],
        },
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "linyan", "field": "items", "op": "add", "new": "玉佩"},
                {"entity_id": "linyan", "field": "items", "op": "add", "new": "长剑"},
            ],
        },
    ),
    (
        "entity and value for entity_id and new, confidence as a percentage",
        {
            "chapter": 2,
            "state_changes": [
                {"entity": "林砚", "field": "realm", "value": "筑基", "confidence": 95}
            ],
        },
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "林砚", "field": "realm", "new": "筑基", "confidence": 0.95}
            ],
        },
    ),
    (
        "confidence as a percent string, field in Chinese",
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "linyan", "field": "境界", "new": "筑基", "confidence": "90%"}
            ],
        },
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "linyan", "field": "realm", "new": "筑基", "confidence": 0.9}
            ],
        },
    ),
    (
        "field 位置 is location, not a second field",
        {"chapter": 2, "state_changes": [{"entity_id": "suwan", "field": "位置", "new": "药铺"}]},
        {
            "chapter": 2,
            "state_changes": [{"entity_id": "suwan", "field": "location", "new": "药铺"}],
        },
    ),
    (
        "source, target and relation",
        {
            "chapter": 2,
            "relationships_new": [{"source": "林砚", "target": "苏晚晴", "relation": "朋友"}],
        },
        {"chapter": 2, "relationships_new": [{"from": "林砚", "to": "苏晚晴", "type": "朋友"}]},
    ),
    (
        "participants in one string",
        {"chapter": 2, "timeline_events": [{"event": "二人夜谈", "participants": "林砚、苏晚晴"}]},
        {
            "chapter": 2,
            "timeline_events": [{"event": "二人夜谈", "participants": ["林砚", "苏晚晴"]}],
        },
    ),
    (
        "camelCase keys",
        {"chapter": 2, "stateChanges": [{"entityId": "suwan", "field": "Location", "new": "药铺"}]},
        {
            "chapter": 2,
            "state_changes": [{"entity_id": "suwan", "field": "location", "new": "药铺"}],
        },
    ),
    (
        "Chinese keys throughout",
        {
            "章节": 2,
            "状态变化": [{"实体": "苏晚晴", "字段": "境界", "新值": "炼气"}],
            "关系": [{"主体": "苏晚晴", "对象": "林砚", "类型": "朋友", "动作": "建立"}],
        },
        {
            "chapter": 2,
            "state_changes": [{"entity_id": "苏晚晴", "field": "realm", "new": "炼气"}],
            "relationships_new": [{"from": "苏晚晴", "to": "林砚", "type": "朋友"}],
        },
    ),
    (
        "an entity type in English and a list in its current state",
        {
            "chapter": 2,
            "entities_new": [
                {
                    "id": "han",
                    "name": "韩啸",
                    "type": "character",
                    "current": {"境界": "筑基", "物品": ["铁剑", "令牌"]},
                }
            ],
        },
        {
            "chapter": 2,
            "entities_new": [
                {"id": "han", "name": "韩啸", "type": "角色", "current": {"realm": "筑基"}}
            ],
            "state_changes": [
                {"entity_id": "han", "field": "items", "op": "add", "new": "铁剑"},
                {"entity_id": "han", "field": "items", "op": "add", "new": "令牌"},
            ],
        },
    ),
    (
        "one object where a list is expected",
        {"chapter": 2, "world_rules": {"rule": "筑基需灵根", "domain": "修炼"}},
        {"chapter": 2, "world_rules": [{"rule": "筑基需灵根", "domain": "修炼"}]},
    ),
    (
        "a relation to two people at once",
        {
            "chapter": 2,
            "relationships_new": [{"from": "霍忠", "to": "林砚、苏晚晴", "type": "敌对"}],
        },
        {
            "chapter": 2,
            "relationships_new": [
                {"from": "霍忠", "to": "林砚", "type": "敌对"},
                {"from": "霍忠", "to": "苏晚晴", "type": "敌对"},
            ],
        },
    ),
]


def _book(path: Path, chapter_2: dict[str, Any]) -> webnovel.Project:
    book = webnovel.init_project(path, title="测试")
    book.commit(copy.deepcopy(CHAPTER_1))
    book.commit(copy.deepcopy(chapter_2))
    return book


def _answers(book: webnovel.Project) -> dict[str, Any]:
    out = book_answers(book, ENTITIES + ["han"] if _has(book, "han") else ENTITIES, FIELDS, [1, 2])
    out["entities"] = sorted((e.id, e.name, e.type) for e in book.entities())
    out["knows"] = [(k.secret_id, k.state, k.since, k.source) for k in book.knows("suwan")]
    return out


def _has(book: webnovel.Project, entity_id: str) -> bool:
    return any(e.id == entity_id for e in book.entities())


@pytest.mark.parametrize(("name", "written", "canonical"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_a_variant_commits_to_the_canonical_memory(
    tmp_path: Path, name: str, written: dict[str, Any], canonical: dict[str, Any]
) -> None:
    with _book(tmp_path / "written", written) as a, _book(tmp_path / "canon", canonical) as b:
        assert _answers(a) == _answers(b)
        report = a.commit(copy.deepcopy(written))  # the canonical form was stored: unchanged
        assert report.status == "unchanged"


def test_the_report_says_what_was_normalized(book: webnovel.Project) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    report = book.commit(
        {"chapter": "2", "plot_threads": [{"id": "lamp", "action": "resolved"}]}
    ).to_dict()
    assert report["normalized"] == [
        "$.chapter: 「2」 → 2",
        "$.plot_threads[0].action: 「resolved」 → 「resolve」",
    ]
    clean = book.commit({"chapter": 3, "summary": "平静。"}).to_dict()
    assert clean["normalized"] == []


def test_review_normalizes_like_commit(book: webnovel.Project) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    report = book.review({"chapter": 2, "plot_threads": [{"id": "lamp", "action": "回收"}]})
    assert report.to_dict()["normalized"] == ["$.plot_threads[0].action: 「回收」 → 「resolve」"]
    assert not report.blocking


def test_rebuild_reads_the_stored_canonical_form(tmp_path: Path) -> None:
    written = VARIANTS[-4][1]  # Chinese keys throughout
    with _book(tmp_path / "b", written) as book:
        before = _answers(book)
        book.rebuild()
        assert _answers(book) == before


REFUSALS = [
    (
        "a misspelt nested key",
        {"state_changes": [{"entitty_id": "linyan", "field": "realm", "new": "筑基"}]},
        ["$.state_changes[0]", "「entitty_id」", "「entity_id」"],
    ),
    (
        "a misspelt top-level key",
        {"state_chnges": [{"entity_id": "linyan", "field": "realm", "new": "筑基"}]},
        ["「state_chnges」", "「state_changes」"],
    ),
    (
        "an unknown nested key",
        {"plot_threads": [{"id": "x", "content": "某事", "mood": "紧张"}]},
        ["$.plot_threads[0]", "「mood」", "content"],
    ),
    (
        "a value that is no action",
        {"plot_threads": [{"id": "lamp", "action": "frobnicate"}]},
        ["$.plot_threads[0].action", "「frobnicate」", "resolve（回收）"],
    ),
    (
        "a misspelt field",
        {"state_changes": [{"entity_id": "linyan", "field": "locaton", "new": "药铺"}]},
        ["$.state_changes[0].field", "「locaton」", "「location」（位置）"],
    ),
    (
        "several values for a single field",
        {"state_changes": [{"entity_id": "linyan", "field": "realm", "new": ["筑基", "金丹"]}]},
        ["$.state_changes[0].new", "op: add"],
    ),
    (
        "a key and its synonym disagreeing",
        {
            "state_changes": [
                {"entity_id": "linyan", "field": "realm", "new": "筑基", "value": "金丹"}
            ]
        },
        ["$.state_changes[0]", "「value」", "「new」"],
    ),
    (
        "a thread echoed as `threads` answers it: its status is not the action",
        {"plot_threads": [{"id": "raven", "status": "open", "action": "advance"}]},
        ["$.plot_threads[0]", "「action」与「status（即 action）」重复"],
    ),
]


@pytest.mark.parametrize(("name", "written", "said"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_what_cannot_be_read_is_refused_naming_both(
    book: webnovel.Project, name: str, written: dict[str, Any], said: list[str]
) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    with pytest.raises(InvalidChapterResult) as refused:
        book.commit({"chapter": 2, **written})
    message = str(refused.value)
    for words in said:
        assert words in message
    assert book.latest_chapter() == 1  # nothing written


def test_a_book_declares_its_own_fields(tmp_path: Path) -> None:
    book = webnovel.init_project(tmp_path / "b", title="测试")
    config = book.root / ".webnovel" / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            '# bloodline = ["血脉", "血统"]', 'bloodline = ["血脉", "血统"]'
        ),
        encoding="utf-8",
    )
    book.close()
    with webnovel.open_project(tmp_path / "b") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [{"id": "linyan", "name": "林砚", "current": {"血统": "上古剑修"}}],
            }
        )
        item = book.fact("林砚", "血脉")
        assert item is not None and item.field == "bloodline" and item.value == "上古剑修"


@pytest.mark.parametrize(
    ("terms", "literal"),
    [(vocabulary.THREAD_KINDS, THREAD_KINDS), (vocabulary.THREAD_ACTIONS, THREAD_ACTIONS)],
)
def test_the_vocabulary_and_the_typed_values_agree(
    terms: vocabulary.Terms, literal: tuple[str, ...]
) -> None:
    assert terms.values == literal


@pytest.mark.parametrize(
    ("written", "number"),
    [
        ("第二十五章", 25),
        ("二十五", 25),
        ("第一百零三回", 103),
        ("150", 150),
        ("第150章", 150),
        ("２５", 25),
        ("十", 10),
        ("一二三", 123),
        ("两千", 2000),
        (7, 7),
        ("无", None),
    ],
)
def test_chapter_numbers_as_written(written: Any, number: int | None) -> None:
    assert chinese_chapter_number(written) == number


def test_numerals_past_ten_thousand() -> None:
    assert chinese_numeral("一万零五") == 10005


def test_a_dead_man_remembered_is_not_acting(book: webnovel.Project) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    book.commit(
        {"chapter": 2, "state_changes": [{"entity_id": "huozhong", "field": "状态", "new": "死亡"}]}
    )
    remembered = book.commit(
        {"chapter": 3, "entities_appeared": [{"id": "霍忠", "role": "提及"}]}
    ).to_dict()
    assert remembered["conflicts"] == []
    acting = book.commit({"chapter": 4, "entities_appeared": [{"id": "霍忠"}]}).to_dict()
    assert [c["kind"] for c in acting["conflicts"]] == ["dead_entity_active"]


def test_a_missing_chapter_is_named(book: webnovel.Project) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    report = book.commit({"chapter": 3, "summary": "跳过了第2章。"}).to_dict()
    assert any("第2章" in w and "缺" in w for w in report["warnings"])
    assert book.missing_chapters() == [2]


@pytest.mark.parametrize(
    ("written", "meant"),
    [("林岩", "林砚"), ("林硯", "林砚"), ("苏晚情", "苏晚晴"), ("蘇晚晴", "苏晚晴")],
)
def test_an_unknown_name_says_which_it_probably_meant(
    book: webnovel.Project, written: str, meant: str
) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    draft = {"chapter": 2, "entities_appeared": [{"id": written}]}
    issues = [i for i in book.review(draft).issues if i.category == "unknown_entity"]
    assert issues and f"是否指「{meant}」" in issues[0].message
    with pytest.raises(webnovel.ReviewBlocked) as refused:
        book.commit(draft, check=True)
    assert f"是否指「{meant}」" in str(refused.value)


def test_a_new_name_gets_no_false_suggestion(book: webnovel.Project) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    issues = book.review({"chapter": 2, "entities_appeared": [{"id": "韩啸"}]}).issues
    assert [i.message for i in issues if i.category == "unknown_entity"] == [
        "第2章引用了未登记的实体「韩啸」"
    ]


def test_a_named_item_has_one_holder(book: webnovel.Project) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    book.commit({"chapter": 2, "entities_new": [{"id": "lamp", "name": "青灯", "type": "法宝"}]})
    assert book.holders("青灯") == ["linyan"]
    given = book.commit(
        {
            "chapter": 3,
            "state_changes": [{"entity_id": "苏晚晴", "field": "物品", "op": "add", "new": "青灯"}],
        }
    ).to_dict()
    assert any("青灯" in w and "林砚" in w for w in given["warnings"])
    review = book.review(
        {
            "chapter": 4,
            "state_changes": [{"entity_id": "霍忠", "field": "items", "op": "add", "new": "青灯"}],
        }
    )
    assert [i.category for i in review.issues] == ["item_held_elsewhere"]
    moved = book.commit(
        {
            "chapter": 4,
            "state_changes": [
                {"entity_id": "林砚", "field": "items", "op": "remove", "new": "青灯"},
                {"entity_id": "苏晚晴", "field": "items", "op": "remove", "new": "青灯"},
                {"entity_id": "霍忠", "field": "items", "op": "add", "new": "青灯"},
            ],
        }
    ).to_dict()
    assert not any("青灯" in w for w in moved["warnings"])  # a move is no second holder
    assert book.holders("青灯", as_of=3) == ["linyan", "suwan"]
    assert book.holders("青灯") == ["huozhong"]
    common = book.commit(
        {
            "chapter": 5,
            "state_changes": [
                {"entity_id": "林砚", "field": "items", "op": "add", "new": "灵石"},
                {"entity_id": "苏晚晴", "field": "items", "op": "add", "new": "灵石"},
            ],
        }
    ).to_dict()
    assert not any("灵石" in w for w in common["warnings"])  # not a named item: many may hold


@pytest.mark.parametrize("written", ["nan", "inf", "-inf%"])
def test_a_confidence_that_is_no_number_is_refused(book: webnovel.Project, written: str) -> None:
    book.commit(copy.deepcopy(CHAPTER_1))
    with pytest.raises(InvalidChapterResult, match="confidence"):
        book.commit(
            {
                "chapter": 2,
                "state_changes": [
                    {"entity_id": "linyan", "field": "realm", "new": "筑基", "confidence": written}
                ],
            }
        )


def test_a_thread_s_progress_as_threads_answers_it_is_what_an_advance_says(
    book: webnovel.Project,
) -> None:
    """`threads` answers each thread's `progress`; an agent writing it back means the content of
    its advance."""
    book.commit(
        {
            "chapter": 1,
            "plot_threads": [
                {"id": "raven", "kind": "foreshadowing", "action": "plant", "content": "乌鸦"}
            ],
        }
    )
    report = book.commit(
        {"chapter": 2, "plot_threads": [{"id": "raven", "action": "advance", "progress": "又来了"}]}
    )
    assert "$.plot_threads[0].progress: 「progress」 → 「content」" in report.normalized
    [thread] = [t for t in book.threads() if t.id == "raven"]
    assert thread.progress == "又来了"


def test_a_type_of_the_author_s_own_is_kept_and_said(book: webnovel.Project) -> None:
    """Trial 4 §7: type 「神仙」 was taken silently. Authors invent types, so it is no refusal:
    kept as written, with a note naming the types the engine knows (a slip shows up there)."""
    report = book.commit(
        {"chapter": 1, "entities_new": [{"id": "taibai", "name": "太白金星", "type": "神仙"}]}
    ).to_dict()
    assert report["status"] == "committed"
    assert report["normalized"] == [
        "$.entities_new[0].type: 「神仙」不是已知的实体类型（已知：角色、地点、势力、物品），"
        "按新实体类型记下；如是笔误请改用已知的"
    ]
    assert [(e.id, e.type) for e in book.entities()] == [("taibai", "神仙")]
    known = book.review(
        {"chapter": 2, "entities_new": [{"id": "lu", "name": "陆青云", "type": "人物"}]}
    )
    assert known.to_dict()["normalized"] == ["$.entities_new[0].type: 「人物」 → 「角色」"]
