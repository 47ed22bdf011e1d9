"""The author's answers to the candidate queue: merging two entities really merges them,
history and all; every accept, merge and rejection can be undone; a wrong merge rejected leaves
no alias behind; accepting a name that looks like a known entity's asks first. On both stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidInput

from cli_runner import run_cli
from stores import init_book

CHAPTERS = [
    (
        {
            "chapter": 1,
            "entities_new": [
                {"id": "yuefei", "name": "岳飞", "type": "角色"},
                {"id": "wuzhu", "name": "兀术", "type": "角色"},
                {"id": "qinhui", "name": "秦桧", "type": "角色"},
            ],
        },
        "岳飞枪挑小梁王。兀术南下。秦桧在金营。",
    ),
    (
        {
            "chapter": 2,
            "entities_new": [{"id": "jinwushu", "name": "金兀术", "type": "角色"}],
            "state_changes": [{"entity_id": "jinwushu", "field": "location", "new": "黄天荡"}],
        },
        "金兀术被困黄天荡。岳爷大喜。",
    ),
    (
        {
            "chapter": 3,
            "entities_appeared": [{"id": "jinwushu"}],
            "relationships_new": [{"from": "jinwushu", "to": "yuefei", "type": "敌对"}],
        },
        "金兀术恨岳飞入骨。岳爷追击。",
    ),
]


@pytest.fixture
def book(tmp_path: Path, backend: str) -> Iterator[webnovel.Project]:
    project = init_book(backend, tmp_path / "b", title="说岳")
    for result, text in CHAPTERS:
        project.commit(result, text=text)
    yield project
    project.close()


def test_merging_two_entities_makes_one_history_and_all(book: webnovel.Project) -> None:
    done = book.merge_candidate("金兀术", "兀术")
    assert (done.action, done.entity_id, done.chapters) == ("merged", "wuzhu", (2, 3))
    assert sorted(e.id for e in book.entities()) == ["qinhui", "wuzhu", "yuefei"]
    assert "金兀术" in book.entity("wuzhu").aliases and book.entity("金兀术").id == "wuzhu"
    assert book.fact("wuzhu", "location").value == "黄天荡"
    edges = book.relation_graph()
    assert [(e.source, e.target) for e in edges] == [("wuzhu", "yuefei")]
    assert book.conflicts() == []


def test_a_merge_of_two_entities_is_undone(book: webnovel.Project) -> None:
    book.merge_candidate("金兀术", "兀术")
    undone = book.undo_candidate("金兀术")
    assert (undone.action, undone.chapters) == ("undone", (2, 3))
    assert sorted(e.id for e in book.entities()) == ["jinwushu", "qinhui", "wuzhu", "yuefei"]
    assert book.fact("jinwushu", "location").value == "黄天荡"
    with pytest.raises(InvalidInput, match="没有可撤销"):
        book.undo_candidate("金兀术")


def test_rejecting_a_wrong_merge_takes_its_alias_back(book: webnovel.Project) -> None:
    book.merge_candidate("岳爷", "秦桧")  # wrong: 岳爷 is 岳飞
    assert "岳爷" in book.entity("qinhui").aliases
    book.reject_candidate("岳爷")
    assert "岳爷" not in book.entity("qinhui").aliases
    assert book.entity("qinhui").aliases == ()
    book.merge_candidate("岳爷", "岳飞")
    assert "岳爷" in book.entity("yuefei").aliases


def test_an_undo_refuses_when_a_chapter_changed_since(book: webnovel.Project) -> None:
    book.merge_candidate("岳爷", "岳飞")
    stored = book.stored_commit(3)
    book.commit({**stored["result"], "summary": "改过了"}, text=stored["text"])
    with pytest.raises(InvalidInput, match="第3章的结果在此之后又被改动过"):
        book.undo_candidate("岳爷")
    assert "岳爷" in book.entity("yuefei").aliases  # nothing undone


def test_a_rejection_is_undone(book: webnovel.Project) -> None:
    assert book.reject_candidate("黄天荡").rejected == ("黄天荡",)
    assert book.undo_candidate("黄天荡").action == "undone"
    assert book.reject_candidate("小梁王").rejected == ("小梁王",)  # 黄天荡 is offered again


def test_accepting_a_lookalike_name_asks_first(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="说岳") as book:
        book.commit(CHAPTERS[0][0], text=CHAPTERS[0][1])
        book.commit({"chapter": 2}, text="金兀术被困黄天荡。")
        with pytest.raises(InvalidInput, match="多半是同一人.*merge 金兀术 --into 兀术"):
            book.accept_candidate("金兀术")
        with pytest.raises(InvalidInput, match="类型应为"):  # the argument's own check first
            book.accept_candidate("金兀术", entity_type="神仙")
        assert "jinwushu" not in {e.id for e in book.entities()}
        root = str(book.root)
    asked = run_cli("--project", root, "candidates", "accept", "金兀术", "--format", "text")
    assert asked.returncode != 0 and "--yes" in asked.stderr
    ran = run_cli("--project", root, "candidates", "accept", "金兀术", "--yes", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    undone = run_cli("--project", root, "candidates", "undo", "金兀术", "--format", "text")
    assert undone.returncode == 0 and "第2章恢复原样" in undone.stdout
