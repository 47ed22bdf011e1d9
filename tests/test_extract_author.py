"""The author's decisions are their own layer: the cast accepted and the names merged or
rejected as candidates survive extraction, even a forced re-extraction of chapters a model
already read, and win over what the model wrote. Against a real chat-completions server on
127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from test_extract import imported_book, use

from chat_server import Reply, chat_server

ANSWERS = {
    1: {
        "chapter": 1,
        "summary": "岳飞出世。",
        "entities_new": [
            {"id": "yuefei", "name": "岳飞", "type": "角色", "aliases": ["鹏举"]},
            {"id": "qinhui", "name": "秦桧", "type": "角色"},
        ],
    },
    2: {
        "chapter": 2,
        "summary": "岳飞拜师。",
        "entities_appeared": [{"id": "yuefei"}],
        "state_changes": [{"entity_id": "yuefei", "field": "identity", "new": "周侗弟子"}],
    },
}


def texts(root: Path) -> Path:
    folder = root / "texts"
    folder.mkdir(parents=True)
    (folder / "001.md").write_text("# 第一回\n\n岳飞生于相州。秦桧在金营。相州大水。\n")
    (folder / "002.md").write_text("# 第二回\n\n岳爷拜周侗为师。岳飞习武，岳爷好学。\n")
    return folder


def test_accepted_merged_and_rejected_names_survive_extraction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with imported_book(tmp_path / "book", chapters=texts(tmp_path)) as book:
        book.accept_candidate("岳飞")  # the author's id: 岳飞
        book.merge_candidate("岳爷", "岳飞")
        book.reject_candidate("相州")
        with chat_server(answers=ANSWERS) as server:
            use(monkeypatch, server)
            book.extract(concurrency=1)
            first = server.seen[0].body["messages"][1]["content"]
            assert "- 岳飞：岳飞（角色）" in first  # shown to the model, with the author's id

            def one_person() -> None:
                people = {e.id: e for e in book.entities()}
                assert sorted(people) == ["qinhui", "岳飞"]  # the model's yuefei is the author's
                assert {"岳爷", "鹏举"} <= set(people["岳飞"].aliases)
                assert book.fact("岳飞", "identity").value == "周侗弟子"
                queued = {c.name for c in book.candidates(min_count=1, limit=50)}
                assert not {"岳爷", "相州", "岳飞"} & queued
                assert book.conflicts() == []

            one_person()
            book.extract(force=True)  # chapters a model already read, read again
            one_person()


def test_a_rejected_name_is_shown_and_asked_about_and_a_lookalike_is_advice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """相州 was rejected: the request says so, and an answer registering it goes back to the
    model. 岳飞虎, beside the known 岳飞, is a newcomer the author is advised on."""
    registering = {
        **ANSWERS[1],
        "entities_new": [*ANSWERS[1]["entities_new"], {"id": "xz", "name": "相州", "type": "地点"}],
    }
    lookalike = {
        **ANSWERS[2],
        "entities_new": [{"id": "yuefeihu", "name": "岳飞虎", "type": "角色"}],
    }

    def script(number: int, body: dict[str, Any]) -> Reply:
        chapter_1 = "请输出第1章" in body["messages"][1]["content"]
        repaired = len(body["messages"]) > 2
        if chapter_1:
            return Reply(json.dumps(ANSWERS[1] if repaired else registering, ensure_ascii=False))
        return Reply(json.dumps(lookalike, ensure_ascii=False))

    with imported_book(tmp_path / "book", chapters=texts(tmp_path)) as book:
        book.accept_candidate("岳飞", entity_id="yuefei")
        book.merge_candidate("岳爷", "岳飞")
        book.reject_candidate("相州")
        with chat_server(script) as server:
            use(monkeypatch, server)
            report = book.extract(concurrency=1)
        first = server.seen[0].body["messages"][1]["content"]
        assert "作者已否决的名字（不是实体，不要登记）：相州" in first
        repair = server.seen[1].body["messages"][-1]["content"]
        assert "$.entities_new[2].name：「相州」是作者已否决的名字" in repair
        assert "相州" not in {e.name for e in book.entities()}
        advice = report.extracted[1].warnings
        assert any("「岳飞虎」与已知实体 岳飞 的名字相似" in w for w in advice), advice


def test_a_rename_is_shown_to_the_model_and_survives_extraction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The author renamed 岳飞 岳鹏举 from chapter 1: the request shows him by his new name, and
    neither extraction nor a forced re-extraction gives him the old one back."""
    with imported_book(tmp_path / "book", chapters=texts(tmp_path)) as book:
        book.accept_candidate("岳飞", entity_id="yuefei")
        book.rename_entity("岳飞", "岳鹏举")
        with chat_server(answers=ANSWERS) as server:
            use(monkeypatch, server)
            book.extract(concurrency=1)
            first = server.seen[0].body["messages"][1]["content"]
            assert "- yuefei：岳鹏举（角色；别名 岳飞）" in first

            def renamed() -> None:
                people = {e.id: e for e in book.entities()}
                assert sorted(people) == ["qinhui", "yuefei"]
                assert people["yuefei"].name == "岳鹏举"
                assert {"岳飞", "鹏举"} <= set(people["yuefei"].aliases)
                assert book.fact("岳飞", "identity").value == "周侗弟子"
                assert book.conflicts() == []

            renamed()
            book.extract(force=True)
            renamed()
