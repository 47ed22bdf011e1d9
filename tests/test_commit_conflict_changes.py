"""A commit or a retraction says the conflicts it changed, not every open one of later chapters
again: committing an unrelated change to chapter 10 of the trial's book printed the same 1,913
conflicts of one death, and a new conflict was invisible among them. The JSON keeps
`conflicts` (contract) and adds `conflicts_added`, `conflicts_removed` and `open_conflicts`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.cli.main import main

CHAPTERS = 30  # the master dies in 3 and is present in every later chapter: 27 conflicts


def result(n: int, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"chapter": n, "entities_appeared": [{"id": "bm"}, {"id": "lu"}]}
    if n == 1:
        out["entities_new"] = [
            {"id": "lu", "name": "陆青云", "type": "角色"},
            {"id": "bm", "name": "白眉真人", "type": "角色"},
        ]
    if n == 3:
        out["state_changes"] = [{"entity_id": "bm", "field": "status", "new": "死亡"}]
    return {**out, **more}


@pytest.fixture
def book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="青冥剑歌") as opened:
        for n in range(1, CHAPTERS):  # the last chapter is left for the tests
            opened.commit(result(n))
        assert len(opened.conflicts()) == CHAPTERS - 4
    return root


def run(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str, data: Any = None
) -> str:
    if data is not None:
        (tmp_path / "r.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        args = ("commit", str(tmp_path / "r.json"), *args)
    assert main(["--project", str(book), *args]) == 0
    return capsys.readouterr().out


def test_an_unrelated_commit_prints_no_old_conflict(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Chapter 2 again, a realm for 陆青云: the master's 26 conflicts are later than it and
    were all printed; now one line counts them."""
    again = result(2, state_changes=[{"entity_id": "lu", "field": "realm", "new": "筑基"}])
    said = run(book, tmp_path, capsys, "--format", "text", data=again)
    assert "矛盾：" not in said
    assert "另有 26 处未解决的矛盾，本次未改动（webnovel conflicts 列出）" in said
    again["summary"] = "再提交一次"
    answer = json.loads(run(book, tmp_path, capsys, "--format", "json", data=again))
    assert len(answer["conflicts"]) == 26  # the contract's key, as it was
    assert answer["conflicts_added"] == answer["conflicts_removed"] == []
    assert answer["open_conflicts"] == 26


def test_a_new_conflict_is_the_one_printed(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = run(book, tmp_path, capsys, "--format", "text", data=result(CHAPTERS))
    lines = [line for line in said.splitlines() if "矛盾：" in line]
    assert len(lines) == 1 and f"第{CHAPTERS}章" in lines[0], said
    assert "另有 26 处未解决的矛盾" in said
    answer = json.loads(run(book, tmp_path, capsys, "retract", str(CHAPTERS), "--yes",
                            "--format", "json"))  # fmt: skip
    assert [c["chapter"] for c in answer["conflicts_removed"]] == [CHAPTERS]
    assert answer["conflicts_added"] == [] and answer["open_conflicts"] == 26


def test_a_retraction_names_what_it_took_away_and_counts_the_rest(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Taking the death back takes its 26 conflicts away: 20 are named, the rest counted."""
    said = run(book, tmp_path, capsys, "retract", "3", "--yes", "--format", "text")
    gone = [line for line in said.splitlines() if "矛盾已消除：" in line]
    assert len(gone) == 20 and "第4章" in gone[0]
    assert "……另有 6 处未列出（--format json 列出全部）" in said
    assert "未解决的矛盾" not in said  # none is left open
    with webnovel.open_project(book) as opened:
        assert opened.conflicts() == []


def test_several_conflicts_settle_in_one_command_or_none_does(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`conflicts resolve ID ID …`: a death in a long book leaves one conflict a chapter, and
    one command a conflict was 1,913 commands. One unknown id settles none of them."""
    with webnovel.open_project(book) as opened:
        ids = [c.id for c in opened.conflicts()]
    refused = main(["--project", str(book), "conflicts", "resolve", ids[0], "c-nosuch"])
    assert refused != 0 and "c-nosuch" in capsys.readouterr().err
    with webnovel.open_project(book) as opened:
        assert len(opened.conflicts()) == len(ids)  # nothing settled
    said = run(book, tmp_path, capsys, "conflicts", "resolve", *ids[:5], "--intentional",
               "--note", "师父托梦", "--format", "text")  # fmt: skip
    assert said.count("师父托梦") == 5 and all(i in said for i in ids[:5])
    answer = json.loads(run(book, tmp_path, capsys, "conflicts", "resolve", *ids[5:],
                            "--format", "json"))  # fmt: skip
    assert [c["id"] for c in answer] == ids[5:] and {c["status"] for c in answer} == {"resolved"}
    with webnovel.open_project(book) as opened:
        assert opened.conflicts() == []
    one = json.loads(
        run(book, tmp_path, capsys, "conflicts", "resolve", ids[0], "--format", "json")
    )
    assert one["id"] == ids[0]  # one id: one object, as before
