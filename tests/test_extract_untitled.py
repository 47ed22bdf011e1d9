"""An imported chapter whose heading is only its number (「第二章」) has no title: extracted, it
keeps that empty title (`imported_title: ""`), so asking again finds the request unchanged and
sends nothing. Against a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_extract import imported_book, use

from chat_server import chat_server


def test_an_untitled_imported_chapter_extracted_again_sends_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = tmp_path / "texts"
    texts.mkdir()
    (texts / "001.md").write_text("# 第一章 雪夜\n\n林砚推门而出，雪落满肩。\n", encoding="utf-8")
    (texts / "002.md").write_text("# 第二章\n\n林砚走到渡口，船家不见了。\n", encoding="utf-8")
    # the model names the untitled chapter: that title is its answer's, not the text's heading
    answers = {
        1: {"chapter": 1, "summary": "林砚出门。"},
        2: {"chapter": 2, "title": "渡口", "summary": "林砚到渡口。"},
    }
    with chat_server(answers=answers) as server:
        use(monkeypatch, server)
        with imported_book(tmp_path / "book", chapters=texts) as book:
            first = book.extract()
            assert first.total.requests == len(server.seen) == 2
            again = book.extract(force=True)
            assert len(server.seen) == 2, [s.chapter for s in server.seen[2:]]
            assert again.total.requests == 0 and again.total.unchanged == 2
            stored = book.stored_commit(2)
            assert stored is not None
            assert stored["result"]["chapter_meta"]["imported_title"] == ""
