"""The extraction request is lean: the schema once, the stable part first, and memory within a
budget, so that a request is its chapter plus at most 10,000 characters of which the stable
prefix (instructions and schema) is at least half, however large the book. Against a real
chat-completions server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_extract import imported_book, use

from chat_server import chat_server

CAST = 150
THREADS = 60


def crowded_book(root: Path) -> Path:
    """Chapter 1 names 150 people and chapter 2 names them all again."""
    names = [f"人物{chr(0x4E00 + i * 7)}{chr(0x4E00 + i * 11)}" for i in range(CAST)]
    texts = root / "texts"
    texts.mkdir(parents=True)
    body = "。".join(f"{name}来到城中" for name in names)
    (texts / "001.md").write_text(f"# 第一章 群英\n\n{body}。\n", encoding="utf-8")
    (texts / "002.md").write_text(f"# 第二章 再会\n\n{body}。\n", encoding="utf-8")
    return texts


def test_a_crowded_books_request_stays_within_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"人物{chr(0x4E00 + i * 7)}{chr(0x4E00 + i * 11)}" for i in range(CAST)]
    first = {
        "chapter": 1,
        "summary": "群英会聚。",
        "entities_new": [
            {
                "id": f"p{i}",
                "name": name,
                "type": "角色",
                "current": {"location": "城中", "identity": f"第{i}位来客"},
            }
            for i, name in enumerate(names)
        ],
        "plot_threads": [
            {
                "id": f"t{i}",
                "action": "plant",
                "kind": "open_loop",
                "content": f"第{i}条悬念：{names[i]}为何进城",
            }
            for i in range(THREADS)
        ],
    }
    answers = {1: first, 2: {"chapter": 2, "summary": "再会。"}}
    with chat_server(answers=answers) as server:
        use(monkeypatch, server)
        with imported_book(tmp_path / "book", chapters=crowded_book(tmp_path)) as book:
            book.extract(concurrency=1)
            text = book.stored_commit(2)["text"]
    body = next(s.body for s in server.seen if s.chapter == 2)
    system, user = (m["content"] for m in body["messages"])
    schema = json.dumps(
        body["response_format"]["json_schema"]["schema"], ensure_ascii=False, separators=(",", ":")
    )
    total = len(system) + len(user) + len(schema)
    beyond_chapter = total - len(text)
    stable = len(system) + len(schema)
    assert beyond_chapter <= 10_000, beyond_chapter
    assert stable >= beyond_chapter / 2
    assert "- p0：" in user  # the people the chapter names come first
    assert "- t0（" in user  # and the most pressing threads
