"""Coverage is visible: once some chapters were read by a model and others stand on their
imported text alone, the pack and `resume` say which (`text_only_chapters`) and, in text,
after which chapter the states may be out of date."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel
from test_extract import imported, use  # noqa: F401 - `imported` is a fixture

from chat_server import chat_server
from cli_runner import run_cli

LINE = "注意：第6–12章只有导入的正文，尚未经模型或代理提取；第5章之后的状态可能已过时"


@pytest.fixture
def book(tmp_path: Path, imported: Path) -> Iterator[webnovel.Project]:  # noqa: F811
    shutil.copytree(imported, tmp_path / "book")
    project = webnovel.open_project(tmp_path / "book")
    yield project
    project.close()


def test_a_half_extracted_book_says_which_chapters_stand_on_text_alone(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert book.build_memory_pack(chapter=13).to_dict()["text_only_chapters"] == []  # all alike
    assert book.resume().to_dict()["text_only_chapters"] == []
    with chat_server() as server:
        use(monkeypatch, server)
        book.extract(1, 5)
    pack = book.build_memory_pack(chapter=13)
    assert pack.to_dict()["text_only_chapters"] == [[6, 12]]
    assert LINE in pack.render("prompt") and LINE in pack.render("text")
    assert book.build_memory_pack(chapter=5).to_dict()["text_only_chapters"] == []
    assert book.build_memory_pack(chapter=8).to_dict()["text_only_chapters"] == [[6, 7]]
    assert book.resume().to_dict()["text_only_chapters"] == [[6, 12]]
    root = str(book.root)
    text = run_cli("--project", root, "resume", "--format", "text")
    assert LINE in text.stdout
    data = json.loads(run_cli("--project", root, "resume", "--format", "json").stdout)
    assert data["text_only_chapters"] == [[6, 12]]
    with chat_server() as server:
        use(monkeypatch, server)
        book.extract(7, 7)
    assert book.resume().to_dict()["text_only_chapters"] == [6, [8, 12]]


def test_stats_and_the_dashboards_overview_say_it_too(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard_server import running_dashboard

    with chat_server() as server:
        use(monkeypatch, server)
        book.extract(1, 5)
    assert book.stats().to_dict()["text_only_chapters"] == [[6, 12]]
    root = book.root
    assert LINE in run_cli("--project", str(root), "stats", "--format", "text").stdout
    book.close()
    with running_dashboard(root) as running:
        assert LINE in running.get("/?as_of=12").body
        assert 'id="coverage"' not in running.get("/?as_of=5").body  # 1–5 were all extracted


def test_chapters_imported_before_the_origin_mark_count_as_text_only(tmp_path: Path) -> None:
    """An import made before `chapter_meta.origin` existed left minimal results, unmarked: they
    stand on their text alone too."""
    with webnovel.init_project(tmp_path / "old", title="旧书") as book:
        for chapter in range(1, 7):  # the shape an old `import text` committed
            old = {
                "chapter": chapter,
                "title": f"第{chapter}章",
                "word_count": 12,
                "chapter_meta": {"volume": "第一卷"},
                "entities_appeared": [],
            }
            book.commit(old, text=f"第{chapter}章的正文，林砚出门。")
        assert book.resume().to_dict()["text_only_chapters"] == []  # all alike
        for chapter in (1, 2, 3):  # read since by an agent
            book.commit({"chapter": chapter, "summary": "林砚出门。"}, text="林砚出门。")
        assert book.resume().to_dict()["text_only_chapters"] == [[4, 6]]
        assert book.build_memory_pack(chapter=6).to_dict()["text_only_chapters"] == [[4, 5]]
