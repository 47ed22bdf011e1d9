"""A known name introduced again under a new id (an agent that forgot 林砚 is `linyan`) is a
blocking conflict, `name_reintroduced`: review and `commit --check` refuse it, a plain commit
records it, and the ambiguity it leaves says how to repair it. What stays advice (`name_taken`)
is a name shared with another's alias, or with an entity of another type."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import AmbiguousEntity, ReviewBlocked
from webnovel.ingest.sample_book import sample_chapters

from cli_runner import run_cli
from stores import init_book

DUPLICATE = {
    "chapter": 13,
    "title": "断刀",
    "summary": "林砚与苏晚晴夜探分舵。",
    "entities_new": [
        {
            "id": "lin_yan",
            "name": "林砚",
            "type": "角色",
            "current": {"realm": "金丹", "location": "赤炎城"},
        }
    ],
    "entities_appeared": [{"id": "lin_yan"}, {"id": "suwanqing"}],
}


@pytest.fixture
def sample(tmp_path: Path) -> Iterator[webnovel.Project]:
    book = webnovel.init_project(tmp_path / "b", title="t", genre="仙侠")
    for chapter in sample_chapters():
        book.commit(chapter.result, text=chapter.text)
    yield book
    book.close()


def test_review_and_a_checked_commit_refuse_a_known_name_under_a_new_id(
    sample: webnovel.Project,
) -> None:
    review = sample.review(DUPLICATE)
    [issue] = [i for i in review.issues if i.category == "name_reintroduced"]
    assert issue.blocking and issue.severity == "high"
    assert (issue.entity_id, issue.expected, issue.found) == ("lin_yan", "linyan", "林砚")
    assert "林砚（id「linyan」）" in issue.message  # the known one, by name and id
    assert "entities_appeared / state_changes 中用 id「linyan」" in issue.message
    assert "entities_appeared" in issue.fix_hint and "aliases" in issue.fix_hint
    assert "name_taken" not in {i.category for i in review.issues}  # said once
    with pytest.raises(ReviewBlocked) as refused:
        sample.commit(DUPLICATE, check=True)
    assert "linyan" in str(refused.value)
    assert sample.latest_chapter() == 12  # nothing written
    assert sample.entity("林砚").id == "linyan"


def test_a_plain_commit_records_it_and_the_ambiguity_names_its_repair(
    sample: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = sample.commit(DUPLICATE)
    [conflict] = report.conflicts
    assert (conflict.kind, conflict.entity_id, conflict.target) == (
        "name_reintroduced",
        "lin_yan",
        "linyan",
    )
    assert not any("用了名字" in w for w in report.warnings)  # not advice as well
    assert [c.kind for c in sample.conflicts()] == ["name_reintroduced"]
    with pytest.raises(AmbiguousEntity) as ambiguous:
        sample.fact("林砚", "境界")
    said = str(ambiguous.value)
    assert said.startswith("「林砚」指代不明：可能是 lin_yan、linyan；请改用 id")
    assert "webnovel candidates merge lin_yan --into linyan" in said
    assert ambiguous.value.details == {
        "reference": "林砚",
        "candidates": ["lin_yan", "linyan"],
        "next_step": {
            "action": "merge_or_rename",
            "arguments": {"newer": "lin_yan", "older": "linyan"},
        },
    }
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with pytest.raises(AmbiguousEntity) as in_english:
        sample.fact("林砚", "境界")
    assert "it names lin_yan, linyan; use an id. If they are one person" in str(in_english.value)
    monkeypatch.delenv("WEBNOVEL_LANG")
    # the repair it names works, and takes the conflict with it
    sample.merge_candidate("lin_yan", into="linyan")
    assert sample.entity("林砚").id == "linyan"
    assert sample.conflicts() == []


def test_the_repair_is_said_at_the_terminal_as_a_command_that_runs(
    sample: webnovel.Project, tmp_path: Path
) -> None:
    sample.commit(DUPLICATE)
    root = str(sample.root)
    asked = run_cli("--project", root, "fact", "林砚", "境界", "--format", "text")
    assert asked.returncode == 1
    command = "webnovel candidates merge lin_yan --into linyan"
    assert command in asked.stderr
    merged = run_cli("--project", root, *command.split()[1:], "--yes", "--format", "text")
    assert merged.returncode == 0, merged.stderr
    again = run_cli("--project", root, "fact", "林砚", "境界", "--format", "json")
    assert again.returncode == 0 and json.loads(again.stdout)["entity_id"] == "linyan"


def test_a_rebuild_and_a_commit_out_of_order_agree(backend: str, tmp_path: Path) -> None:
    """Whether a name was taken depends on both entities: a holder committed after the
    newcomer (an earlier chapter, written later) makes the newcomer's conflict, as a rebuild
    finds it; taking the holder away again clears it."""
    with init_book(backend, tmp_path / "b") as book:
        book.commit({"chapter": 1, "summary": "开篇"})
        book.commit({"chapter": 5, "entities_new": [{"id": "lin_yan", "name": "林砚"}]})
        assert book.conflicts() == []
        book.commit({"chapter": 2, "entities_new": [{"id": "linyan", "name": "林砚"}]})
        found = [(c.kind, c.entity_id, c.chapter) for c in book.conflicts()]
        assert found == [("name_reintroduced", "lin_yan", 5)]
        book.rebuild()
        assert [(c.kind, c.entity_id, c.chapter) for c in book.conflicts()] == found
        book.retract(2)
        assert book.conflicts() == []


def test_what_stays_advice(backend: str, tmp_path: Path) -> None:
    """A place named like a person, two namesakes brought in by one chapter, a reveal: none of
    them is `name_reintroduced`, nor blocking; beside them, the one known name under a new id
    and a name another holds as an alias (`alias_taken`) are the blocking issues."""
    with init_book(backend, tmp_path / "b") as book:
        first = book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "yunyao", "name": "云瑶", "aliases": ["瑶儿"]},
                    {"id": "wangwu", "name": "王五"},
                    {"id": "wangwu2", "name": "王五"},
                ],
            }
        )
        assert first.conflicts == ()
        draft = {
            "chapter": 2,
            "entities_new": [
                {"id": "yunyao_peak", "name": "云瑶", "type": "地点"},
                {"id": "yao", "name": "瑶儿"},
                {"id": "yunyao", "name": "云瑶仙子", "revealed": True},
                {"id": "wang_wu", "name": "王五"},
            ],
        }
        review = book.review(draft)
        kinds = {(i.category, i.entity_id) for i in review.issues}
        assert ("name_taken", "yunyao_peak") in kinds
        taken = next(i for i in review.issues if i.category == "name_taken")
        assert "entities_appeared" in taken.fix_hint  # the obvious fix first, not `uncertain`
        blocking = [(i.category, i.entity_id, i.expected) for i in review.issues if i.blocking]
        # the one known name under a new id (the first holder named), and a newcomer given a
        # known one's alias: from then on 瑶儿 would silently mean the newcomer
        assert sorted(blocking) == [
            ("alias_taken", "yao", "yunyao"),
            ("name_reintroduced", "wang_wu", "wangwu"),
        ]
        report = book.commit(draft)
        assert [(c.kind, c.entity_id) for c in report.conflicts] == [
            ("name_reintroduced", "wang_wu")
        ]


def test_an_agent_over_mcp_is_refused_and_then_told_the_repair(sample: webnovel.Project) -> None:
    """`commit_chapter` checks by default: the agent gets the refusal naming the known id and
    nothing is written; forced, the conflict is recorded and `get_fact` by the name says how
    to tell the two apart with a tool (the repair, in tool words: tests/test_next_step.py)."""
    pytest.importorskip("mcp")
    from mcp import Client

    from webnovel.mcp import create_server

    async def session() -> list[Any]:
        async with Client(create_server(sample).lowlevel()) as client:
            refused = await client.call_tool("commit_chapter", {"result": DUPLICATE})
            kept = await client.call_tool("get_fact", {"subject": "林砚", "field": "境界"})
            forced = {"result": DUPLICATE, "force": True}
            written = await client.call_tool("commit_chapter", forced)
            split = await client.call_tool("get_fact", {"subject": "林砚", "field": "境界"})
            return [refused, kept, written, split]

    refused, kept, written, split = asyncio.run(session())
    assert refused.is_error and "id「linyan」" in refused.content[0].text
    assert not kept.is_error and json.loads(kept.content[0].text)["entity_id"] == "linyan"
    assert not written.is_error
    [conflict] = json.loads(written.content[0].text)["conflicts"]
    assert conflict["kind"] == "name_reintroduced"
    error = json.loads(split.content[0].text)
    assert split.is_error and error["code"] == "ambiguous_entity"
    assert "调用 get_history，subject 分别填 lin_yan 和 linyan" in error["message"]
    assert error["details"]["next_step"]["action"] == "merge_or_rename"


def test_fact_without_a_field_is_every_field_someone_has(sample: webnovel.Project) -> None:
    """`fact 林砚` is the author's first question: it answers who 林砚 is now (or as of a
    chapter), one field a line, instead of 「不是物品」; an item still answers who holds it."""
    root = str(sample.root)
    now = run_cli("--project", root, "fact", "林砚", "--format", "text")
    assert now.returncode == 0, now.stderr
    lines = now.stdout.splitlines()
    assert lines[0] == "林砚："
    assert "  境界：金丹（第11章起）" in lines
    assert lines[-1] == "  查一项：webnovel fact 林砚 字段；看来历：webnovel history 林砚"
    early = run_cli("--project", root, "fact", "林砚", "--as-of", "3", "--format", "json")
    answer = json.loads(early.stdout)
    assert (answer["entity_id"], answer["field"], answer["value"]) == ("linyan", None, None)
    assert answer["found"] is True
    realm = next(f for f in answer["facts"] if f["field"] == "realm")
    assert (realm["value"], realm["field_label"], realm["valid_from"]) == ("炼气", "境界", 1)
    single = run_cli("--project", root, "fact", "林砚", "境界", "--as-of", "3", "--format", "json")
    assert json.loads(single.stdout) == realm  # each as `fact` gives it
    shown = run_cli("--project", root, "fact", "林砚", "--as-of", "3", "--format", "text")
    assert shown.stdout.startswith("林砚（第3章时）：\n")
    held = run_cli("--project", root, "fact", "青灯", "--format", "json")
    assert json.loads(held.stdout)["field"] == "holder"  # an item: who holds it, as before


def test_a_known_name_of_no_recorded_type_is_the_same_kind(tmp_path: Path) -> None:
    """An old book's entity whose row has no type collides with a newcomer of any type: the
    name is ambiguous all the same. Of a recorded other type (a place), it is only advice."""
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "wangwu", "name": "王五"}]})
    with sqlite3.connect(tmp_path / "b" / ".webnovel" / "index.db") as db:  # as an old book has it
        db.execute("UPDATE entities SET type = NULL WHERE id = 'wangwu'")
    db.close()
    with webnovel.open_project(tmp_path / "b") as book:
        draft = {
            "chapter": 2,
            "entities_new": [{"id": "wang_wu", "name": "王五", "type": "角色"}],
        }
        blocking = [(i.category, i.entity_id) for i in book.review(draft).issues if i.blocking]
        assert blocking == [("name_reintroduced", "wang_wu")]
        placed = {
            "chapter": 2,
            "entities_new": [{"id": "wangwu_inn", "name": "王五", "type": "地点"}],
        }
        book.commit(
            {"chapter": 1, "entities_new": [{"id": "wangwu", "name": "王五", "type": "角色"}]}
        )
        kinds = [(i.category, i.blocking) for i in book.review(placed).issues]
        assert ("name_taken", False) in kinds and not any(blocking for _, blocking in kinds)
