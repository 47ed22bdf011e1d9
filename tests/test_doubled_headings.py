"""A chapter a source holds twice (the same 回 pasted again, a character changed) is left out of
the book and kept in the report, so that no later chapter is shifted by one; a heading number
repeated over a different text keeps both, with a warning. On 《西游记》, public domain."""

from __future__ import annotations

import json
from pathlib import Path

import webnovel
from webnovel.ingest.doubled_headings import heading_number, set_apart_doubles, similarity
from webnovel.ingest.text_import import split_chapters

from cli_runner import run_cli

DATA = Path(__file__).parent / "data"


def _xiyouji() -> tuple[str, str]:
    return tuple(  # type: ignore[return-value]
        (DATA / f"xiyouji_0{n}.txt").read_text(encoding="utf-8") for n in (1, 2)
    )


def _source_with_a_double(tmp_path: Path) -> Path:
    one, two = _xiyouji()
    again = two.replace("美猴王", "美猴玉", 1)  # a copy with one character changed
    third = "第三回　四海千山皆拱伏　九幽十类尽除名\n\n    却说美猴王荣归故里，自斩了混世魔王。\n"
    path = tmp_path / "西游记.txt"
    path.write_text(f"{one}\n{two}\n{again}\n{third}", encoding="gb18030")
    return path


def test_heading_numbers_and_likeness() -> None:
    assert heading_number("第三十四回　岳飞大战") == "三十四"
    assert heading_number("第１２章：斗之气") == "12"
    assert heading_number("楔子") is None
    one, two = _xiyouji()
    assert similarity(two, two.replace("美猴王", "美猴玉", 1)) > 0.99
    assert similarity(one, two) < 0.5


def test_a_doubled_chapter_is_left_out_and_later_chapters_keep_their_numbers(
    tmp_path: Path,
) -> None:
    source = _source_with_a_double(tmp_path)
    with webnovel.init_project(tmp_path / "book", title="西游记") as book:
        report = book.import_text(source)
        titles = [c["title"] for c in book.chapters()]  # each heading's words: 第N回 kept N
        assert [t.split("\u3000")[0] for t in titles] == [
            "灵根育孕源流出",
            "悟彻菩提真妙理",
            "四海千山皆拱伏",
        ]
        assert book.latest_chapter() == 3
    assert len(report.doubled) == 1
    doubled = report.doubled[0]
    assert doubled.same_as == 2 and doubled.similarity > 0.99
    assert "美猴玉" in doubled.text  # the repeat's text is in the report, not lost
    assert any("与第2章" in w and "重复" in w for w in report.warnings)


def test_the_cli_names_the_double_and_keep_doubled_keeps_it(tmp_path: Path) -> None:
    source = _source_with_a_double(tmp_path)
    run_cli("init", str(tmp_path / "a"), "--title", "西游记")
    text = run_cli(
        "--project", str(tmp_path / "a"), "import", "text", str(source), "--format", "text"
    )
    assert text.returncode == 0, text.stderr
    assert "重复章节：「第二回" in text.stdout and "未导入" in text.stdout
    assert "--keep-doubled" in text.stderr
    run_cli("init", str(tmp_path / "b"), "--title", "西游记")
    kept = run_cli(
        "--project",
        str(tmp_path / "b"),
        "import",
        "text",
        str(source),
        "--keep-doubled",
        "--format",
        "json",
    )
    assert kept.returncode == 0, kept.stderr
    answer = json.loads(kept.stdout)
    assert len(answer["chapters"]) == 4 and answer["doubled"] == []


def test_a_repeated_number_over_a_different_text_keeps_both_and_warns() -> None:
    one, two = _xiyouji()
    misnumbered = two.replace("第二回", "第一回", 1)
    chapters, _ = split_chapters(f"{one}\n{misnumbered}")
    kept, doubled, renumbered = set_apart_doubles(chapters)
    assert len(kept) == 2 and doubled == [] and renumbered == [(0, 1)]


def test_volumes_that_restart_their_numbers_are_not_doubles() -> None:
    chapters, _ = split_chapters(
        "第一卷\n第一章 出山\n萧炎下山。\n第二卷\n第一章 入城\n萧炎入城，见到熏儿。\n"
    )
    kept, doubled, _ = set_apart_doubles(chapters)
    assert len(kept) == 2 and doubled == []
