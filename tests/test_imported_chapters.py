"""What an imported chapter is called and how long it is: the import's table, the stored result
and `webnovel chapter` say one word count, and a title is the heading's words, not the heading
again after the chapter's number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.cli.main import main

# The shape of the trial's own novel (寒江): a title and a 简介 before chapter 1, 第N章 headings,
# paragraphs indented with full-width spaces and blank lines between them.
HANJIANG = """寒江
简介：少年林砚下山，寒江夜雪。

第1章 雪夜
　　雪下了一夜。林砚推开柴门，寒江上一片白。

　　他回头看了一眼师父的草庐。

第2章 下山
　　林砚背着剑下山，山路积雪没膝。

　　山脚的茶棚里，有人在等他。
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_the_import_table_and_the_chapter_say_one_word_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """字数 is the characters of the chapter's text, whitespace not counted (the indentation,
    the blank lines) and the heading not counted: the table said len(text) before."""
    root = tmp_path / "hanjiang"
    webnovel.init_project(root, title="寒江").close()
    novel = write(tmp_path / "寒江.txt", HANJIANG)
    assert main(["--project", str(root), "import", "text", str(novel), "--format", "json"]) == 0
    table = {c["chapter"]: c["chars"] for c in json.loads(capsys.readouterr().out)["chapters"]}
    second = "林砚背着剑下山，山路积雪没膝。山脚的茶棚里，有人在等他。"
    assert table[2] == len(second) == 28
    with webnovel.open_project(root) as book:
        assert book.chapter(2).word_count == 28
        assert [c["word_count"] for c in book.chapters()] == [table[1], table[2]]
    assert main(["--project", str(root), "chapter", "2", "--format", "text"]) == 0
    assert "（28字）" in capsys.readouterr().out
