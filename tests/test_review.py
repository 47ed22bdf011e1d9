"""Review of draft chapter results: planted errors are found with the right entity, clean drafts
raise nothing above low, and a review never changes what the book answers."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import ReviewBlocked, UnknownConflict
from webnovel.ingest.sample_book import sample_chapters

from saga import LADDER, Saga, generate_saga
from stores import copy_of, init_book

ABOVE_LOW = {"critical", "high", "medium"}


@pytest.fixture(scope="module")
def saga() -> Saga:
    return generate_saga(121, seed=19)


@pytest.fixture(scope="module")
def saga_folder(tmp_path_factory: pytest.TempPathFactory, saga: Saga) -> Path:
    """120 chapters committed once, into a SQLite book: each backend reviews its own copy (on
    PostgreSQL the product's table copy, not 120 commits' round trips again)."""
    root = tmp_path_factory.mktemp("review") / "b"
    with init_book("sqlite", root, title="r", genre="仙侠") as project:
        for result in saga.results[:120]:
            project.commit(result)
    return root


@pytest.fixture(scope="module")
def book(
    tmp_path_factory: pytest.TempPathFactory, saga_folder: Path, backend: str
) -> Iterator[webnovel.Project]:
    project = copy_of(backend, saga_folder, tmp_path_factory.mktemp("review") / "b")
    yield project
    project.close()


def snapshot(book: webnovel.Project) -> str:
    return json.dumps(
        [
            book.stats().counts,
            [c.to_dict() for c in book.conflicts()],
            [i.to_dict() for i in book.history("e0")],
            [t.to_dict() for t in book.threads("all")],
        ],
        ensure_ascii=False,
    )


def issues_by_category(report: Any) -> dict[str, list]:
    found: dict[str, list] = {}
    for issue in report.issues:
        found.setdefault(issue.category, []).append(issue)
    return found


def test_clean_draft_raises_nothing_above_low(book: webnovel.Project, saga: Saga) -> None:
    report = book.review(saga.results[120])
    assert [i.to_dict() for i in report.issues if i.severity in ABOVE_LOW] == []


def test_planted_errors_are_reported_with_the_right_entity(
    book: webnovel.Project, saga: Saga
) -> None:
    truth = saga.truth
    dead = next(
        e
        for (e, f), h in sorted(truth.facts.items())
        if f == "status" and truth.fact(e, f, 120) == "死亡"
    )
    climber = next(
        e
        for (e, f), h in sorted(truth.facts.items())
        if f == "realm"
        and LADDER.index(truth.fact(e, f, 120) or "炼气") >= 2
        and truth.fact(e, "status", 120) == "存活"
    )
    mover = next(
        e
        for (e, f), h in sorted(truth.facts.items())
        if f == "location" and e not in (dead, climber) and truth.fact(e, "status", 120) == "存活"
    )
    alive = [e for e in sorted(truth.names) if truth.fact(e, "status", 120) == "存活"]
    stranger_pair = next(
        (a, b)
        for a in alive
        for b in alive
        if a != b and not any(s == a and t == b for s, t, _ in truth.relations_of(a, 120))
    )
    draft = copy.deepcopy(saga.results[120])
    draft["entities_appeared"].append({"id": truth.names[dead][0]})
    draft["state_changes"] += [
        {"entity_id": climber, "field": "realm", "new": "炼气"},
        {
            "entity_id": truth.names[mover][1][0],
            "field": "location",
            "old": "不存在之地",
            "new": "青云城",
        },
        {"entity_id": "无名氏", "field": "mood", "new": "平静"},
    ]
    draft["relationships_new"].append(
        {"from": stranger_pair[0], "to": stranger_pair[1], "type": "朋友", "action": "end"}
    )
    before = snapshot(book)
    report = book.review(draft)
    assert snapshot(book) == before  # a review writes nothing
    found = issues_by_category(report)
    assert [(i.severity, i.entity_id) for i in found["dead_entity_active"]] == [("critical", dead)]
    assert [(i.severity, i.entity_id, i.found) for i in found["regression"]] == [
        ("critical", climber, "炼气")
    ]
    mismatch = found["old_value_mismatch"][0]
    assert (mismatch.entity_id, mismatch.expected) == (mover, truth.fact(mover, "location", 120))
    assert mismatch.evidence and mismatch.evidence[0]["chapter"] <= 120
    assert [i.entity_id for i in found["relation_end_missing"]] == [stranger_pair[0]]
    assert [i.found for i in found["unknown_entity"]] == ["无名氏"]
    assert all(i.blocking for i in report.issues if i.severity in ("critical", "high"))


def test_a_reason_softens_a_ladder_regression(book: webnovel.Project, saga: Saga) -> None:
    climber = next(
        e
        for (e, f), h in sorted(saga.truth.facts.items())
        if f == "realm" and saga.truth.fact(e, f, 120) not in (None, "炼气")
    )
    draft = {
        "chapter": 121,
        "state_changes": [
            {"entity_id": climber, "field": "realm", "new": "炼气", "reason": "被废去修为"}
        ],
    }
    [issue] = issues_by_category(book.review(draft))["ladder_regression"]
    assert (issue.category, issue.severity, issue.blocking) == (
        "ladder_regression",
        "medium",
        False,
    )


def test_a_draft_may_revive_a_character(book: webnovel.Project, saga: Saga) -> None:
    dead = next(
        e
        for (e, f), h in sorted(saga.truth.facts.items())
        if f == "status" and saga.truth.fact(e, f, 120) == "死亡"
    )
    draft = {
        "chapter": 121,
        "entities_appeared": [{"id": dead}],
        "state_changes": [
            {
                "entity_id": dead,
                "field": "status",
                "old": "死亡",
                "new": "存活",
                "reason": "借尸还魂",
            }
        ],
    }
    assert [i for i in book.review(draft).issues if i.severity in ABOVE_LOW] == []


@pytest.fixture
def sample_book(tmp_path: Path, backend: str) -> Iterator[webnovel.Project]:
    project = init_book(backend, tmp_path / "sample", title="青灯照剑", genre="仙侠")
    yield project
    project.close()


def test_sample_chapters_raise_no_false_alarms(sample_book: webnovel.Project) -> None:
    """Reviewing each real chapter of the sample book before committing it."""
    raised = []
    for chapter in sample_chapters():
        report = sample_book.review(chapter.result)
        raised += [
            (chapter.number, i.category, i.message)
            for i in report.issues
            if i.severity in ABOVE_LOW
        ]
        sample_book.commit(chapter.result, text=chapter.text, check=True)
    assert raised == []
    lows = sample_book.review(list(sample_chapters())[-1].result, chapter=12)
    assert {i.category for i in lows.issues} <= {
        "thread_overdue",
        "location_continuity",
        "relation_jump",
    }


def test_thread_and_rule_checks(sample_book: webnovel.Project) -> None:
    for chapter in sample_chapters():
        sample_book.commit(chapter.result)
    draft = {
        "chapter": 13,
        "plot_threads": [
            {"id": "lamp-origin", "action": "advance", "content": "再探青灯"},
            {"id": "no-such", "action": "resolve"},
        ],
        "world_rules": [{"id": "lamp-midnight", "action": "revise", "rule": "x"}],
    }
    found = issues_by_category(sample_book.review(draft))
    assert found["thread_closed"][0].severity == "high"
    assert found["thread_unknown"][0].field == "no-such"
    assert "thread_overdue" in found  # the raven, planted ch 1, due ch 6


def test_commit_check_refuses_blocking_issues_and_force_commits(
    sample_book: webnovel.Project,
) -> None:
    for chapter in list(sample_chapters())[:7]:
        sample_book.commit(chapter.result)
    ghost = {"chapter": 8, "entities_appeared": [{"id": "周伯"}]}
    before = sample_book.stats().counts
    with pytest.raises(ReviewBlocked) as caught:
        sample_book.commit(ghost, check=True)
    assert "周伯 出现或行动（出场），但其自第7章起状态为「死亡」" in str(caught.value)
    assert sample_book.stats().counts == before
    report = sample_book.commit(ghost, check=True, force=True)
    [conflict] = report.conflicts
    assert conflict.kind == "dead_entity_active"
    settled = sample_book.resolve_conflict(conflict.id, intentional=True, note="回忆中的周伯")
    assert (settled.status, settled.note) == ("accepted", "回忆中的周伯")
    assert sample_book.conflicts() == []
    assert [c.status for c in sample_book.conflicts(include_settled=True)] == ["accepted"]
    sample_book.rebuild()  # the verdict survives re-derivation
    assert sample_book.conflicts() == []
    with pytest.raises(UnknownConflict):
        sample_book.resolve_conflict("c-nothing")


def test_review_pack_gathers_exactly_what_the_draft_touches(
    book: webnovel.Project, saga: Saga
) -> None:
    draft = saga.results[120]
    by_name = {n: e for e, (name, aliases) in saga.truth.names.items() for n in (e, name, *aliases)}
    references = [c["entity_id"] for c in draft["state_changes"]]
    references += [a["id"] for a in draft["entities_appeared"]]
    references += [r[k] for r in draft["relationships_new"] for k in ("from", "to")]
    references += [c for s in draft["scenes"] for c in s["characters"]]
    references += [p for e in draft["timeline_events"] for p in e["participants"]]
    references += [r for t in draft["plot_threads"] for r in t.get("related", [])]
    touched = {by_name[r] for r in references}
    pack = book.build_memory_pack("review", draft=draft, budget_tokens=3000)
    assert pack.chapter == 121
    in_play = {e["id"]: e["why"] for e in pack.entities_in_play}
    assert set(in_play) - {"e0"} == touched - {"e0"}  # and the protagonist
    assert all(why == "touched by the draft" for e, why in in_play.items() if e in touched)
    state = {i.subject for s in pack.sections if s.name == "character_state" for i in s.items}
    assert state <= set(in_play)


def test_commit_check_refuses_a_reveal_that_takes_anothers_name(
    sample_book: webnovel.Project,
) -> None:
    """On both stores: 韩啸 revealed as 林砚 would make two people one; `commit --check`
    refuses it and writes nothing, a forced commit records the blocking conflict."""
    for chapter in list(sample_chapters())[:3]:
        sample_book.commit(chapter.result)
    taking = {
        "chapter": 4,
        "entities_new": [{"id": "hanxiao", "name": "林砚", "revealed": True}],
    }
    seq = sample_book.commit_seq()
    with pytest.raises(ReviewBlocked, match="揭示 韩啸（hanxiao）名为「林砚」"):
        sample_book.commit(taking, check=True)
    assert sample_book.commit_seq() == seq
    report = sample_book.commit(taking, check=True, force=True)
    assert [(c.kind, c.target) for c in report.conflicts] == [("reveal_takes_name", "linyan")]
    sample_book.rebuild()
    assert [c.kind for c in sample_book.conflicts()] == ["reveal_takes_name"]
