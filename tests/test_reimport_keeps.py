"""Importing a book's text again keeps the author's work: an empty file is refused, a chapter
whose result is not the import's own keeps it (marked stale when its text changed), a result
committed over an imported chapter keeps the cast that chapter introduced, a retracted chapter
committed again gets its text back, `sync` guards published chapters as `import text` does, and
`status` says how to let it watch a novel's file kept outside the book."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel

from cli_runner import run_cli


def novel(chapters: dict[int, str]) -> str:
    return "".join(f"第{n}章 章{n}\n　　{text}\n" for n, text in chapters.items())


SIX = {n: f"林砚在第{n}天练剑，苏晚晴在旁观看，剑光如雪。" for n in range(1, 7)}
CAST = "id,name,aliases,type\nlinyan,林砚,阿砚,角色\nsuwanqing,苏晚晴,,角色\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def cli(root: Path, *args: str) -> Any:
    return run_cli("--project", str(root), *args)


def answer(root: Path, *args: str) -> Any:
    ran = cli(root, *args, "--format", "json")
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """Six chapters imported from the book's own folder, with a cast of two."""
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    write(root / "寒江.txt", novel(SIX))
    write(root / "cast.csv", CAST)
    answer(root, "import", "text", str(root / "寒江.txt"), "--cast", str(root / "cast.csv"))
    return root


@pytest.mark.parametrize("content", ["", " \n\u3000\n\t"])
def test_an_empty_file_is_refused_naming_it_and_writing_nothing(
    book: Path, tmp_path: Path, content: str
) -> None:
    empty = write(tmp_path / "第7章.txt", content)
    for args in ((), ("--dry-run",)):
        ran = cli(book, "import", "text", str(empty), *args)
        assert ran.returncode == 2, ran.stderr
        assert "第7章.txt 是空的（没有正文），已拒绝，什么也没有写入" in ran.stderr
    folder = tmp_path / "chapters"
    folder.mkdir()
    write(folder / "第7章.txt", "第7章 下山\n　　林砚下山。\n")
    write(folder / "第8章.txt", content)
    ran = cli(book, "import", "text", str(folder))
    assert ran.returncode == 2 and "第8章.txt 是空的" in ran.stderr, ran.stderr
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() == 6
