"""An agent that commits a bare result (a chapter number and little else: no title, no summary,
no text) is an agent's chapter, not an import: the pack and `resume` do not say 「只有导入的正文」
of it, and `resume`, `chapter N` and the pack name an untitled chapter by its number instead of
empty 《》."""

from __future__ import annotations

import json
from pathlib import Path

import webnovel

from cli_runner import run_cli


def _agent_book(root: Path) -> None:
    """Chapters 1–3 written by an agent in full, then chapter 4 as a bare result."""
    with webnovel.init_project(root, title="寒江") as book:
        for chapter in (1, 2, 3):
            book.commit(
                {"chapter": chapter, "title": f"第{chapter}夜", "summary": "林砚守城。"},
                text="林砚守在城头，一夜无话。",
            )
        book.commit({"chapter": 4})


def test_a_bare_agent_result_is_not_taken_for_an_imported_chapter(tmp_path: Path) -> None:
    root = tmp_path / "book"
    _agent_book(root)
    with webnovel.open_project(root) as book:
        assert book.resume().to_dict()["text_only_chapters"] == []
        pack = book.build_memory_pack(chapter=5)
        assert pack.to_dict()["text_only_chapters"] == []
        assert "只有导入的正文" not in pack.render("prompt")
        assert book.stats().to_dict()["text_only_chapters"] == []
        # a title and a text do not make it an import either: nothing counted them as one
        book.commit({"chapter": 4, "title": "雪夜"}, text="雪落了一夜。")
        assert book.resume().to_dict()["text_only_chapters"] == []


def test_resume_names_an_untitled_last_chapter_by_its_number(tmp_path: Path) -> None:
    root = tmp_path / "book"
    _agent_book(root)
    shown = run_cli("--project", str(root), "resume", "--format", "text")
    assert shown.returncode == 0, shown.stderr
    assert "《》" not in shown.stdout
    assert "上一章：第4章\n" in shown.stdout
    data = json.loads(run_cli("--project", str(root), "resume", "--format", "json").stdout)
    assert data["last_chapter"] == {"title": None, "summary": None}  # the JSON as it was
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 5, "summary": "二人出城。"})
    shown = run_cli("--project", str(root), "resume", "--format", "text")
    assert "上一章：第5章 二人出城。" in shown.stdout


def test_an_untitled_chapter_is_named_by_its_number_in_chapter_and_the_pack(
    tmp_path: Path,
) -> None:
    root = tmp_path / "book"
    _agent_book(root)
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 4, "summary": "韩啸夜里来访。"})
        pack = book.build_memory_pack(chapter=5).render("prompt")
    assert "- 第4章：韩啸夜里来访。" in pack and "《》" not in pack
    shown = run_cli("--project", str(root), "chapter", "4", "--format", "text")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("第4章\n") or shown.stdout.startswith("第4章（")
    assert "《》" not in shown.stdout
