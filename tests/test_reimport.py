"""`import text` into a book that has chapters: another novel (its 第1章 after the book's last
chapter) is refused, naming what it saw, unless `--append` asks for it; a revised edition
replaces chapters by number, and the report names the chapters whose text changed, those new to
the book and those whose memory alone changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel

from cli_runner import run_cli


def novel(chapters: dict[int, str]) -> str:
    return "".join(f"第{n}章 章{n}\n　　{text}\n" for n, text in chapters.items())


EIGHT = {n: f"林砚在第{n}天练剑，剑光如雪。" for n in range(1, 9)}


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """A book of eight imported chapters."""
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    source = write(tmp_path / "寒江.txt", novel(EIGHT))
    assert run_cli("--project", str(root), "import", "text", str(source)).returncode == 0
    return root


def test_another_novel_numbered_from_one_is_refused_naming_what_it_saw(
    book: Path, tmp_path: Path
) -> None:
    other = write(tmp_path / "雪夜.txt", "第1章 雪夜\n　　苏晚晴推门而入。\n第2章 风起\n　　风。\n")
    ran = run_cli("--project", str(book), "import", "text", str(other))
    assert ran.returncode == 2
    said = ran.stderr
    assert "雪夜.txt 的章节编号从头开始" in said and "「第1章 雪夜」是第1章" in said
    assert "已写到第8章" in said and "第9章" in said
    assert "--start 1" in said and "--append" in said
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() == 8  # nothing written
    dry = run_cli("--project", str(book), "import", "text", str(other), "--dry-run")
    assert dry.returncode == 0 and "章节编号从头开始" in dry.stderr  # a dry run warns
    appended = run_cli("--project", str(book), "import", "text", str(other), "--append")
    assert appended.returncode == 0, appended.stderr
    assert "按 --append 接在书后，成为第9章" in appended.stderr
    with webnovel.open_project(book) as opened:
        assert [c["title"] for c in opened.chapters()][8:] == ["第1章 雪夜", "第2章 风起"]


def test_a_continuation_is_appended_and_a_gap_is_said(book: Path, tmp_path: Path) -> None:
    more = write(tmp_path / "续.txt", novel({9: "林砚下山。", 10: "林砚入城。"}))
    ran = run_cli("--project", str(book), "import", "text", str(more), "--format", "json")
    assert ran.returncode == 0 and ran.stderr == ""
    assert [c["chapter"] for c in json.loads(ran.stdout)["chapters"]] == [9, 10]
    assert json.loads(ran.stdout)["added"] == [[9, 10]]
    ahead = write(tmp_path / "后.txt", novel({15: "林砚出海。"}))
    ran = run_cli("--project", str(book), "import", "text", str(ahead), "--dry-run")
    assert "「第15章 章15」是第15章" in ran.stderr and "--start 15" in ran.stderr


def test_a_revised_edition_whose_first_chapter_was_edited_replaces_chapters_by_number(
    book: Path, tmp_path: Path
) -> None:
    """An import is found again by one of its first texts, not only the first: a corrected
    chapter 1 no longer makes the whole novel look new (appended as 第9–16章, or refused)."""
    revised = EIGHT | {1: EIGHT[1] + "（修订）"}
    source = write(tmp_path / "寒江-修订.txt", novel(revised))
    ran = run_cli("--project", str(book), "import", "text", str(source), "--format", "json")
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert [c["chapter"] for c in report["chapters"]] == list(range(1, 9))
    assert (report["committed"], report["unchanged"]) == (1, 7)
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() == 8
        assert opened.stored_commit(1)["text"].endswith("（修订）")


def test_one_later_text_the_book_holds_does_not_make_a_continuation_a_reimport(
    book: Path, tmp_path: Path
) -> None:
    """A short chapter said twice (a 请假 note as chapter 5 and again as 10) is no sign that
    the continuation is the same novel again: it goes after chapter 8, nothing overwritten."""
    with webnovel.open_project(book) as opened:
        leave = opened.stored_commit(5)["text"]
    more = write(tmp_path / "续.txt", f"第9章 下山\n　　林砚下山。\n第10章 请假\n{leave}\n")
    ran = run_cli("--project", str(book), "import", "text", str(more), "--format", "json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["added"] == [[9, 10]]
    with webnovel.open_project(book) as opened:
        assert opened.stored_commit(4)["text"] == "\u3000\u3000" + EIGHT[4]


def test_a_revised_edition_replaces_chapters_by_number_and_names_what_changed(
    book: Path, tmp_path: Path
) -> None:
    """Chapter 1 (the text an import is found again by), 5 to 7 edited, 9 and 10 new: the same
    novel is found again from its second chapter, replaced by number, and the changes named."""
    revised = dict(EIGHT)
    for n in (1, 5, 6, 7):
        revised[n] = EIGHT[n] + "（修订）"
    revised |= {9: "林砚下山。", 10: "林砚入城。"}
    source = write(tmp_path / "寒江-修订.txt", novel(revised))
    args = ("--project", str(book), "import", "text", str(source))
    dry = json.loads(run_cli(*args, "--dry-run", "--format", "json").stdout)
    assert "text_changed" not in dry and "added" not in dry  # only what was written is named
    ran = run_cli(*args, "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "已提交 6 章，未变化 4 章" in ran.stdout
    assert "正文有改动：第1、5–7章" in ran.stdout
    assert "新增：第9–10章" in ran.stdout
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() == 10
        assert opened.stored_commit(6)["text"].endswith("（修订）")
    again = json.loads(run_cli(*args, "--format", "json").stdout)
    assert (again["committed"], again["unchanged"]) == (0, 10)
    assert again["text_changed"] == again["added"] == again["result_changed"] == []


def test_a_cast_given_again_changes_memory_not_text(book: Path, tmp_path: Path) -> None:
    cast = write(tmp_path / "cast.csv", "id,name,aliases,type\nlinyan,林砚,,角色\n")
    source = tmp_path / "寒江.txt"
    ran = run_cli(
        "--project", str(book), "import", "text", str(source), "--cast", str(cast),
        "--format", "json",
    )  # fmt: skip
    report = json.loads(ran.stdout)
    assert report["result_changed"] == [[1, 8]] and report["text_changed"] == []
    alias = write(tmp_path / "c2.csv", "id,name,aliases,type\nlinyan,林砚,阿砚,角色\n")
    ran = run_cli(
        "--project", str(book), "import", "text", str(source), "--cast", str(alias),
        "--format", "text",
    )  # fmt: skip
    assert "正文未变、记忆更新：第1章" in ran.stdout  # where 林砚 is introduced


def test_a_reimport_that_changes_a_published_chapter_is_refused_unless_forced(
    book: Path, tmp_path: Path
) -> None:
    """A published chapter is changed only on purpose: the refusal names what would change and
    the flag `import text` takes to do it anyway."""
    with webnovel.open_project(book) as opened:
        opened.publish(through=3)
    revised = EIGHT | {2: EIGHT[2] + "（修订）"}
    source = write(tmp_path / "寒江.txt", novel(revised))
    refused = run_cli("--project", str(book), "import", "text", str(source))
    assert refused.returncode == 1 and "--force" in refused.stderr, refused.stderr
    with webnovel.open_project(book) as opened:
        assert "（修订）" not in (opened.store.commits.current_commit(2) or {}).get("text", "")
    forced = run_cli("--project", str(book), "import", "text", str(source), "--force")
    assert forced.returncode == 0, forced.stderr
    with webnovel.open_project(book) as opened:
        assert "（修订）" in (opened.store.commits.current_commit(2) or {}).get("text", "")
