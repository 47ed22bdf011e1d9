from __future__ import annotations

from typing import Any

import pytest

from webnovel.errors import InvalidChapterResult
from webnovel.memory.write.chapter_result import derived_id, parse_chapter_result


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests pin the English wording (WEBNOVEL_LANG=en); the Chinese is pinned below."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")


def problems(data: Any, chapter: int | None = None) -> list[str]:
    with pytest.raises(InvalidChapterResult) as caught:
        parse_chapter_result(data, chapter)
    return caught.value.problems


def test_every_bad_path_is_named_at_once() -> None:
    found = problems(
        {
            "chapter": 0,
            "entities_new": [{"name": "无名"}, "oops"],
            "state_changes": [
                {"entity_id": "x", "field": "realm"},
                {"entity_id": "x", "field": "f", "new": {"a": 1}},
            ],
            "relationships_new": [{"from": "a", "type": "朋友", "action": "hug"}],
            "plot_threads": [{"action": "resolve"}],
            "world_rules": [{"action": "retire"}],
            "scenes": "not a list",
        }
    )
    assert found == [
        "$.chapter: must be a chapter number from 1 to 1,000,000, got 0",
        "$.entities_new[1]: must be an object, got a string",
        "$.entities_new[0].id: is required",
        "$.state_changes[0].new: is required",
        "$.state_changes[1].new: must be a string, number or boolean, got an object",
        "$.relationships_new[0].to: is required",
        "$.relationships_new[0].action: must be one of create, update, end, remove, got 'hug'",
        "$.plot_threads[0].id: is required unless the thread is planted with content",
        "$.world_rules[0].id: is required to retire a rule",
        "$.scenes: must be a list, got a string",
    ]


@pytest.mark.parametrize(
    ("data", "chapter", "message"),
    [
        ({}, None, "$.chapter: is required (in the result; on the command line --chapter gives it too)"),
        ({"chapter": 3}, 4, "$.chapter: is 3 but --chapter says 4"),
        (
            {"chapter": True},
            None,
            "$.chapter: must be a chapter number from 1 to 1,000,000, got True",
        ),
        ([], None, "$: must be a JSON object, got a list"),
    ],
)
def test_chapter_number(data: Any, chapter: int | None, message: str) -> None:
    assert problems(data, chapter) == [message]


def test_chapter_from_option() -> None:
    assert parse_chapter_result({}, chapter=7).chapter == 7


def test_older_upstream_shape_is_accepted() -> None:
    result = parse_chapter_result(
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "x", "field_path": "realm", "old_value": "斗者", "new_value": "斗师"}
            ],
            "relationships_new": [{"from_entity": "x", "to_entity": "y", "type": "相识"}],
            "memory_facts": {
                "world_rules": [{"rule": "斗气需炼化"}],
                "open_loops": [{"content": "谁是黑衣人"}],
                "reader_promises": [{"id": "pact", "content": "三年之约"}],
                "timeline_events": [{"event": "比武"}],
            },
        }
    )
    change = result.state_changes[0]
    assert (change.field, change.old, change.new, change.has_old) == ("realm", "斗者", "斗师", True)
    assert (result.relationships[0].source_ref, result.relationships[0].target_ref) == ("x", "y")
    assert [(t.id, t.kind) for t in result.threads] == [
        (derived_id("t", "谁是黑衣人"), "open_loop"),
        ("pact", "reader_promise"),
    ]
    assert result.world_rules[0].id == derived_id("r", "斗气需炼化")
    assert result.timeline_events[0].event == "比武"


def test_unknown_keys_become_warnings() -> None:
    result = parse_chapter_result({"chapter": 1, "mood_music": "lofi"})
    assert result.warnings == ("unknown key 'mood_music' kept in the stored commit but not used",)


@pytest.mark.parametrize(("raw", "expected"), [(150, 150), ("第150章", 150), ("150", 150)])
def test_due_chapter_forms(raw: Any, expected: int) -> None:
    result = parse_chapter_result(
        {"chapter": 1, "plot_threads": [{"id": "p", "content": "x", "expected_payoff": raw}]}
    )
    assert result.threads[0].due_chapter == expected


def test_relation_remove_means_end() -> None:
    result = parse_chapter_result(
        {
            "chapter": 1,
            "relationships_new": [{"from": "a", "to": "b", "type": "朋友", "action": "remove"}],
        }
    )
    assert result.relationships[0].action == "end"


def test_null_values_are_refused() -> None:
    assert problems(
        {"chapter": 1, "state_changes": [{"entity_id": "x", "field": "realm", "new": None}]}
    ) == ["$.state_changes[0].new: must be a string, number or boolean, got null"]
    assert problems(
        {"chapter": 1, "entities_new": [{"id": "x", "name": "甲", "current": {"realm": None}}]}
    ) == ["$.entities_new[0].current.realm: must be a string, number or boolean, got null"]


def test_the_problems_are_chinese_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBNOVEL_LANG")
    with pytest.raises(InvalidChapterResult) as caught:
        parse_chapter_result({"chapter": 0, "scenes": "x"})
    assert caught.value.problems == [
        "$.chapter: 应为 1 到 1,000,000 之间的章节号，实际是 0",
        "$.scenes: 应为列表，实际是字符串",
    ]
    assert str(caught.value).startswith("章节结果无效（2 个问题）")
