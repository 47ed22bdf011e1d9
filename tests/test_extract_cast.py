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


def test_the_cast_the_author_accepted_is_in_the_chapters_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Accepted before any extraction, 岳飞 stands in chapter 1's imported result: the request
    for chapter 1 shows him with his id, and the extracted chapter keeps him (one entity)."""
    texts = two_chapters(tmp_path)
    with imported_book(tmp_path / "book", chapters=texts) as book:
        book.accept_candidate("岳飞", entity_id="yuefei")
        with chat_server(
            lambda n, body: reply(CHAPTER_1 if asked_for(body) == 1 else HONEST_2)
        ) as server:
            monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
            monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", KEY)
            monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")
            book.extract(concurrency=1)
        first = server.seen[0].body["messages"][1]["content"]
        assert "本章作者已确认的实体" in first and "- yuefei：岳飞（角色）" in first
        assert first.index("- yuefei：岳飞") < first.index("【正文开始】")
        assert sorted(e.id for e in book.entities()) == ["qinhui", "yuefei"]


# -- identity reconciled on the way in ---------------------------------------------------------------

CHAPTER_1_THREAD = {
    **CHAPTER_1,
    "plot_threads": [
        {"id": "jingzhong", "action": "plant", "kind": "foreshadowing", "content": "精忠报国四字"}
    ],
}


def two_answers(second: list[dict[str, Any]]) -> Any:
    """Chapter 1's answer, then chapter 2's answers in turn (the last one repeated)."""

    def script(number: int, body: dict[str, Any]) -> Reply:
        if asked_for(body) == 1:
            return reply(CHAPTER_1_THREAD)
        turn = (len(body["messages"]) - 2) // 2
        return reply(second[min(turn, len(second) - 1)])

    return script


def test_a_known_entity_registered_again_is_that_entity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By its id (with a new alias) or by its name (under a new id): an appearance, the new
    name an alias, a field memory lacks a state change; no conflict, one entity each."""
    again = {
        "chapter": 2,
        "summary": "岳飞习武，秦桧得势。",
        "entities_new": [
            {"id": "yuefei", "name": "岳飞", "aliases": ["鹏举"], "current": {"location": "相州"}},
            {"id": "qin-hui", "name": "秦桧", "type": "角色"},
        ],
        "state_changes": [{"entity_id": "qin-hui", "field": "identity", "new": "宰相"}],
    }
    book, (report, server) = extract(tmp_path, monkeypatch, two_answers([again]))
    with book:
        assert len(server.seen) == 2  # nothing to ask again
        assert sorted((e.id, e.name) for e in book.entities()) == [
            ("qinhui", "秦桧"),
            ("yuefei", "岳飞"),
        ]
        assert book.conflicts() == []
        assert "鹏举" in book.entity("yuefei").aliases
        assert book.fact("yuefei", "location").value == "相州"
        assert book.fact("qinhui", "identity").value == "宰相"
        assert any("已知的秦桧（qinhui）另记为 qin-hui" in w for w in report.extracted[1].warnings)
        assert any("新的名字「鹏举」记为别名" in w for w in report.extracted[1].warnings)
        assert not any("qin-hui" in w and "别名" in w for w in report.extracted[1].warnings)


def test_an_unknown_entity_goes_back_to_the_model_with_the_known_candidates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unknown = {**HONEST_2, "entities_appeared": [{"id": "yue_fei"}]}
    book, (report, server) = extract(tmp_path, monkeypatch, two_answers([unknown, HONEST_2]))
    with book:
        repair = server.seen[-1].body["messages"][-1]["content"]
        assert "$.entities_appeared[0].id：「yue_fei」不是已知实体" in repair
        assert "yuefei（岳飞）" in repair
        assert report.extracted[1].repairs == 1
        assert book.conflicts() == []
        assert sorted(e.id for e in book.entities()) == ["qinhui", "yuefei"]


def test_a_thread_never_planted_goes_back_to_the_model_with_the_open_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = {**HONEST_2, "plot_threads": [{"id": "jing-zhong", "action": "advance"}]}
    right = {**HONEST_2, "plot_threads": [{"id": "jingzhong", "action": "advance"}]}
    book, (report, server) = extract(tmp_path, monkeypatch, two_answers([wrong, right]))
    with book:
        repair = server.seen[-1].body["messages"][-1]["content"]
        assert "$.plot_threads[0].id：线索「jing-zhong」从未埋下" in repair
        assert "jingzhong（精忠报国四字）" in repair
        assert book.conflicts() == []


def test_what_the_model_never_places_is_committed_as_the_authors_conflict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unknown = {**HONEST_2, "entities_appeared": [{"id": "yue_fei"}]}
    book, (report, server) = extract(tmp_path, monkeypatch, two_answers([unknown]))
    with book:
        assert report.extracted[1].repairs == 2
        assert [c.kind for c in book.conflicts()] == ["unknown_entity"]
