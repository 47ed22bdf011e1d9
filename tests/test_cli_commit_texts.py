"""`commit --text-dir DIR` takes each chapter's text from `DIR/<name>.md`, for one result file as
for several, and says which chapter goes without its text (issue 43): a text missing from the
folder, or a folder that is not there, used to store no text without a word."""

from __future__ import annotations

import json
from pathlib import Path

import webnovel

from cli_runner import run_cli

WORD = "青铜灯芯"  # only in the chapters' texts, never in their summaries


def _setting(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A book, a folder of results ch2.json, ch3.json, and a folder of their texts."""
    root = tmp_path / "book"
    webnovel.init_project(root, title="正文之书").close()
    results, texts = tmp_path / "results", tmp_path / "texts"
    results.mkdir()
    texts.mkdir()
    for chapter in (2, 3):
        result = {"chapter": chapter, "summary": f"第{chapter}章，林砚在山中。"}
        (results / f"ch{chapter}.json").write_text(json.dumps(result), encoding="utf-8")
        (texts / f"ch{chapter}.md").write_text(
            f"第{chapter}章里，林砚拨亮了{WORD}，山风穿过竹林。", encoding="utf-8"
        )
    return root, results, texts


def _chapters_with_the_word(root: Path) -> list[int]:
    with webnovel.open_project(root) as book:
        return sorted({hit.chapter for hit in book.search(WORD, top_k=10) if WORD in hit.text})


def test_one_file_takes_its_text_from_the_text_dir(tmp_path: Path) -> None:
    root, results, texts = _setting(tmp_path)
    ran = run_cli(
        "--project", str(root), "commit", str(results / "ch2.json"), "--text-dir", str(texts)
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr == ""
    assert _chapters_with_the_word(root) == [2]


def test_one_file_whose_text_is_missing_is_said(tmp_path: Path) -> None:
    root, results, texts = _setting(tmp_path)
    (texts / "ch2.md").unlink()
    ran = run_cli(
        "--project", str(root), "commit", str(results / "ch2.json"), "--text-dir", str(texts)
    )
    assert ran.returncode == 0, ran.stderr
    assert "提醒" in ran.stderr and str(texts / "ch2.md") in ran.stderr and "没有正文" in ran.stderr
    assert _chapters_with_the_word(root) == []


def test_a_text_dir_that_is_not_there_is_said_for_one_file_and_for_several(
    tmp_path: Path,
) -> None:
    root, results, _ = _setting(tmp_path)
    nowhere = tmp_path / "no-such-folder"
    one = run_cli(
        "--project", str(root), "commit", str(results / "ch2.json"), "--text-dir", str(nowhere)
    )
    assert one.returncode == 0, one.stderr
    assert str(nowhere) in one.stderr and "不存在" in one.stderr
    files = [str(results / "ch2.json"), str(results / "ch3.json")]
    several = run_cli("--project", str(root), "commit", *files, "--text-dir", str(nowhere))
    assert several.returncode == 0, several.stderr
    assert several.stderr.count(str(nowhere)) == 1  # said once, not once per chapter
    assert _chapters_with_the_word(root) == []


def test_several_files_name_the_one_whose_text_is_missing(tmp_path: Path) -> None:
    root, results, texts = _setting(tmp_path)
    (texts / "ch3.md").unlink()
    files = [str(results / "ch2.json"), str(results / "ch3.json")]
    ran = run_cli("--project", str(root), "commit", *files, "--text-dir", str(texts))
    assert ran.returncode == 0, ran.stderr
    assert str(texts / "ch3.md") in ran.stderr and str(texts / "ch2.md") not in ran.stderr
    assert _chapters_with_the_word(root) == [2]


def test_text_and_text_dir_together_or_with_stdin_are_refused(tmp_path: Path) -> None:
    root, results, texts = _setting(tmp_path)
    both = run_cli(
        "--project",
        str(root),
        "commit",
        str(results / "ch2.json"),
        "--text",
        str(texts / "ch2.md"),
        "--text-dir",
        str(texts),
    )
    assert both.returncode == 2 and "--text-dir" in both.stderr
    piped = run_cli(
        "--project",
        str(root),
        "commit",
        "-",
        "--text-dir",
        str(texts),
        stdin=(results / "ch2.json").read_text(encoding="utf-8"),
    )
    assert piped.returncode == 2 and "--text-dir" in piped.stderr
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() is None  # a refused commit writes nothing
