"""A book remembers which file each chapter's text came from, and `status`/`sync` read those
files again. The records are the book's own, so a received book could name any file on the
machine: only files inside the book's folder are read (a link is followed to where it leads),
the rest are said to be outside and left alone (docs/security.md)."""

from __future__ import annotations

import json
from pathlib import Path

import webnovel

from cli_runner import run_cli

RESULT = {"chapter": 1, "summary": "林砚下山。"}


def _book_with_a_source(tmp_path: Path, source: str) -> Path:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t") as book:
        book.commit(RESULT, text="林砚下山。", text_source=source)
    return root


def _status(root: Path) -> dict[str, object]:
    ran = run_cli("--project", str(root), "status")
    assert ran.returncode == 0, ran.stderr
    found: dict[str, object] = json.loads(ran.stdout)
    return found


def test_a_source_outside_the_book_is_said_and_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("别人的私信，不属于这本书。", encoding="utf-8")
    for source in (str(secret), "../secret.txt"):
        root = _book_with_a_source(tmp_path / source.replace("/", "_"), source)
        (root.parent / "secret.txt").write_text("别人的私信。", encoding="utf-8")
        found = _status(root)
        assert found["edited"] == [] and found["outside"] == [{"chapter": 1, "path": source}]
        text = run_cli("--project", str(root), "status", "--format", "text").stdout
        assert "在书的文件夹之外，不读取" in text
        assert run_cli("--project", str(root), "sync").returncode == 0
        with webnovel.open_project(root) as book:
            stored = book.stored_commit(1)
            assert stored is not None and stored["text"] == "林砚下山。"  # nothing taken in


def test_a_link_inside_the_book_to_a_file_outside_is_outside_too(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("林砚下山。", encoding="utf-8")
    root = _book_with_a_source(tmp_path, "chapters/0001.md")
    (root / "chapters").mkdir(exist_ok=True)
    (root / "chapters" / "0001.md").symlink_to(outside)
    outside.write_text("书外的文字。", encoding="utf-8")
    found = _status(root)
    assert found["edited"] == [] and found["outside"] == [
        {"chapter": 1, "path": "chapters/0001.md"}
    ]


def test_a_source_inside_the_book_is_still_watched(tmp_path: Path) -> None:
    root = _book_with_a_source(tmp_path, "chapters/0001.md")
    (root / "chapters").mkdir(exist_ok=True)
    (root / "chapters" / "0001.md").write_text("林砚下山，回头一望。", encoding="utf-8")
    found = _status(root)
    assert [e["chapter"] for e in found["edited"]] == [1]  # type: ignore[index]
    assert "outside" not in found


def test_a_chapter_file_linked_outside_is_a_refused_link_never_offered(tmp_path: Path) -> None:
    """A received book's `chapters/013.md` linked to a file of the author's was offered as a
    chapter to commit, by the target's path: following that advice takes the file into memory.
    A linked `chapters/` folder is the same. A link inside the book stays a chapter file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("别人的私信。", encoding="utf-8")
    root = _book_with_a_source(tmp_path, "chapters/0001.md")
    (root / "chapters").mkdir(exist_ok=True)
    (root / "chapters" / "0001.md").write_text("林砚下山。", encoding="utf-8")
    (root / "chapters" / "0013.md").symlink_to(secret)
    (root / "drafts").mkdir()
    (root / "drafts" / "14.md").write_text("草稿。", encoding="utf-8")
    (root / "chapters" / "0014.md").symlink_to(root / "drafts" / "14.md")
    found = _status(root)
    assert found["links"] == [
        {"chapter": 13, "path": "chapters/0013.md", "target": str(secret.resolve())}
    ]
    assert found["uncommitted"] == [{"path": "drafts/14.md", "chapter": 14}]
    text = run_cli("--project", str(root), "status", "--format", "text").stdout
    assert "第13章的章节文件是指向书的文件夹之外的链接，已拒绝" in text
    assert "尚未提交（第13章？）" not in text

    outside = tmp_path / "outside-chapters"
    outside.mkdir()
    (outside / "0020.md").write_text("别处的章节。", encoding="utf-8")
    linked = _book_with_a_source(tmp_path / "linked", "novel.md")
    (linked / "chapters").symlink_to(outside)
    found = _status(linked)
    assert found["uncommitted"] == [] and found["links"] == [
        {"chapter": 20, "path": "chapters/0020.md", "target": str(outside.resolve() / "0020.md")}
    ]
