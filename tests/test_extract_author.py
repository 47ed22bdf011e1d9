"""The author's decisions are their own layer: the cast accepted and the names merged or
rejected as candidates survive extraction, even a forced re-extraction of chapters a model
already read, and win over what the model wrote. Against a real chat-completions server on
127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_extract import imported_book, use

from chat_server import chat_server

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
