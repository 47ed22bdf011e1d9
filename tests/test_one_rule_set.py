"""Review and commit judge by one rule set: random drafts with planted errors of every kind raise,
in review, exactly the conflicts that committing the same draft records, by kind and entity."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import webnovel
from webnovel.errors import InvalidChapterResult
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.schema import ADVICE_KINDS, CONFLICT_KINDS
from webnovel.memory.vocabulary import ADVICE_KIND, CONFLICT_KIND
from webnovel.memory.write.rulebook import BLOCKING, BLOCKING_ADVICE, RECORDED_KINDS, RULES

Draft = dict[str, Any]


def _add(key: str, item: dict[str, Any]) -> Callable[[Draft], None]:
    return lambda draft: draft.setdefault(key, []).append(item)


PLANTS: dict[str, Callable[[Draft], None]] = {
    "dead_entity_active": _add("entities_appeared", {"id": "周伯"}),
    "regression": _add("state_changes", {"entity_id": "林砚", "field": "realm", "new": "炼气"}),
    "ladder_regression": lambda draft: draft.setdefault("state_changes", []).extend(
        [
            {"entity_id": "苏晚晴", "field": "realm", "new": "筑基"},
            {"entity_id": "苏晚晴", "field": "realm", "new": "炼气", "reason": "走火入魔"},
        ]
    ),
    "old_value_mismatch": _add(
        "state_changes",
        {"entity_id": "砚儿", "field": "location", "old": "不存在之地", "new": "后山"},
    ),
    "relation_end_missing": _add(
        "relationships_new", {"from": "林砚", "to": "苏晚晴", "type": "仇敌", "action": "end"}
    ),
    "thread_closed": _add("plot_threads", {"id": "lamp-origin", "action": "advance"}),
    "thread_unknown": _add("plot_threads", {"id": "no-such-thread", "action": "resolve"}),
    "rule_unknown": _add("world_rules", {"id": "no-such-rule", "action": "revise", "rule": "x"}),
    "unknown_entity": _add("entities_appeared", {"id": "无名氏"}),
    "duplicate_entity": _add(
        "entities_new", {"id": "hanxiao", "name": "韩啸", "current": {"location": "黑风谷"}}
    ),
    "two_places_at_once": lambda draft: draft.setdefault("scenes", []).extend(
        [
            {"index": 1, "location": "后山", "characters": ["林砚"]},
            {"index": 2, "time": "同一时刻", "location": "青石镇", "characters": ["林砚"]},
        ]
    ),
    "set_remove_missing": _add(
        "state_changes", {"entity_id": "林砚", "field": "items", "op": "remove", "new": "无此物"}
    ),
    "item_not_held": _add(  # 苏晚晴 has held it since chapter 12
        "state_changes",
        {"entity_id": "林砚", "field": "items", "op": "remove", "new": "血衣堂令牌"},
    ),
    "name_taken": _add("entities_new", {"id": "su-inn", "name": "苏晚晴", "type": "地点"}),
    "alias_taken": _add("entities_new", {"id": "new-su", "name": "苏晚", "aliases": ["晚晴"]}),
    "name_reintroduced": _add("entities_new", {"id": "zhao_heng", "name": "赵恒"}),
    "reveal_takes_name": _add(
        "entities_new", {"id": "linyuanshan", "name": "玄霄门", "revealed": True}
    ),
    "secret_source_unaware": _add(
        "knowledge_changes",
        {"entity_id": "苏晚晴", "secret_id": "father-alive", "from": "韩啸", "how": "套话"},
    ),
    "secret_unknown": _add("knowledge_changes", {"entity_id": "林砚", "secret_id": "no-such"}),
    "already_known": _add(
        "knowledge_changes", {"entity_id": "白眉老道", "secret_id": "lichen-identity"}
    ),
    "early_reveal": lambda draft: draft.setdefault("secrets", []).extend(
        [
            {"id": "new-secret", "content": "青灯里封着玄霄真人的一缕神识", "reveal_due": 30},
            {"id": "new-secret", "action": "reveal"},
        ]
    ),
}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webnovel.Project]:
    book = webnovel.init_project(tmp_path_factory.mktemp("one") / "b", title="t", genre="仙侠")
    for chapter in sample_chapters():
        book.commit(chapter.result, text=chapter.text)
    yield book
    book.close()


def test_the_rulebook_covers_every_planted_kind() -> None:
    assert set(PLANTS) <= set(RULES)
    assert {k for k in CONFLICT_KINDS} <= set(PLANTS)  # every conflict kind is planted


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(kinds=st.sets(st.sampled_from(sorted(PLANTS)), min_size=1, max_size=5))
def test_review_raises_exactly_what_commit_records(
    sample: webnovel.Project, kinds: set[str]
) -> None:
    draft: Draft = {"chapter": 13, "summary": "林砚下山"}
    for kind in sorted(kinds):
        PLANTS[kind](draft)
    review = sample.review(draft)
    raised = {i.category for i in review.issues}
    assert kinds <= raised, f"planted {kinds}, review raised {raised}"
    flagged = {(i.category, i.entity_id) for i in review.issues if i.category in CONFLICT_KINDS}
    blocking = {(i.category, i.entity_id) for i in review.issues if i.blocking}
    report = sample.commit(draft)
    try:
        recorded = {(c.kind, c.entity_id) for c in report.conflicts if c.chapter == 13}
        assert flagged == recorded
        # a name two entities may mean blocks under check but is no ledger conflict
        assert {(k, e) for k, e in blocking if k not in BLOCKING_ADVICE} <= recorded
        assert {"alias_taken", "ambiguous_alias"} == BLOCKING_ADVICE
        assert all(RULES[kind].severity in BLOCKING for kind, _ in blocking)
    finally:
        sample.retract(13)


def test_entities_introduced_twice(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="t", genre="仙侠") as book:
        with pytest.raises(InvalidChapterResult) as caught:
            book.commit(
                {
                    "chapter": 1,
                    "entities_new": [{"id": "a", "name": "甲"}, {"id": "a", "name": "乙"}],
                }
            )
        assert "$.entities_new[1].id" in str(caught.value)
        assert "$.entities_new[0].id" in str(caught.value)
        assert book.latest_chapter() is None  # nothing written
        book.commit(
            {
                "chapter": 1,
                "entities_new": [{"id": "a", "name": "云瑶", "current": {"realm": "炼气"}}],
            }
        )
        again = book.commit(
            {
                "chapter": 2,
                "entities_new": [{"id": "a", "name": "云瑶二", "current": {"realm": "化神"}}],
            }
        )
        assert {c.kind for c in again.conflicts} == {"duplicate_entity"}
        [duplicate] = again.conflicts
        assert (
            duplicate.message
            == "第2章在 entities_new 中再次登记了 云瑶（id「a」），但其已于第1章登场"
        )
        jumped = book.commit(
            {
                "chapter": 3,
                "entities_new": [{"id": "a", "name": "云瑶", "current": {"realm": "炼气"}}],
            }
        )
        assert "regression" in {c.kind for c in jumped.conflicts}  # still on the ladder
        aliased = {"id": "b", "name": "云瑶儿", "aliases": ["云瑶"]}
        named = book.commit({"chapter": 4, "entities_new": [aliased]})
        assert any("它已是 云瑶（a）的名字或别名" in w for w in named.warnings)
        assert named.conflicts == ()  # an alias shared is advice
        review = book.review({"chapter": 5, "entities_new": [{"id": "c", "name": "云瑶"}]})
        [taken] = [i for i in review.issues if i.category == "name_reintroduced"]
        assert (taken.severity, taken.found, taken.expected) == ("high", "云瑶", "a")
        assert taken.blocking
        assert "name_taken" not in {i.category for i in review.issues}  # said once


def test_one_vocabulary_of_findings() -> None:
    """The conflict kinds the values type, the rulebook records and the author reads are one
    list; every advice kind has a Chinese word too."""
    assert set(CONFLICT_KINDS) == set(RECORDED_KINDS)
    assert set(CONFLICT_KINDS) <= set(CONFLICT_KIND)
    advice = {kind for kind, rule in RULES.items() if not rule.recorded}
    assert advice == set(ADVICE_KINDS) and advice <= set(ADVICE_KIND)


def test_a_reveal_cannot_give_one_entity_anothers_name(tmp_path: Path) -> None:
    """岳飞 re-introduced as 秦桧 with `revealed` would make two people one: review blocks it,
    and a commit without --check records it as a blocking conflict naming both, instead of
    renaming without a word. A reveal to a name nobody holds stays a plain reveal."""
    with webnovel.init_project(tmp_path / "b", title="说岳") as book:
        cast = [{"id": "yuefei", "name": "岳飞"}, {"id": "qinhui", "name": "秦桧"}]
        book.commit({"chapter": 1, "entities_new": cast})
        reveal = {
            "chapter": 2,
            "entities_new": [{"id": "yuefei", "name": "秦桧", "revealed": True}],
        }
        [issue] = [i for i in book.review(reveal).issues if i.category == "reveal_takes_name"]
        assert issue.blocking and (issue.entity_id, issue.expected) == ("yuefei", "qinhui")
        assert "name_taken" not in {i.category for i in book.review(reveal).issues}
        report = book.commit(reveal)
        [conflict] = report.conflicts
        assert conflict.kind == "reveal_takes_name"
        assert conflict.message.startswith("第2章揭示 岳飞（yuefei）名为「秦桧」")
        assert "秦桧（qinhui）" in conflict.message
        assert [c.kind for c in book.conflicts()] == ["reveal_takes_name"]
        assert not any("用了名字" in w for w in report.warnings)  # said once, as the conflict
        book.commit({"chapter": 3, "entities_new": [{"id": "xueyi", "name": "血衣堂主"}]})
        plain = book.commit(
            {"chapter": 4, "entities_new": [{"id": "xueyi", "name": "厉沉", "revealed": True}]}
        )
        assert plain.conflicts == ()


def test_every_rule_says_how_to_fix_it_in_the_readers_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hints come from the catalogue by kind, so English readers get English hints (the
    Chinese words they may quote are the input's own, in 「」)."""
    chinese = {kind: rule.fix_hint for kind, rule in RULES.items()}
    assert all(chinese.values())
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    for kind, rule in RULES.items():
        english = rule.fix_hint
        assert english and english != chinese[kind], kind
        unquoted = "".join(part.split("」")[-1] for part in english.split("「"))
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in unquoted), (kind, english)
