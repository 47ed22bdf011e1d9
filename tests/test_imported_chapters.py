"""What an imported chapter is called and how long it is: the import's table, the stored result
and `webnovel chapter` say one word count, and a title is the heading's words, not the heading
again after the chapter's number."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import webnovel
from webnovel.book.heading_numbers import imported_title
from webnovel.cli.main import main
from webnovel.ingest.text_import import heading_parts, split_chapters

from cli_runner import run_cli

DATA = Path(__file__).parent / "data"
BENCHMARK_DATA = Path(__file__).parents[1] / "benchmarks" / "data"

# The shape of the trial's own novel (寒江): a title and a 简介 before chapter 1, 第N章 headings,
# paragraphs indented with full-width spaces and blank lines between them.
HANJIANG = """寒江
简介：少年林砚下山，寒江夜雪。

第1章 雪夜
　　雪下了一夜。林砚推开柴门，寒江上一片白。

　　他回头看了一眼师父的草庐。

第2章 下山
　　林砚背着剑下山，山路积雪没膝。

　　山脚的茶棚里，有人在等他。
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_the_import_table_and_the_chapter_say_one_word_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """字数 is the characters of the chapter's text, whitespace not counted (the indentation,
    the blank lines) and the heading not counted: the table said len(text) before."""
    root = tmp_path / "hanjiang"
    webnovel.init_project(root, title="寒江").close()
    novel = write(tmp_path / "寒江.txt", HANJIANG)
    assert main(["--project", str(root), "import", "text", str(novel), "--format", "json"]) == 0
    table = {c["chapter"]: c["chars"] for c in json.loads(capsys.readouterr().out)["chapters"]}
    second = "林砚背着剑下山，山路积雪没膝。山脚的茶棚里，有人在等他。"
    assert table[2] == len(second) == 28
    with webnovel.open_project(root) as book:
        assert book.chapter(2).word_count == 28
        assert [c["word_count"] for c in book.chapters()] == [table[1], table[2]]
    assert main(["--project", str(root), "chapter", "2", "--format", "text"]) == 0
    assert "（28字）" in capsys.readouterr().out


# -- titles -------------------------------------------------------------------------------


def test_the_trials_long_serial_is_titled_by_its_words(tmp_path: Path) -> None:
    """The trial's generated serial (第一章…第二千章, each titled 第N回目): chapter 1998 is
    《第1998回目》 in the listing, the pack and `resume`, not 《第一千九百九十八章 第1998回目》."""
    root = tmp_path / "long"
    webnovel.init_project(root, title="长篇").close()
    numerals = {1998: "一千九百九十八", 1999: "一千九百九十九", 2000: "二千"}
    novel = write(
        tmp_path / "long.txt",
        "".join(f"第{w}章 第{n}回目\n　　林砚在第{n}天练剑。\n" for n, w in numerals.items()),
    )
    args = ["--project", str(root)]
    assert run_cli(*args, "import", "text", str(novel), "--start", "1998").returncode == 0
    with webnovel.open_project(root) as book:
        assert [c["title"] for c in book.chapters()] == ["第1998回目", "第1999回目", "第2000回目"]
    prompt = run_cli(*args, "pack", "--chapter", "2001", "--format", "prompt").stdout
    assert "第1998章《第1998回目》" in prompt and "一千九百九十八" not in prompt
    assert "上一章：第2000章《第2000回目》" in run_cli(*args, "resume", "--format", "text").stdout


@pytest.mark.parametrize(
    "heading",
    [
        "第2章 下山",
        "第2章　下山",  # a full-width space
        "第2章：下山",
        "第2章:下山",
        "第二章、下山",
        "第二章——下山",
        "第二章下山",  # no separator
        "第２章 下山",  # full-width digits
        "第002章 下山",
        "第二回 下山",
        "第两节 下山",
        "　　第二章　下山　",  # indented, trailing space
    ],
)
def test_a_heading_gives_its_words_as_the_title(heading: str) -> None:
    chapters, _ = split_chapters(f"第一章 雪夜\n雪。\n{heading}\n林砚下山。\n")
    assert [imported_title(c.heading, n) for n, c in enumerate(chapters, 1)] == ["雪夜", "下山"]


def test_a_heading_whose_number_is_not_the_chapters_stays_whole() -> None:
    """A prologue moves the count: 第一章 is chapter 2, and its number is then worth showing.
    A heading that is only a number gives no title; a volume heading is the volume."""
    source = (
        "楔子 缘起\n序。\n第一卷 风起\n第一章 下山\n正文。\n第二章\n正文。\n第3章 入城\n正文。\n"
    )
    chapters, _ = split_chapters(source)
    titles = [imported_title(c.heading, n) for n, c in enumerate(chapters, 1)]
    assert titles == ["楔子 缘起", "第一章 下山", "第二章", "第3章 入城"]
    assert [imported_title(c.heading, n) for n, c in enumerate(chapters)][1:] == [
        "下山",
        "",
        "入城",
    ]
    assert [c.volume for c in chapters] == [None, "第一卷 风起", "第一卷 风起", "第一卷 风起"]
    assert heading_parts("第一卷 风起") == (None, "第一卷 风起")  # a volume is no chapter


def test_a_heading_that_is_only_a_number_commits_no_title(tmp_path: Path) -> None:
    novel = write(tmp_path / "n.txt", "第一章\n林砚醒来。\n第二章 下山\n林砚下山。\n")
    folder = tmp_path / "chapters"  # files with no heading, named by their numbers
    folder.mkdir()
    write(folder / "001.txt", "林砚入城。")
    write(folder / "002.txt", "林砚出城。")
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.import_text(novel)
        assert [c["title"] for c in book.chapters()] == [None, "下山"]
        book.import_text(folder, start=1)
        assert [c["title"] for c in book.chapters()] == [None, None]


@pytest.mark.parametrize("name", ["xiyouji", "shuihu"])
def test_the_real_novels_keep_their_titles(name: str) -> None:
    """《西游记》's 回 are chapters 1–100: each is titled by its 回目. 《水浒传》 opens with a 楔子,
    so its 第01回 is chapter 2: every 回 keeps its heading, and the 楔子 its own."""
    text = gzip.decompress((BENCHMARK_DATA / f"{name}.txt.gz").read_bytes()).decode("utf-8")
    chapters, _ = split_chapters(text)
    titles = [imported_title(c.heading, n) for n, c in enumerate(chapters, 1)]
    if name == "xiyouji":
        assert len(titles) == 100
        assert titles[0] == "灵根育孕源流出\u3000心性修持大道生"
        assert titles[99] == "径回东土\u3000五圣成真"
        assert not any(t.startswith("第") and "回" in t[:6] for t in titles)
    else:
        assert len(titles) == 121
        assert titles[0] == "楔子 张天师祈禳瘟疫 洪太尉误走妖魔"
        assert titles[1] == "第01回 王教头私走延安府 九纹龙大闹史家村"
        assert titles == [c.heading for c in chapters]


def test_xiyouji_imported_titles_in_the_listing_and_the_pack(tmp_path: Path) -> None:
    root = tmp_path / "xiyouji"
    webnovel.init_project(root, title="西游记").close()
    novel = tmp_path / "西游记.txt"
    novel.write_text(
        "\n".join((DATA / f"xiyouji_0{n}.txt").read_text(encoding="utf-8") for n in (1, 2)),
        encoding="utf-8",
    )
    table = run_cli("--project", str(root), "import", "text", str(novel), "--format", "text")
    assert "第1章  灵根育孕源流出　心性修持大道生" in table.stdout
    prompt = run_cli("--project", str(root), "pack", "--chapter", "3", "--format", "prompt")
    assert "第2章《悟彻菩提真妙理　断魔归本合元神》" in prompt.stdout
    assert "《第二回" not in prompt.stdout


def test_a_chapter_with_no_title_shows_no_empty_brackets(tmp_path: Path) -> None:
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    body = "林砚醒来，推门见雪。苏晚晴在院中练剑，剑光映雪。两人约定明日一同下山。"
    novel = write(tmp_path / "n.txt", f"第一章\n{body}\n第二章\n{body}\n")
    assert run_cli("--project", str(root), "import", "text", str(novel)).returncode == 0
    shown = run_cli("--project", str(root), "chapter", "2", "--format", "text").stdout
    assert shown.startswith("第2章（") and "《》" not in shown
    prompt = run_cli("--project", str(root), "pack", "--chapter", "3", "--format", "prompt").stdout
    assert "- 第2章：" in prompt and "《》" not in prompt


def test_a_volume_and_its_chapter_on_one_line() -> None:
    """第一卷 少年 第一章 陨落: before, no line started with 第N章, and the whole novel was one
    chapter with a warning."""
    source = "第一卷 少年 第一章 陨落\n萧炎。\n第一卷 少年 第二章 斗之气\n药老。\n第二卷第一章 入学\n学院。\n"
    chapters, warnings = split_chapters(source)
    assert warnings == []
    assert [(c.heading, c.volume, c.text) for c in chapters] == [
        ("第一章 陨落", "第一卷 少年", "萧炎。"),
        ("第二章 斗之气", "第一卷 少年", "药老。"),
        ("第一章 入学", "第二卷", "学院。"),  # its number restarts with the volume
    ]
    titles = [imported_title(c.heading, n) for n, c in enumerate(chapters, 1)]
    assert titles == ["陨落", "斗之气", "第一章 入学"]


def test_markdown_chapter_files_are_titled_by_their_heading(tmp_path: Path) -> None:
    """The sample book's own chapter files open with 「# 第一章 青石镇的铁匠铺」: before, the
    Markdown marks hid the heading, so chapter 1 was titled 「001」 (its file's name) and its
    text began with the heading line."""
    from webnovel.ingest.sample_book import sample_book_dir

    with webnovel.init_project(tmp_path / "b", title="青灯照剑") as book:
        book.import_text(sample_book_dir() / "chapters")
        titles = [c["title"] for c in book.chapters()]
        assert titles[:3] == ["青石镇的铁匠铺", "子时的青灯", "落霞山试炼"]
        assert titles[11] == "赤炎城" and len(titles) == 12
        assert not book.stored_commit(1)["text"].startswith("#")
    chapters, _ = split_chapters("# 第一卷 风起\n## 第一章 下山\n正文。\n### 第2章：入城\n城。\n")
    assert [(c.heading, c.volume) for c in chapters] == [
        ("第一章 下山", "第一卷 风起"),
        ("第2章：入城", "第一卷 风起"),
    ]


def test_front_matter_before_an_untitled_chapter_names_it_without_empty_brackets(
    tmp_path: Path,
) -> None:
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    source = tmp_path / "寒江.txt"
    source.write_text("寒江 简介：一个少年的故事。\n第一章\n　　林砚练剑。\n", encoding="utf-8")
    ran = run_cli(
        "--project", str(root), "import", "text", str(source), "--dry-run", "--format", "text"
    )
    assert "第1章之前有" in ran.stderr + ran.stdout, ran.stderr + ran.stdout
    assert "《》" not in ran.stderr + ran.stdout
