"""A chapter committed with its text but no `word_count` (an agent that leaves it out) is counted
from its text the way `import text` counts a chapter, so 总字数 and `book.progress()` do not fall
short; a count the result gives stands; a rebuild keeps both."""

from __future__ import annotations

from pathlib import Path

import webnovel

TEXT = "夜里，林砚与苏晚晴\n在城头说了很久。\n\n  “明日出城。” Lin said."
COUNTED = 32  # every character but the spaces and line breaks


def test_a_commit_with_text_and_no_word_count_is_counted_from_its_text(tmp_path: Path) -> None:
    assert len("".join(TEXT.split())) == COUNTED
    with webnovel.init_project(tmp_path / "book", title="寒江") as book:
        book.commit({"chapter": 1, "title": "雪夜", "word_count": 1000}, text="雪落青石镇。")
        book.commit({"chapter": 2, "title": "夜话", "summary": "二人夜话。"}, text=TEXT)
        book.commit({"chapter": 3, "title": "无字", "summary": "一章没有正文。"})
        assert book.chapter(1).word_count == 1000  # given: it stands
        assert book.chapter(2).word_count == COUNTED
        assert book.chapter(3).word_count is None  # neither given nor any text to count
        assert book.progress()["words"] == 1000 + COUNTED
        assert [c["word_count"] for c in book.chapters()] == [1000, COUNTED, None]
        book.rebuild()
        assert book.progress()["words"] == 1000 + COUNTED
        assert book.chapter(2).word_count == COUNTED


def test_an_agent_chapter_and_an_imported_one_count_the_same_text_alike(tmp_path: Path) -> None:
    source = tmp_path / "novel.txt"
    source.write_text(f"第1章 夜话\n{TEXT}\n", encoding="utf-8")
    with webnovel.init_project(tmp_path / "book", title="寒江") as book:
        book.import_text(source)
        imported = book.chapter(1).word_count
        book.commit({"chapter": 2, "title": "夜话", "summary": "再说一遍。"}, text=TEXT)
        assert imported == book.chapter(2).word_count == COUNTED


def test_the_count_skips_exactly_the_whitespace_python_names() -> None:
    from webnovel.prose.measure import char_count

    spaces = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())  # up to 　 (U+3000)
    assert char_count(f"{spaces}林{spaces}砚。A1{spaces}") == 5
    assert char_count("") == 0
