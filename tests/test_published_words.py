"""What the published line says is true: a retraction that only removes conflicts, or a revision
that contradicts nothing, names no published chapter it "contradicts" (and never the revised
chapter itself); each example is said once; a thread left overdue in a draft is a reminder, not a
contradiction of the chapter that planted it; an emptied item set and no record both read
「（无）」, so one turning into the other is no change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import PublishedChapterRevised

from cli_runner import run_cli


def cast(*people: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"id": e, "name": name, "current": {"location": "青石镇"}} for e, name in people]


def items(entity: str, op: str, thing: str) -> dict[str, Any]:
    return {"entity_id": entity, "field": "items", "op": op, "new": thing}


CAST = cast(("master", "白眉真人"), ("hero", "陆青云"), ("villain", "韩啸天"))
# Chapter 2 kills the master; chapters 3 and 4 have him act: two conflicts, in published chapters.
CHAPTERS: list[dict[str, Any]] = [
    {
        "chapter": 1,
        "entities_new": CAST,
        "state_changes": [items("master", "add", "青冥剑")],
        "plot_threads": [
            {"id": "oath", "content": "三年之约", "action": "plant", "due_chapter": 3},
        ],
        "secrets": [
            {
                "id": "killer",
                "kind": "身份",
                "content": "韩啸天是灭陆家满门的凶手",
                "known_by": ["master"],
                "about": ["villain"],
            }
        ],
    },
    {
        "chapter": 2,
        "entities_appeared": [{"id": "master"}, {"id": "hero"}],
        "state_changes": [
            {"entity_id": "master", "field": "status", "new": "死亡"},
            items("master", "remove", "青冥剑"),
            items("hero", "add", "青冥剑"),
        ],
    },
    {"chapter": 3, "entities_appeared": [{"id": "master"}, {"id": "hero"}]},
    {"chapter": 4, "entities_appeared": [{"id": "master"}, {"id": "hero"}]},
]
LINE = 4


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "book"
    with webnovel.init_project(folder, title="青冥剑歌") as book:
        for result in CHAPTERS:
            book.commit(result)
        book.publish(LINE)
        assert len(book.conflicts()) == 2  # the dead master acts in chapters 3 and 4
    return folder


def refused(book: webnovel.Project, result: Any = None, retract: int | None = None) -> str:
    with pytest.raises(PublishedChapterRevised) as caught:
        if retract is not None:
            book.retract(retract)
        else:
            book.commit(result)
    return str(caught.value)


def test_a_retraction_that_removes_conflicts_contradicts_nothing(root: Path) -> None:
    ran = run_cli("--project", str(root), "retract", "2", "--yes")
    assert ran.returncode == 1
    said = ran.stderr
    assert "第2章已发布" in said and "消除 2 处矛盾" in said
    assert "与已发布" not in said, said
    assert said.count("白眉真人的状态：死亡 → （无）") == 1, said


def test_a_revision_that_adds_no_conflict_names_no_published_chapter(root: Path) -> None:
    with webnovel.open_project(root) as book:
        stored = book.stored_commit(1)
        assert stored is not None
        revised = json.loads(json.dumps(stored["result"]))
        revised["state_changes"].append({"entity_id": "hero", "field": "realm", "new": "筑基"})
        said = refused(book, revised)
    assert "新增 0 处矛盾" in said
    assert "与已发布" not in said, said  # not 「与已发布的第1章矛盾」: chapter 1 is the one revised
    assert said.count("陆青云的境界：（无） → 筑基") == 1, said
    # while one that kills the hero in chapter 1 contradicts chapters 2–4, where he acts
    revised["state_changes"].append({"entity_id": "hero", "field": "status", "new": "死亡"})
    with webnovel.open_project(root) as book:
        said = refused(book, revised)
    assert "与已发布的第2、3、4章矛盾" in said, said


def test_an_emptied_set_and_no_record_are_not_a_change(root: Path) -> None:
    """Chapter 1 revised without the sword: the master's items were emptied in chapter 2 and
    now were never recorded; both read 「（无）」."""
    with webnovel.open_project(root) as book:
        stored = book.stored_commit(1)
        assert stored is not None
        revised = json.loads(json.dumps(stored["result"]))
        revised["state_changes"] = []
        found = book.impact(revised)
        said = refused(book, revised)
    shown = [(c.entity_id, c.field, c.before, c.after) for c in [*found.changed, *found.records]]
    assert ("master", "items", [], None) not in shown, shown
    assert ("master", "items", ["青冥剑"], None) in shown  # what chapter 1 itself loses
    assert "（无） → （无）" not in said, said


def test_a_reminder_contradicts_no_published_chapter(root: Path, tmp_path: Path) -> None:
    """A thread left overdue, and the question whether 陆青云 has learned the secret about the
    man he meets, cite the chapter that planted them; neither contradicts it."""
    draft = tmp_path / "draft.json"
    meeting = {
        "chapter": 5,
        "summary": "陆青云下山，遇见韩啸天",
        "entities_appeared": [{"id": "hero"}, {"id": "villain"}],
        "scenes": [{"index": 1, "location": "青石镇", "characters": ["陆青云", "韩啸天"]}],
    }
    draft.write_text(json.dumps(meeting, ensure_ascii=False), encoding="utf-8")
    report = json.loads(run_cli("--project", str(root), "review", str(draft)).stdout)
    reminders = [
        i for i in report["issues"] if i["category"] in ("thread_overdue", "knowledge_unrecorded")
    ]
    assert {i["category"] for i in reminders} == {"thread_overdue", "knowledge_unrecorded"}
    assert [i["contradicts_published"] for i in reminders] == [[], []]
    text = run_cli("--project", str(root), "review", str(draft), "--format", "text").stdout
    assert "线索逾期" in text or "三年之约" in text
    assert "与已发布" not in text, text
