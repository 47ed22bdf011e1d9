"""A model's answer cannot rewrite the cast: a known entity re-introduced under another's name
goes back to the model first, and, if it comes back unchanged, is committed as a blocking
conflict for the author, never as a silent rename. Against a real chat-completions server on
127.0.0.1 (tests/chat_server.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from test_extract import KEY, imported_book

from chat_server import Reply, chat_server

CHAPTER_1 = {
    "chapter": 1,
    "summary": "岳飞出世，秦桧登场。",
    "entities_new": [
        {"id": "yuefei", "name": "岳飞", "type": "角色", "is_protagonist": True},
        {"id": "qinhui", "name": "秦桧", "type": "角色"},
    ],
}
HONEST_2 = {"chapter": 2, "summary": "岳飞习武。", "entities_appeared": [{"id": "yuefei"}]}
RENAMING_2 = {
    "chapter": 2,
    "summary": "岳飞习武。",
    "entities_new": [{"id": "yuefei", "name": "秦桧", "type": "角色", "revealed": True}],
}


def two_chapters(root: Path) -> Path:
    texts = root / "texts"
    texts.mkdir(parents=True)
    (texts / "001.md").write_text("# 第一回 岳飞出世\n\n岳飞生于相州。秦桧在金营。\n")
    (texts / "002.md").write_text("# 第二回 习武\n\n岳飞拜周侗为师。\n")
    return texts


def asked_for(body: dict[str, Any]) -> int:
    return 1 if "请输出第1章" in body["messages"][1]["content"] else 2


def extract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: Any) -> tuple[Any, Any]:
    texts = two_chapters(tmp_path)
    book = imported_book(tmp_path / "book", chapters=texts)
    with chat_server(script) as server:
        monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", KEY)
        monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")
        report = book.extract(concurrency=1)
    return book, (report, server)


def reply(result: dict[str, Any]) -> Reply:
    return Reply(json.dumps(result, ensure_ascii=False))


def test_a_rename_goes_back_to_the_model_and_its_repair_is_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def script(number: int, body: dict[str, Any]) -> Reply:
        if asked_for(body) == 1:
            return reply(CHAPTER_1)
        repaired = body["messages"][-1]["role"] == "user" and len(body["messages"]) > 2
        return reply(HONEST_2 if repaired else RENAMING_2)

    book, (report, server) = extract(tmp_path, monkeypatch, script)
    with book:
        repair = server.seen[-1].body["messages"][-1]["content"]
        assert "$.entities_new[0].name" in repair and "qinhui（秦桧）" in repair
        assert report.extracted[1].repairs == 1 and report.extracted[1].conflicts == 0
        names = {e.id: e.name for e in book.entities()}
        assert names == {"yuefei": "岳飞", "qinhui": "秦桧"}
        assert book.conflicts() == []


def test_a_rename_the_model_insists_on_is_a_blocking_conflict_not_a_silent_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def script(number: int, body: dict[str, Any]) -> Reply:
        return reply(CHAPTER_1 if asked_for(body) == 1 else RENAMING_2)

    book, (report, server) = extract(tmp_path, monkeypatch, script)
    with book:
        assert report.extracted[1].repairs == 2  # asked twice more, the budget
        assert len([s for s in server.seen if asked_for(s.body) == 2]) == 3
        [conflict] = book.conflicts()
        assert conflict.kind == "reveal_takes_name" and conflict.target == "qinhui"
        assert "岳飞（yuefei）" in conflict.message
        assert report.extracted[1].conflicts == 1
        assert any("qinhui（秦桧）" in w for w in report.extracted[1].warnings)
