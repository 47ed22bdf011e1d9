"""A thread that a chapter advanced but none planted has no chapter of planting: every place
that names one says 「未埋设」 instead of printing 「第None章埋设」 (issue 43)."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel

from cli_runner import run_cli

ADVANCED_ONLY = {
    "chapter": 3,
    "summary": "林砚拾得玉佩。",
    "plot_threads": [{"id": "jade", "action": "advance", "content": "神秘玉佩的来历"}],
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "book"
    with webnovel.init_project(folder, title="未埋设之书") as book:
        book.commit(ADVANCED_ONLY)
    return folder


def test_the_thread_list_says_never_planted(root: Path) -> None:
    ran = run_cli("--project", str(root), "threads", "--status", "all", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "None" not in ran.stdout
    assert "未埋设" in ran.stdout and "神秘玉佩的来历" in ran.stdout


def test_the_pack_says_never_planted(root: Path) -> None:
    ran = run_cli("--project", str(root), "pack", "--chapter", "4", "--format", "prompt")
    assert ran.returncode == 0, ran.stderr
    line = next(x for x in ran.stdout.splitlines() if "神秘玉佩的来历" in x)
    assert "None" not in line and "未埋设" in line


def test_the_dashboard_says_never_planted(root: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("jinja2")
    from dashboard_server import running_dashboard

    with running_dashboard(root) as board:
        for path in ("/threads", "/threads/jade"):
            answer = board.get(path)
            assert answer.status == 200, answer.body[:300]
            assert "第None章" not in answer.body and "未埋设" in answer.body


def test_the_extraction_context_says_never_planted(root: Path) -> None:
    """What a model is told of memory before it reads the next chapter."""
    from webnovel.extraction.context import memory_context

    with webnovel.open_project(root) as book:
        told = memory_context(book, 3, ["林砚拾得玉佩。"]).text
    line = next(x for x in told.splitlines() if "神秘玉佩的来历" in x)
    assert "None" not in line and "未埋设" in line
