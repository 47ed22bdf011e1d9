"""A chapter the author retracted, in a text imported again: while the file still gives the
text it was retracted with, the retraction stands (kept out, said, `--force` brings it back);
a text the author rewrote comes back, said as a retracted chapter brought back, never as 新增
(book/retracted_in_import.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel

from cli_runner import run_cli

SIX = {n: f"林砚在第{n}天练剑，苏晚晴在旁观看，剑光如雪。" for n in range(1, 7)}
KEPT_OUT = "作者收回过的章节（retract），文件里仍是收回时的正文，没有导入，收回仍有效：第6章"
BACK = "作者收回过的章节（retract），已按文件的正文重新导入：第6章"


def novel(chapters: dict[int, str]) -> str:
    return "".join(f"第{n}章 章{n}\n　　{text}\n" for n, text in chapters.items())


def cli(root: Path, *args: str) -> Any:
    ran = run_cli("--project", str(root), *args)
    assert ran.returncode == 0, ran.stderr
    return ran


def answer(root: Path, *args: str) -> Any:
    return json.loads(cli(root, *args, "--format", "json").stdout)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """Six chapters imported from the book's folder; the author then retracted chapter 6."""
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    (root / "寒江.txt").write_text(novel(SIX), encoding="utf-8")
    answer(root, "import", "text", str(root / "寒江.txt"))
    with webnovel.open_project(root) as opened:
        assert opened.retract(6).status == "retracted"
    return root


def standing(root: Path) -> str | None:
    """Chapter 6's text, if it stands."""
    with webnovel.open_project(root) as opened:
        stored = opened.stored_commit(6)
        return None if stored is None else stored["text"]


def test_the_same_text_again_leaves_the_retraction_standing_and_says_so(book: Path) -> None:
    source = str(book / "寒江.txt")
    dry = cli(book, "import", "text", source, "--dry-run", "--format", "text").stdout
    assert "文件里仍是收回时的正文，将不导入：第6章（加 --force 才会带回）" in dry, dry
    said = cli(book, "import", "text", source, "--format", "text").stdout
    assert KEPT_OUT in said and "webnovel restore 6" in said, said
    assert "新增" not in said
    done = answer(book, "import", "text", source)
    assert (done["committed"], done["retracted_kept_out"], done["added"]) == (0, [6], [])
    assert standing(book) is None
    forced = cli(book, "import", "text", source, "--force", "--format", "text").stdout
    assert BACK in forced and "新增" not in forced, forced
    assert (standing(book) or "").strip() == SIX[6]
    assert "retracted_back" not in answer(book, "import", "text", source)  # it stands again


def test_a_rewritten_text_comes_back_said_as_a_retracted_chapter(book: Path) -> None:
    rewritten = "林砚收剑下山，再不回头。"
    (book / "寒江.txt").write_text(novel(SIX | {6: rewritten}), encoding="utf-8")
    source = str(book / "寒江.txt")
    dry = answer(book, "import", "text", source, "--dry-run")
    assert dry["retracted_back"] == [6] and "retracted_kept_out" not in dry
    said = cli(book, "import", "text", source, "--format", "text").stdout
    assert BACK in said and "webnovel retract 6" in said and "新增" not in said, said
    assert (standing(book) or "").strip() == rewritten
