"""Commits through the Python API, as an agent makes them."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import AmbiguousEntity, InvalidChapterResult, UnknownEntity

from answers import book_answers
from saga import Saga, generate_saga

INTRO = {
    "chapter": 1,
    "entities_new": [
        {
            "id": "xiaoyan",
            "name": "萧炎",
            "aliases": ["炎子"],
            "is_protagonist": True,
            "current": {"realm": "斗者", "location": "乌坦城", "status": "存活"},
        },
        {"id": "nalan", "name": "纳兰嫣然", "aliases": ["纳兰"], "current": {"realm": "斗师"}},
    ],
}


def table_counts(book: webnovel.Project) -> dict[str, int]:
    return book.stats().counts


def test_commit_report_and_identical_recommit(book: webnovel.Project) -> None:
    report = book.commit(INTRO)
    assert report.status == "committed"
    assert report.commit_id.startswith("b2:")
    assert report.counts.to_dict() == {
        "added": 4,
        "superseded": 0,
        "contradicted": 0,
        "tentative": 0,
    }
    before = table_counts(book)
    again = book.commit(copy.deepcopy(INTRO))
    assert (again.status, again.commit_id) == ("unchanged", report.commit_id)
    assert table_counts(book) == before
    assert not any("取代" in w for w in report.warnings + again.warnings)


def test_a_commit_that_replaces_another_version_says_so(book: webnovel.Project) -> None:
    """Two writers may commit one chapter moments apart: the later one stands, and is told."""
    first = book.commit(INTRO)
    other = book.commit({**copy.deepcopy(INTRO), "summary": "另一位作者写的第一章"})
    assert other.status == "committed"
    assert any(first.commit_id in w and "取代" in w for w in other.warnings)


def test_a_rejected_commit_writes_nothing(book: webnovel.Project) -> None:
    book.commit(INTRO)
    before = table_counts(book)
    with pytest.raises(InvalidChapterResult) as caught:
        book.commit({"chapter": 2, "state_changes": [{"entity_id": "萧炎", "field": "realm"}]})
    assert "$.state_changes[0].new: 必填" in str(caught.value)
    assert table_counts(book) == before


def test_references_by_id_name_and_alias(book: webnovel.Project) -> None:
    book.commit(INTRO)
    book.commit(
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "炎子", "field": "realm", "old": "斗者", "new": "斗师"},
                {"entity_id": "萧炎", "field": "items", "op": "add", "new": "玄重尺"},
                {"entity_id": "xiaoyan", "field": "items", "op": "add", "new": "青莲地心火"},
            ],
        }
    )
    for reference in ("xiaoyan", "萧炎", "炎子"):
        assert book.fact(reference, "realm").value == "斗师"
    assert book.fact("炎子", "realm", as_of=1).value == "斗者"
    assert book.fact("萧炎", "items").value == ["玄重尺", "青莲地心火"]
    assert book.fact("萧炎", "items", as_of=1) is None
    assert book.conflicts() == []


def test_unknown_entity_is_kept_tentative_with_a_conflict(book: webnovel.Project) -> None:
    book.commit(INTRO)
    report = book.commit(
        {"chapter": 2, "relationships_new": [{"from": "萧炎", "to": "药老", "type": "师徒"}]}
    )
    assert [c.kind for c in report.conflicts] == ["unknown_entity"]
    assert report.conflicts[0].entity_id == "药老"
    assert any(w.startswith("未知实体「药老」") for w in report.warnings)
    assert book.entity("药老").tentative
    assert [(r.source, r.target, r.type) for r in book.relations("萧炎")] == [
        ("xiaoyan", "药老", "师徒")
    ]


def test_introduction_adopts_a_tentative_entity(book: webnovel.Project) -> None:
    """A chapter mentioning 药老 committed before the chapter that introduces him."""
    book.commit(
        {"chapter": 5, "state_changes": [{"entity_id": "药老", "field": "location", "new": "戒指"}]}
    )
    book.commit(
        {
            **INTRO,
            "entities_new": INTRO["entities_new"]
            + [
                {"id": "yaolao", "name": "药老", "aliases": ["药尘"], "current": {"status": "存活"}}
            ],
        }
    )
    assert book.entity("药老").id == "yaolao"
    assert book.fact("药尘", "location").value == "戒指"
    assert book.conflicts() == []
    with pytest.raises(UnknownEntity):
        book.entity("药老x")


def test_ambiguous_alias(book: webnovel.Project) -> None:
    book.commit(
        {
            "chapter": 1,
            "entities_new": [
                {"id": "a", "name": "王长老", "aliases": ["长老"]},
                {"id": "b", "name": "李长老", "aliases": ["长老"]},
            ],
        }
    )
    with pytest.raises(AmbiguousEntity) as caught:
        book.fact("长老", "realm")
    assert caught.value.candidates == ["a", "b"]
    report = book.commit({"chapter": 2, "entities_appeared": [{"id": "长老"}]})
    assert any("「长老」可指多个实体" in w for w in report.warnings)


def test_recommitting_a_chapter_replaces_what_it_said(book: webnovel.Project) -> None:
    book.commit(INTRO)
    book.commit(
        {
            "chapter": 2,
            "state_changes": [{"entity_id": "萧炎", "field": "realm", "new": "斗师"}],
            "plot_threads": [{"id": "pact", "content": "三年之约"}],
        }
    )
    book.commit(
        {
            "chapter": 3,
            "state_changes": [{"entity_id": "萧炎", "field": "location", "new": "魔兽山脉"}],
        }
    )
    book.commit({"chapter": 2, "summary": "改写：萧炎没有突破"})
    assert book.fact("萧炎", "realm").value == "斗者"
    assert book.threads("all") == []
    assert book.fact("萧炎", "location").value == "魔兽山脉"
    assert [i.valid_from for i in book.history("萧炎", "realm")] == [1]


def test_old_value_mismatch_names_canonical_entity_and_the_writing_chapter(
    book: webnovel.Project,
) -> None:
    book.commit(INTRO)
    report = book.commit(
        {
            "chapter": 9,
            "state_changes": [
                {"entity_id": "炎子", "field": "realm", "old": "斗师", "new": "大斗师"}
            ],
        }
    )
    conflict = report.conflicts[0]
    assert (conflict.kind, conflict.entity_id, conflict.chapter) == (
        "old_value_mismatch",
        "xiaoyan",
        9,
    )
    assert (conflict.expected, conflict.found) == ("斗者", "斗师")
    assert [e["chapter"] for e in conflict.evidence] == [1, 9]
    assert conflict.message.startswith("萧炎：第9章以为境界原为「斗师」")  # named for the author
    assert book.fact("萧炎", "realm").value == "大斗师"  # the chapter is canon
    old = book.fact("萧炎", "realm", as_of=5)  # chapter 5 did not know chapter 9 yet
    assert (old.value, old.status, old.valid_to) == ("斗者", "active", None)
    first = book.history("萧炎", "realm")[0]  # now it is known to have lost the conflict
    assert (first.value, first.status, first.valid_to) == ("斗者", "contradicted", 9)


def test_a_conflict_is_said_in_the_reader_s_language_and_an_older_one_as_written(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conflict keeps what its message says (key and arguments, schema 0015_conflict_args)
    and is said when read: committed in Chinese, read in English. One stored before (no
    arguments) is shown as it was written, its entity named as it is now."""
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    book.commit(INTRO)
    mismatch = {"entity_id": "炎子", "field": "realm", "old": "斗师", "new": "大斗师"}
    book.commit({"chapter": 9, "state_changes": [mismatch]})
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    [conflict] = book.conflicts()
    assert conflict.message == (
        "萧炎: chapter 9 takes realm to have been '斗师', but memory has it as '斗者' since "
        "chapter 1; changed to '大斗师' as this chapter says"
    )
    book.storage.conn.execute("UPDATE conflicts SET args_json = NULL")  # as an older book holds it
    [older] = book.conflicts()
    assert older.message.startswith("萧炎：第9章以为境界原为「斗师」")
    assert older.id == conflict.id


def test_same_chapter_introduction_and_move_is_no_conflict(book: webnovel.Project) -> None:
    report = book.commit(
        {
            **INTRO,
            "state_changes": [
                {"entity_id": "萧炎", "field": "location", "old": "乌坦城", "new": "魔兽山脉"}
            ],
        }
    )
    assert report.conflicts == ()
    assert book.fact("萧炎", "location", as_of=1).value == "魔兽山脉"


def test_dead_character_acting_later_and_the_revision_that_clears_it(
    book: webnovel.Project,
) -> None:
    book.commit(INTRO)
    book.commit(
        {"chapter": 4, "state_changes": [{"entity_id": "纳兰", "field": "status", "new": "陨落"}]}
    )
    report = book.commit({"chapter": 6, "entities_appeared": [{"id": "纳兰嫣然"}]})
    assert [(c.kind, c.entity_id, c.chapter) for c in report.conflicts] == [
        ("dead_entity_active", "nalan", 6)
    ]
    book.commit({"chapter": 4, "summary": "纳兰重伤未死"})
    assert book.conflicts() == []


def test_emptied_set_answers_an_empty_list(book: webnovel.Project) -> None:
    book.commit(
        {
            **INTRO,
            "state_changes": [
                {"entity_id": "萧炎", "field": "items", "op": "add", "new": "玄重尺"}
            ],
        }
    )
    book.commit(
        {
            "chapter": 2,
            "state_changes": [
                {"entity_id": "萧炎", "field": "items", "op": "remove", "new": "玄重尺"}
            ],
        }
    )
    item = book.fact("萧炎", "items")
    assert item is not None and item.value == []


def test_uncertain_mention_is_tentative(book: webnovel.Project) -> None:
    book.commit(INTRO)
    report = book.commit(
        {
            "chapter": 2,
            "state_changes": [{"entity_id": "那位少女", "field": "realm", "new": "斗王"}],
            "uncertain": [
                {
                    "mention": "那位少女",
                    "candidates": ["nalan"],
                    "adopted": "nalan",
                    "confidence": 0.4,
                }
            ],
        }
    )
    assert report.counts.tentative == 1
    assert book.fact("纳兰", "realm").value == "斗师"
    assert [(i.value, i.status) for i in book.history("纳兰", "realm")] == [
        ("斗师", "active"),
        ("斗王", "tentative"),
    ]


def test_config_groups_and_dead_values(tmp_path: Path) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    (root / ".webnovel" / "config.toml").write_text(
        '[relations]\nexclusive_groups = [["师徒", "叛徒"]]\n[status]\ndead = ["坐化"]\n',
        encoding="utf-8",
    )
    with webnovel.open_project(root) as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [{"id": "a", "name": "甲"}, {"id": "b", "name": "乙"}],
                "relationships_new": [
                    {"from": "a", "to": "b", "type": "师徒"},
                    {"from": "a", "to": "b", "type": "朋友"},
                ],
            }
        )
        book.commit(
            {
                "chapter": 2,
                "relationships_new": [{"from": "a", "to": "b", "type": "叛徒"}],
                "state_changes": [{"entity_id": "b", "field": "status", "new": "坐化"}],
            }
        )
        book.commit({"chapter": 3, "entities_appeared": [{"id": "乙"}]})
        assert sorted(r.type for r in book.relations("a")) == ["叛徒", "朋友"]
        assert [c.kind for c in book.conflicts()] == ["dead_entity_active"]


def revised(result: dict[str, Any]) -> dict[str, Any]:
    """An early chapter as the author rewrote it: other values, one relation fewer, a new
    thread."""
    changed = copy.deepcopy(result)
    for change in changed["state_changes"]:
        if change["field"] == "location":
            change["new"] = "改写之地"
    changed["relationships_new"] = changed["relationships_new"][1:]
    changed["plot_threads"].append({"id": "rewrite", "content": "改写后的新伏笔"})
    return changed


@pytest.fixture(scope="module")
def saga60() -> Saga:
    return generate_saga(60, seed=5)


def test_revising_chapter_24_after_60_equals_a_replay(tmp_path: Path, saga60: Saga) -> None:
    """Chapter 24 (it introduces someone) revised when 60 are in: the book answers as one
    given the revision in chapter order (a 120-chapter saga, revised at 50, proved no more at
    twice the commits)."""
    new24 = revised(saga60.results[23])
    with webnovel.init_project(tmp_path / "first23", title="a") as first:
        for result in saga60.results[:23]:  # the same in both books: committed once
            first.commit(result)
    shutil.copytree(tmp_path / "first23", tmp_path / "a")
    shutil.copytree(tmp_path / "first23", tmp_path / "b")
    with webnovel.open_project(tmp_path / "a") as late:
        for result in saga60.results[23:]:
            late.commit(result)
        late.commit(new24)
        with webnovel.open_project(tmp_path / "b") as ordered:
            for result in [new24] + saga60.results[24:]:
                ordered.commit(result)
            entities = [f"e{i}" for i in range(0, 33, 2)]
            chapters = [1, 23, 24, 25, 40, 60]
            answers = book_answers(late, entities, ["location", "realm", "items"], chapters)
            assert answers == book_answers(
                ordered, entities, ["location", "realm", "items"], chapters
            )
        # later chapters' own changes survive: chapter 25..60 values still answer from them
        truth = saga60.truth
        for entity in entities:
            history = truth.facts.get((entity, "location"), [])
            later = [(c, v) for c, v in history if c > 24]
            if later:
                assert late.fact(entity, "location", as_of=later[-1][0]).value == later[-1][1]


def test_a_second_process_sees_names_committed_by_the_first(book: webnovel.Project) -> None:
    book.commit(INTRO)
    assert [m.entity_id for m in book.aliases().find("药老来了")] == []
    with webnovel.open_project(book.root) as other:  # e.g. a CLI commit beside an MCP server
        other.commit({"chapter": 2, "entities_new": [{"id": "yaolao", "name": "药老"}]})
    assert [m.entity_id for m in book.aliases().find("药老来了")] == ["yaolao"]
    pack = book.build_memory_pack("chapter_write", 3, outline="药老指点萧炎")
    assert {e["id"] for e in pack.entities_in_play} >= {"yaolao", "xiaoyan"}
