"""The pure rules: each row is (what memory holds, what a chapter says) → what memory becomes."""

from __future__ import annotations

from typing import Any

import pytest

from webnovel.config import BookConfig
from webnovel.memory.write.chain_folds import (
    Activity,
    Assertion,
    Chain,
    Version,
    conflict_windows,
    entity_conflicts,
    next_fact_value,
    replay,
    same_value,
)

CONFIG = BookConfig()


def said(
    family: Any,
    key: str,
    subject: str,
    field: str,
    chapter: int,
    payload: Any,
    obj: str | None = None,
) -> Assertion:
    """What one chapter said of one chain: the assertion the fold reads."""
    return Assertion(
        family=family,
        key=key,
        subject=subject,
        field=field,
        obj=obj,
        chapter=chapter,
        seq=0,
        payload=payload,
    )


def fact(chapter: int, value: Any, op: str = "set", **extra: Any) -> Assertion:
    return said("fact", "e\x1ff", "e", "f", chapter, {"op": op, "value": value, **extra})


def fold_facts(*assertions: Assertion) -> Chain:
    return replay("fact", [], assertions, CONFIG)


def settled(chain: Chain) -> list[tuple[Any, int, int | None, str]]:
    return [(v.value, v.valid_from, v.valid_to, v.status) for v in chain.touched]


@pytest.mark.parametrize(
    ("assertions", "expected", "conflict_kinds"),
    [
        ([fact(1, "斗者")], [("斗者", 1, None, "active")], []),
        (
            [fact(1, "斗者"), fact(5, "斗师", old="斗者", has_old=True)],
            [("斗者", 1, 5, "outdated"), ("斗师", 5, None, "active")],
            [],
        ),
        # the writer believed another value: the chapter is canon, the old value lost a conflict
        (
            [fact(1, "斗者"), fact(5, "大斗师", old="斗师", has_old=True)],
            [("斗者", 1, 5, "contradicted"), ("大斗师", 5, None, "active")],
            ["old_value_mismatch"],
        ),
        # no value held: an `old` cannot mismatch
        ([fact(3, "斗师", old="斗者", has_old=True)], [("斗师", 3, None, "active")], []),
        # setting the value held changes nothing
        ([fact(1, "斗者"), fact(4, "斗者")], [("斗者", 1, None, "active")], []),
        # 3 and "3" agree
        (
            [fact(1, 3), fact(2, 4, old="3", has_old=True)],
            [(3, 1, 2, "outdated"), (4, 2, None, "active")],
            [],
        ),
        # two changes in one chapter: the first holds for no chapter at all
        (
            [fact(1, "A"), fact(1, "B", old="A", has_old=True)],
            [("A", 1, 1, "outdated"), ("B", 1, None, "active")],
            [],
        ),
        # a tentative value is kept apart and never supersedes
        (
            [fact(1, "A"), fact(2, "B", confidence=0.3)],
            [("A", 1, None, "active"), ("B", 2, None, "tentative")],
            [],
        ),
        # a confident change closes open tentative values
        (
            [fact(1, "A"), fact(2, "B", confidence=0.3), fact(4, "C")],
            [("A", 1, 4, "outdated"), ("B", 2, 4, "tentative"), ("C", 4, None, "active")],
            [],
        ),
    ],
)
def test_functional_fields(
    assertions: list[Assertion], expected: list, conflict_kinds: list
) -> None:
    chain = fold_facts(*assertions)
    assert settled(chain) == expected
    assert [c.kind for c in chain.conflicts] == conflict_kinds


@pytest.mark.parametrize(
    ("current", "op", "value", "expected", "held"),
    [
        (None, "add", "剑", ["剑"], True),
        (["剑"], "add", "灯", ["剑", "灯"], True),
        (["剑", "灯"], "add", "剑", ["剑", "灯"], True),
        (["剑", "灯"], "remove", "剑", ["灯"], True),
        (["灯"], "remove", "灯", [], True),
        (["灯"], "remove", "剑", ["灯"], False),
        (None, "remove", "剑", [], False),
        ("剑", "add", "灯", ["剑", "灯"], True),
    ],
)
def test_set_operations(current: Any, op: str, value: str, expected: list, held: bool) -> None:
    value_after, was_held = next_fact_value(current, op, value)
    assert sorted(value_after) == sorted(expected)
    assert was_held is held


def test_removing_a_value_not_held_is_a_conflict_and_changes_nothing() -> None:
    chain = fold_facts(fact(1, "剑", op="add"), fact(3, "灯", op="remove"))
    assert settled(chain) == [(["剑"], 1, None, "active")]
    assert [c.kind for c in chain.conflicts] == ["set_remove_missing"]
    assert chain.conflicts[0].chapter == 3


def test_emptied_set_is_still_a_value() -> None:
    chain = fold_facts(fact(1, "剑", op="add"), fact(2, "剑", op="remove"))
    assert settled(chain)[-1] == ([], 2, None, "active")


def rel(chapter: int, rel_type: str, action: str = "assert", confidence: float = 1.0) -> Assertion:
    return said(
        "rel",
        "a\x1fb\x1fgroup0",
        "a",
        rel_type,
        chapter,
        {"action": action, "type": rel_type, "confidence": confidence},
        obj="b",
    )


@pytest.mark.parametrize(
    ("assertions", "expected", "conflict_kinds"),
    [
        ([rel(1, "朋友")], [("朋友", 1, None, "active")], []),
        (
            [rel(1, "朋友"), rel(9, "仇敌")],
            [("朋友", 1, 9, "outdated"), ("仇敌", 9, None, "active")],
            [],
        ),
        ([rel(1, "朋友"), rel(3, "朋友")], [("朋友", 1, None, "active")], []),
        ([rel(1, "朋友"), rel(4, "朋友", "end")], [("朋友", 1, 4, "outdated")], []),
        ([rel(4, "朋友", "end")], [], ["relation_end_missing"]),
        (
            [rel(1, "朋友"), rel(4, "仇敌", "end")],
            [("朋友", 1, None, "active")],
            ["relation_end_missing"],
        ),
        (
            [rel(1, "朋友"), rel(2, "仇敌", confidence=0.2)],
            [("朋友", 1, None, "active"), ("仇敌", 2, None, "tentative")],
            [],
        ),
    ],
)
def test_relations(assertions: list[Assertion], expected: list, conflict_kinds: list) -> None:
    chain = replay("rel", [], assertions, CONFIG)
    assert settled(chain) == expected
    assert [c.kind for c in chain.conflicts] == conflict_kinds


def thread(chapter: int, action: str, **extra: Any) -> Assertion:
    return said("thread", "t", "t", "thread", chapter, {"action": action, **extra})


@pytest.mark.parametrize(
    ("actions", "statuses", "conflict_kinds"),
    [
        ([thread(1, "plant", content="三年之约", due_chapter=9)], ["open"], []),
        ([thread(1, "plant", content="x"), thread(5, "resolve")], ["open", "resolved"], []),
        ([thread(1, "plant", content="x"), thread(5, "abandon")], ["open", "abandoned"], []),
        (
            [thread(1, "plant", content="x"), thread(3, "advance", content="推进")],
            ["open", "open"],
            [],
        ),
        ([thread(4, "resolve", content="揭晓")], ["resolved"], ["thread_unknown"]),
        (
            [thread(1, "plant", content="x"), thread(3, "resolve"), thread(6, "advance")],
            ["open", "resolved"],
            ["thread_closed"],
        ),
        (
            [
                thread(1, "plant", content="x"),
                thread(3, "resolve"),
                thread(6, "plant", content="x"),
            ],
            ["open", "resolved", "open"],
            [],
        ),
    ],
)
def test_thread_lifecycle(
    actions: list[Assertion], statuses: list[str], conflict_kinds: list[str]
) -> None:
    chain = replay("thread", [], actions, CONFIG)
    assert [v.value["status"] for v in chain.touched] == statuses
    assert [c.kind for c in chain.conflicts] == conflict_kinds


def test_advance_keeps_what_the_thread_is_and_records_progress() -> None:
    chain = replay(
        "thread",
        [],
        [
            thread(1, "plant", content="三年之约", due_chapter=9),
            thread(3, "advance", content="药老提醒", due_chapter=12),
        ],
        CONFIG,
    )
    state = chain.current.value if chain.current else {}
    assert state["content"] == "三年之约"
    assert state["progress"] == "药老提醒"
    assert state["due_chapter"] == 12
    assert state["last_chapter"] == 3


def rule(chapter: int, action: str, text: str = "") -> Assertion:
    return said(
        "rule", "r", "r", "rule", chapter, {"action": action, "rule": text, "domain": "修炼"}
    )


@pytest.mark.parametrize(
    ("actions", "expected", "conflict_kinds"),
    [
        ([rule(1, "reveal", "A")], [("A", 1, None)], []),
        ([rule(1, "reveal", "A"), rule(5, "revise", "B")], [("A", 1, 5), ("B", 5, None)], []),
        ([rule(1, "reveal", "A"), rule(5, "retire")], [("A", 1, 5)], []),
        ([rule(1, "reveal", "A"), rule(2, "reveal", "A")], [("A", 1, None)], []),
        ([rule(5, "retire")], [], ["rule_unknown"]),
        ([rule(5, "revise", "B")], [("B", 5, None)], ["rule_unknown"]),
    ],
)
def test_world_rules(actions: list[Assertion], expected: list, conflict_kinds: list) -> None:
    chain = replay("rule", [], actions, CONFIG)
    assert [(v.value["rule"], v.valid_from, v.valid_to) for v in chain.touched] == expected
    assert [c.kind for c in chain.conflicts] == conflict_kinds


def test_replay_from_the_middle_equals_replay_from_the_start() -> None:
    """Reopening the versions open before chapter N and folding N.. gives the full fold."""
    assertions = [
        fact(1, "A"),
        fact(3, "B"),
        fact(5, "C", confidence=0.2),
        fact(7, "D"),
        fact(9, "E", old="X", has_old=True),
    ]
    full = fold_facts(*assertions)
    head = fold_facts(*assertions[:2])
    open_before_5 = [v for v in head.touched if v.valid_to is None or v.valid_to >= 5]
    tail = replay("fact", open_before_5, assertions[2:], CONFIG)
    closed_before = [v for v in head.touched if v.valid_to is not None and v.valid_to < 5]
    rebuilt = closed_before + tail.touched
    assert sorted(settled(Chain(touched=rebuilt))) == sorted(settled(full))
    assert [c.kind for c in tail.conflicts] == [c.kind for c in full.conflicts]


def status_version(value: str, start: int, end: int | None) -> Version:
    return Version(
        family="fact",
        key="e\x1fstatus",
        subject="e",
        field="status",
        obj=None,
        value=value,
        valid_from=start,
        valid_to=end,
        status="active",
        source_chapter=start,
        source_type="state_change",
    )


@pytest.mark.parametrize(
    ("activity_chapters", "statuses", "expected_chapters"),
    [
        ([5, 6], [status_version("死亡", 5, None)], [6]),  # acting in the death chapter is fine
        (
            [9],
            [status_version("死亡", 5, 9), status_version("存活", 9, None)],
            [],
        ),  # revived that chapter
        ([7], [status_version("重伤", 5, None)], []),
        ([7, 8], [status_version("陨落", 5, None)], [7, 8]),
    ],
)
def test_dead_characters_acting(
    activity_chapters: list[int], statuses: list[Version], expected_chapters: list[int]
) -> None:
    activities = [
        Activity(entity_id="e", chapter=c, kind="appeared", mention="某人")
        for c in activity_chapters
    ]
    drafts = entity_conflicts("e", statuses, activities, 1, CONFIG)
    assert [d.chapter for d in drafts if d.kind == "dead_entity_active"] == expected_chapters


def test_being_mourned_is_not_acting() -> None:
    activities = [Activity(entity_id="e", chapter=8, kind="relation_target", mention="周伯")]
    drafts = entity_conflicts("e", [status_version("死亡", 5, None)], activities, 1, CONFIG)
    assert drafts == []


def test_referenced_before_introduction_is_an_unknown_entity() -> None:
    activities = [
        Activity(entity_id="e", chapter=3, kind="appeared", mention="红衣女子"),
        Activity(entity_id="e", chapter=8, kind="appeared", mention="红衣"),
    ]
    drafts = entity_conflicts("e", [], activities, 5, CONFIG)
    assert [(d.kind, d.chapter) for d in drafts] == [("unknown_entity", 3)]


def test_conflict_windows_cover_only_dead_and_unintroduced_stretches() -> None:
    windows = conflict_windows(
        [status_version("死亡", 5, 9), status_version("存活", 9, None)], 2, CONFIG
    )
    assert windows == [(6, 9), (0, 2)]


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("斗者", "斗者", True),
        (3, "3", True),
        (" 斗者", "斗者", True),
        ("斗者", "斗师", False),
        (["a"], "a", False),
        (None, None, True),
    ],
)
def test_same_value(a: Any, b: Any, same: bool) -> None:
    assert same_value(a, b) is same
