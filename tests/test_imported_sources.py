"""Imported chapters edited by hand: `import text` remembers where each chapter's text came from
(a folder's chapter file, or its place in the novel's one file), so `webnovel status` names an
imported chapter edited after the import, and `webnovel sync` takes its new text in the way the
import reads it; the search and the pack then see the new text."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.book import source_marks

from cli_runner import run_cli
from stores import init_book

OLD = "林动的心跳得很快。"
NEW = "林动的心跳得很快，仿佛听见了青铜古镜里父亲的声音。"
CLEAN = {"edited": [], "missing": [], "uncommitted": [], "stale": []}


def chapter_text(number: int) -> str:
    middle = OLD if number == 2 else f"山风吹过第{number}座石桥。"
    return f"第{number}章 石桥{number}\n\n林动走在山道上，{middle}远处传来钟声。\n"


@pytest.fixture
def book(tmp_path: Path, backend: str) -> Path:
    """A book in each store (conftest's BOTH_BACKENDS), driven from the CLI."""
    root = tmp_path / "book"
    with init_book(backend, root, title="武动", genre="玄幻"):
        pass
    return root


def cli(root: Path, *args: str) -> Any:
    return run_cli("--project", str(root), *args)


def answer(root: Path, *args: str) -> Any:
    ran = cli(root, *args)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def edit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert OLD in text
    path.write_text(text.replace(OLD, NEW), encoding="utf-8")


def sees_the_new_text(root: Path) -> None:
    with webnovel.open_project(root) as opened:
        stored = opened.stored_commit(2)
        assert stored is not None and NEW in stored["text"]
        assert stored["text"].startswith("林动走在山道上")  # as the import read it: no heading
        hits = [h for h in opened.search("青铜古镜 父亲的声音", top_k=5) if "青铜古镜" in h.text]
        assert hits and hits[0].chapter == 2
        summary = (stored["result"] or {}).get("summary") or ""
        assert "青铜古镜" in summary  # the import's own summary, made again from the new text
        pack = opened.build_memory_pack(chapter=5, record=False).render("prompt")
        assert "青铜古镜" in pack


def test_an_imported_folder_file_edited_is_seen_and_synced(book: Path) -> None:
    folder = book / "chapters"
    folder.mkdir()
    for number in range(1, 5):
        (folder / f"{number:04d}.md").write_text(chapter_text(number), encoding="utf-8")
    assert answer(book, "import", "text", str(folder))["committed"] == 4
    assert answer(book, "status") == CLEAN

    edit(folder / "0002.md")
    (folder / "0005.md").write_text(chapter_text(5), encoding="utf-8")
    found = answer(book, "status")
    assert [(e["chapter"], e["path"]) for e in found["edited"]] == [(2, "chapters/0002.md")]
    assert found["uncommitted"] == [{"path": "chapters/0005.md", "chapter": 5}]
    text = cli(book, "status", "--format", "text").stdout
    assert "第2章的正文文件提交后被改过" in text

    done = answer(book, "sync")
    assert done["synced"] == [2] and done["stale"] == []  # the import's result, made again
    sees_the_new_text(book)
    assert answer(book, "status")["edited"] == []

    # importing the folder again is the same as a sync: nothing left to take in
    again = answer(book, "import", "text", str(folder))
    assert again["added"] == [5] and again["text_changed"] == []
    assert answer(book, "status") == CLEAN


def test_an_imported_novel_file_edited_is_seen_and_synced(book: Path) -> None:
    novel = book / "novel.txt"
    novel.write_text("".join(chapter_text(n) for n in range(1, 5)), encoding="utf-8")
    assert answer(book, "import", "text", str(novel))["committed"] == 4
    assert answer(book, "status") == CLEAN
    assert "章节文件与记忆一致" in cli(book, "status", "--format", "text").stdout

    edit(novel)
    found = answer(book, "status")
    assert [(e["chapter"], e["path"]) for e in found["edited"]] == [(2, "novel.txt")]
    assert found["uncommitted"] == [] and found["missing"] == []
    assert "章节文件与记忆一致" not in cli(book, "status", "--format", "text").stdout

    assert answer(book, "sync")["synced"] == [2]
    sees_the_new_text(book)
    assert answer(book, "status") == CLEAN
    with webnovel.open_project(book) as opened:  # remembered as read: not cut again
        stamp = opened.store.commits.meta(source_marks.FILE_READ_KEY + "novel.txt")
        assert stamp == source_marks.file_stamp(novel)

    # a chapter added at the end is a chapter not yet committed; a re-import brings it in
    with novel.open("a", encoding="utf-8") as out:
        out.write(chapter_text(5))
    with novel.open("a", encoding="utf-8") as out:
        out.write(chapter_text(6))
    assert answer(book, "status")["uncommitted"] == [
        {"path": "novel.txt", "chapter": 5},
        {"path": "novel.txt", "chapter": 6},
    ]
    grown = cli(book, "status", "--format", "text").stdout
    assert "novel.txt 里有尚未提交的章节：第5–6章（共2章" in grown
    assert answer(book, "import", "text", str(novel))["added"] == [[5, 6]]  # a run
    assert answer(book, "status") == CLEAN

    novel.unlink()
    gone = answer(book, "status")["missing"]
    assert [m["chapter"] for m in gone] == [1, 2, 3, 4, 5, 6]
    assert {m["path"] for m in gone} == {"novel.txt"}
    said = cli(book, "status", "--format", "text").stdout
    assert "第1–6章（共6章）的正文文件不见了，无法重新读取：novel.txt" in said
    assert "第1–6章（共6章）的正文文件不见了" in cli(book, "sync", "--format", "text").stdout


def test_a_chapter_a_model_wrote_keeps_its_result_and_is_marked_stale(book: Path) -> None:
    novel = book / "novel.txt"
    novel.write_text("".join(chapter_text(n) for n in range(1, 4)), encoding="utf-8")
    answer(book, "import", "text", str(novel))
    with webnovel.open_project(book) as opened:
        written = {"chapter": 2, "title": "石桥", "summary": "林动过桥。"}
        assert opened.commit(written).status == "committed"  # its text (and file) kept
        # as `extract` commits a model's result: with the same text, which stays in its file
        stored = opened.stored_commit(2)
        assert stored is not None
        written["title"] = "过桥"
        assert opened.commit(written, text=stored["text"]).status == "committed"
    edit(novel)
    assert [e["chapter"] for e in answer(book, "status")["edited"]] == [2]
    done = answer(book, "sync")
    assert done["synced"] == [2] and done["stale"] == [2]
    with webnovel.open_project(book) as opened:
        stored = opened.stored_commit(2)
        assert stored is not None and NEW in stored["text"]
        assert stored["result"]["summary"] == "林动过桥。"


def test_an_unchanged_novel_file_is_not_cut_again(book: Path) -> None:
    novel = book / "novel.txt"
    novel.write_text("".join(chapter_text(n) for n in range(1, 4)), encoding="utf-8")
    answer(book, "import", "text", str(novel))
    # the same size and time with other words: status trusts the stamp (cheap on a long book)
    text = novel.read_text(encoding="utf-8")
    stat = novel.stat()
    novel.write_text(text.replace("钟声", "鼓声"), encoding="utf-8")
    os.utime(novel, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert answer(book, "status")["edited"] == []
    os.utime(novel, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert [e["chapter"] for e in answer(book, "status")["edited"]] == [1, 2, 3]


def test_a_book_imported_before_sources_learns_them_on_a_reimport(book: Path) -> None:
    novel = book / "novel.txt"
    novel.write_text("".join(chapter_text(n) for n in range(1, 4)), encoding="utf-8")
    answer(book, "import", "text", str(novel))
    # as an import made before imports remembered their files left the book
    with webnovel.open_project(book) as opened, opened.storage.index.atomic() as conn:
        conn.execute("UPDATE commits SET text_source = NULL, text_hash = NULL")
    edit(novel)
    assert answer(book, "status")["edited"] == []  # nothing remembered: nothing to see
    novel.write_text(novel.read_text(encoding="utf-8").replace(NEW, OLD), encoding="utf-8")
    again = answer(book, "import", "text", str(novel))
    assert again["committed"] == 0  # nothing changed in the book but where its texts live
    edit(novel)
    assert [e["chapter"] for e in answer(book, "status")["edited"]] == [2]
