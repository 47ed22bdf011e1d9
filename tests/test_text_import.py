"""Bringing an existing book in: a novel's text cut at its headings, in Chinese encodings, with a
cast; running an import again changes nothing and an interrupted one resumes; names the text
suggests; a chapter-result skeleton from a stored text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import webnovel
from webnovel.cli.main import main
from webnovel.ingest.name_finder import candidate_names, windows
from webnovel.ingest.sample_book import sample_chapters
from webnovel.ingest.text_import import read_cast, split_chapters

NOVEL = """斗破苍穹
作者：天蚕土豆

楔子
　　三十年河东，三十年河西。

第一卷 落魄少年
第一章 陨落的天才
　　萧炎望着测验魔石碑，斗之力，三段。萧战叹了口气。
第2章：斗之气
　　药老在戒指中醒来，萧炎吃了一惊。
第一百零三回
　　萧炎与纳兰嫣然立下三年之约。
第二卷 迦南学院
第3节 新的开始
　　萧炎来到迦南学院，熏儿早已在此。
"""


DATA = Path(__file__).resolve().parent / "data"


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def test_headings_in_chinese_and_arabic_numerals_volumes_and_a_prologue() -> None:
    chapters, warnings = split_chapters(NOVEL)
    assert warnings == []
    assert [c.heading for c in chapters] == [
        "楔子",
        "第一章 陨落的天才",
        "第2章：斗之气",
        "第一百零三回",
        "第3节 新的开始",
    ]
    assert [c.volume for c in chapters] == [
        None,
        "第一卷 落魄少年",
        "第一卷 落魄少年",
        "第一卷 落魄少年",
        "第二卷 迦南学院",
    ]
    assert "测验魔石碑" in chapters[1].text and "第2章" not in chapters[1].text


def test_a_text_with_no_headings_is_one_chapter_with_a_warning() -> None:
    chapters, warnings = split_chapters("萧炎在乌坦城练习斗技。", "短篇.txt")
    assert [c.heading for c in chapters] == ["短篇"] and "没有找到章节标题" in warnings[0]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gb18030", "big5"])
def test_files_in_chinese_encodings(tmp_path: Path, encoding: str) -> None:
    text = (
        NOVEL
        if encoding != "big5"
        else "第一章 隕落\n蕭炎望著測驗魔石碑。\n第二章 鬥之氣\n藥老醒來。\n"
    )
    path = write(tmp_path / "book.txt", text, encoding)
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        report = book.import_text(path)
        assert report.committed == len(report.chapters) >= 2
        assert book.search("魔石碑")[0].chapter == 1 + (encoding != "big5")  # the prologue first


def test_a_file_that_is_no_text_is_named(tmp_path: Path) -> None:
    path = write(tmp_path / "book.txt", "", "utf-8")
    path.write_bytes(bytes(range(128, 256)) * 3)
    with (
        webnovel.init_project(tmp_path / "b", title="t") as book,
        pytest.raises(webnovel.InvalidInput, match="book.txt：不是 UTF-8、GB18030、Big5"),
    ):
        book.import_text(path)


def test_dry_run_again_interrupted_and_appending(tmp_path: Path) -> None:
    full = write(tmp_path / "full.txt", NOVEL)
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        planned = book.import_text(full, dry_run=True)
        assert [c.chapter for c in planned.chapters] == [1, 2, 3, 4, 5]
        assert book.latest_chapter() is None  # a dry run writes nothing
        cut = NOVEL[: NOVEL.index("第一百零三回")]
        book.import_text(write(tmp_path / "part.txt", cut))  # an import stopped half way
        assert book.latest_chapter() == 3
        resumed = book.import_text(full)
        assert (resumed.unchanged, resumed.committed) == (3, 2)  # it picks up after 3
        again = book.import_text(full)
        assert (again.unchanged, again.committed) == (5, 0)
        sequel = write(tmp_path / "more.txt", "第一章 续\n萧炎突破斗者。\n")
        with pytest.raises(webnovel.InvalidInput, match="章节编号从头开始"):
            book.import_text(sequel)  # its 第一章 after chapter 5: appended only when asked
        more = book.import_text(sequel, append=True)
        assert [c.chapter for c in more.chapters] == [6]
        placed = book.import_text(write(tmp_path / "x.txt", "第一章 别传\n外传故事。\n"), start=100)
        assert [c.chapter for c in placed.chapters] == [100]


def test_a_folder_of_chapter_files_in_natural_order(tmp_path: Path) -> None:
    folder = tmp_path / "chapters"
    folder.mkdir()
    for n in (1, 2, 10):
        write(folder / f"第{n}章.txt", f"第{n}章 标题{n}\n正文{n}。\n", "gb18030")
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        report = book.import_text(folder)
        assert [c.title for c in report.chapters] == [  # 第10章 is chapter 3: its number stays
            "标题1",
            "标题2",
            "第10章 标题10",
        ]


def test_a_cast_is_introduced_where_it_first_appears(tmp_path: Path) -> None:
    cast_toml = write(
        tmp_path / "cast.toml",
        '[[entity]]\nid = "xiaoyan"\nname = "萧炎"\naliases = ["炎儿"]\n\n'
        '[[entity]]\nid = "yaolao"\nname = "药老"\n\n'
        '[[entity]]\nid = "xuner"\nname = "熏儿"\ntype = "角色"\n',
    )
    cast_csv = write(tmp_path / "cast.csv", "id,name,aliases,type\nxiaoyan,萧炎,炎儿;小炎子,角色\n")
    assert read_cast(cast_csv)[0]["aliases"] == ["炎儿", "小炎子"]
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.import_text(write(tmp_path / "book.txt", NOVEL), cast=read_cast(cast_toml))
        first_seen = {e.id: e.first_chapter for e in book.entities()}
        assert first_seen == {"xiaoyan": 2, "yaolao": 3, "xuner": 5}
        assert book.entity("炎儿").id == "xiaoyan"


def test_candidate_names_on_a_real_serial(tmp_path: Path) -> None:
    """Names the text suggests, measured against the sample serial's known cast: the segmenter
    alone cuts 苏晚晴 and 林远山 in two and misses them; surname statistics find them."""
    cast = {
        name
        for c in sample_chapters()
        for e in c.result.get("entities_new", [])
        for name in (e["name"], *e.get("aliases", []))
    }
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        for chapter in sample_chapters():
            book.commit({"chapter": chapter.number}, text=chapter.text)
        found = book.candidate_names(min_count=3, limit=12)
    names = [c.name for c in found]
    precision = sum(name in cast for name in names) / len(names)
    print(f"\ncandidate names: {names}, precision {precision:.2f}")
    assert precision >= 0.8
    assert {"林砚", "韩啸", "周伯", "苏晚晴", "林远山", "厉沉", "赵恒"} <= set(names)
    assert next(c for c in found if c.name == "林砚").first_chapter == 1


def test_candidate_names_in_a_classic(tmp_path: Path) -> None:
    """《西游记》1–2回: the stone monkey by its names (悟空 found where it stands, before 道)."""
    texts = [(n, (DATA / f"xiyouji_0{n}.txt").read_text(encoding="utf-8")) for n in (1, 2)]
    names = [c.name for c in candidate_names(texts, set(), min_count=3, limit=8)]
    assert {"石猴", "孙悟空", "悟空"} <= set(names)
    assert candidate_names(texts, {"孙悟空", "石猴"}, min_count=3, limit=5)[0].name != "孙悟空"


def test_prefill_and_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    novel = write(tmp_path / "book.txt", NOVEL, "gb18030")
    cast = write(tmp_path / "cast.csv", "id,name,aliases,type\nxiaoyan,萧炎,,角色\n")
    dry = ["--project", str(root), "import", "text", str(novel), "--dry-run", "--format", "text"]
    assert main(dry) == 0
    assert "共找到 5 章" in capsys.readouterr().out
    args = ["--project", str(root), "import", "text", str(novel), "--cast", str(cast)]
    assert main([*args, "--format", "json", "--candidates"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["committed"] == 5 and "candidate_names" in report
    assert main(["--project", str(root), "prefill", "2", "--format", "json"]) == 0
    skeleton = json.loads(capsys.readouterr().out)
    assert skeleton["chapter"] == 2
    assert skeleton["entities_appeared"] == [
        {"id": "xiaoyan", "mentions": ["萧炎"], "role": "mentioned"}  # until the agent says more
    ]
    assert main(["--project", str(root), "prefill", "99"]) == 1


CAST_TOML = (
    '[[entity]]\nid = "xiaoyan"\nname = "萧炎"\naliases = ["炎儿"]\n\n'
    '[[entity]]\nid = "yaolao"\nname = "药老"\n\n'
    '[[entity]]\nid = "xuner"\nname = "熏儿"\n'
)


def _cast_is_whole(root: Path) -> None:
    with webnovel.open_project(root) as book:
        first_seen = {e.id: e.first_chapter for e in book.entities()}
        assert first_seen == {"xiaoyan": 2, "yaolao": 3, "xuner": 5}
        assert book.entity("炎儿").id == "xiaoyan"
        assert book.conflicts(include_settled=True) == []


def test_running_an_import_with_a_cast_again_keeps_the_cast(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    novel = write(tmp_path / "book.txt", NOVEL)
    cast = write(tmp_path / "cast.toml", CAST_TOML)
    args = ["--project", str(root), "import", "text", str(novel), "--format", "json"]
    assert main([*args, "--cast", str(cast)]) == 0
    _cast_is_whole(root)
    capsys.readouterr()
    assert main([*args, "--cast", str(cast)]) == 0  # the same run again: nothing changes
    assert json.loads(capsys.readouterr().out)["unchanged"] == 5
    _cast_is_whole(root)
    assert main(args) == 0  # again without the cast: what it introduced stays
    _cast_is_whole(root)
    more = write(tmp_path / "cast2.toml", CAST_TOML.replace('["炎儿"]', '["炎儿", "小炎子"]'))
    assert main([*args, "--cast", str(more)]) == 0  # a richer cast updates, never drops
    _cast_is_whole(root)
    with webnovel.open_project(root) as book:
        assert book.entity("小炎子").id == "xiaoyan"


@pytest.mark.parametrize("stop_after", [1, 2, 3, 4])
def test_an_interrupted_import_with_a_cast_resumes_whole(tmp_path: Path, stop_after: int) -> None:
    root = tmp_path / "b"
    novel = write(tmp_path / "book.txt", NOVEL)
    cast = read_cast(write(tmp_path / "cast.toml", CAST_TOML))

    def interrupt(done: int, total: int) -> None:
        if done == stop_after:
            raise KeyboardInterrupt

    with webnovel.init_project(root, title="t") as book:
        with pytest.raises(KeyboardInterrupt):
            book.import_text(novel, cast=cast, progress=interrupt)
        assert book.latest_chapter() == stop_after
        resumed = book.import_text(novel, cast=cast)
        assert (resumed.unchanged, resumed.committed) == (stop_after, 5 - stop_after)
    _cast_is_whole(root)


@given(st.text(alphabet="林砚走\n。！？ab", max_size=300), st.integers(4, 40))
def test_windows_cover_the_text_exactly(text: str, size: int) -> None:
    """prefill tags a huge chapter a window at a time: nothing lost, nothing twice."""
    pieces = list(windows(text, size))
    assert "".join(pieces) == text
    assert all(0 < len(p) <= size for p in pieces)


def test_every_file_read_is_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    result = write(tmp_path / "r.json", '{"chapter": 1}')
    endless = "/dev/zero"
    for args in (
        ["commit", endless],
        ["commit", str(result), "--text", endless],
        ["import", "text", endless],
        ["pack", "--chapter", "2", "--outline", endless],
    ):
        assert main(["--project", str(root), *args]) == 2, args
        err = capsys.readouterr().err
        assert endless in err and "上限" in err, (args, err)
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() is None
    with open(endless, "rb") as zeros:
        ran = subprocess.run(
            [sys.executable, "-m", "webnovel", "--project", str(root), "commit", "-"],
            stdin=zeros,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert ran.returncode == 2 and "标准输入" in ran.stderr and "上限" in ran.stderr


def test_import_text_says_when_it_read_another_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    novel = write(tmp_path / "book.txt", NOVEL, "gb18030")
    assert main(["--project", str(root), "import", "text", str(novel)]) == 0
    assert f"按 GB18030 编码读取了 {novel}" in capsys.readouterr().err
    folder = tmp_path / "chapters"
    folder.mkdir()
    write(folder / "1.txt", "第1章 甲\n他說的是我的心。\n", "big5")
    write(folder / "2.txt", "第2章 乙\n正文。\n", "utf-8")
    (folder / "3.txt").symlink_to(tmp_path / "r-outside.txt")
    write(tmp_path / "r-outside.txt", "第3章 外\n外面。\n")
    assert main(["--project", str(root), "import", "text", str(folder)]) == 2
    assert "3.txt" in capsys.readouterr().err
    (folder / "3.txt").unlink()
    appended = ["--project", str(root), "import", "text", str(folder), "--append"]  # 第1章 again
    assert main(appended) == 0
    assert "1 个文件按 BIG5 编码读取" in capsys.readouterr().err


# -- more kinds of text: bad bytes, UTF-16, front matter -------------------------------------

BIG5_NOVEL = "第一章 隕落\n蕭炎望著測驗魔石碑。\n他說的是我的心。\n第二章 鬥之氣\n藥老醒來。\n"


def _broken(text: str, encoding: str, line: int, column: int) -> tuple[bytes, int]:
    """`text` in `encoding` with a byte 0xFF (valid in none of them) put before the character
    at `line`, `column` (both from 1); and that byte's offset."""
    lines = text.split("\n")
    before = "\n".join(lines[: line - 1] + [lines[line - 1][: column - 1]])
    head = before.encode(encoding)
    return head + b"\xff" + text[len(before) :].encode(encoding), len(head)


@pytest.mark.parametrize(
    ("encoding", "text", "shown"),
    [("utf-8", NOVEL, "UTF-8"), ("gb18030", NOVEL, "GB18030"), ("big5", BIG5_NOVEL, "BIG5")],
)
def test_a_bad_byte_is_refused_naming_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str, text: str, shown: str
) -> None:
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    data, offset = _broken(text, encoding, line=2, column=4)
    novel = tmp_path / "book.txt"
    novel.write_bytes(data)
    assert main(["--project", str(root), "import", "text", str(novel)]) == 2
    err = capsys.readouterr().err
    assert f"{novel}：不是 UTF-8" in err
    assert f"按最接近的 {shown} 读，第 2 行第 4 列（字节偏移 {offset}）的字节 0xFF 无法解码" in err
    result = write(tmp_path / "r.json", '{"chapter": 1}')
    assert main(["--project", str(root), "commit", str(result), "--text", str(novel)]) == 2
    assert f"（字节偏移 {offset}）" in capsys.readouterr().err
    folder = tmp_path / "chapters"
    folder.mkdir()
    write(folder / "1.txt", "第1章 甲\n正文。\n")
    (folder / "2.txt").write_bytes(data)
    assert main(["--project", str(root), "import", "text", str(folder)]) == 2
    assert "2.txt：不是 UTF-8" in capsys.readouterr().err
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() is None  # nothing written, not even the good file


def test_a_broken_book_is_not_read_as_gibberish_in_another_encoding(tmp_path: Path) -> None:
    """A Big5 book with one stray byte decodes whole as GB18030, into nonsense: the memory would
    hold a book nobody wrote. It is refused at the stray byte instead."""
    data = BIG5_NOVEL.encode("big5")
    at = data.index("藥".encode("big5"))
    path = tmp_path / "book.txt"
    path.write_bytes(data[:at] + b"\xa0" + data[at:])
    assert "测验" not in path.read_bytes().decode("gb18030")  # it reads whole, as nonsense
    with (
        webnovel.init_project(tmp_path / "b", title="t") as book,
        pytest.raises(webnovel.InvalidInput, match=rf"BIG5 读，第 5 行第 1 列（字节偏移 {at}）"),
    ):
        book.import_text(path)


@pytest.mark.parametrize(
    ("bom", "codec", "shown"),
    [
        (b"\xff\xfe", "utf-16-le", "UTF-16LE"),
        (b"\xfe\xff", "utf-16-be", "UTF-16BE"),
    ],
)
def test_utf16_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bom: bytes, codec: str, shown: str
) -> None:
    """What Windows Notepad saves as "Unicode": accepted, and said."""
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    novel = tmp_path / "book.txt"
    novel.write_bytes(bom + NOVEL.replace("\n", "\r\n").encode(codec))
    assert main(["--project", str(root), "import", "text", str(novel), "--format", "json"]) == 0
    out = capsys.readouterr()
    assert f"按 {shown} 编码读取了 {novel}" in out.err
    report = json.loads(out.out)
    assert report["committed"] == 5 and report["encodings"] == {shown: 1}
    with webnovel.open_project(root) as book:
        assert book.search("魔石碑")[0].chapter == 2
        assert book.stored_commit(2)["text"].startswith("\u3000\u3000萧炎望着测验魔石碑")
    text = tmp_path / "ch6.txt"
    text.write_bytes(bom + "林砚走进青云宗。".encode(codec))
    result = write(tmp_path / "r.json", '{"chapter": 6}')
    assert main(["--project", str(root), "commit", str(result), "--text", str(text)]) == 0
    assert f"按 {shown} 编码读取了 {text}" in capsys.readouterr().err
    with webnovel.open_project(root) as book:
        assert book.stored_commit(6)["text"] == "林砚走进青云宗。"
    folder = tmp_path / "chapters"
    folder.mkdir()
    (folder / "1.txt").write_bytes(bom + "第1章 甲\n正文。\n".encode(codec))
    write(folder / "2.txt", "第2章 乙\n正文。\n")
    args = ["--project", str(root), "import", "text", str(folder), "--dry-run"]
    assert main([*args, "--format", "json"]) == 0
    out = capsys.readouterr()
    assert f"1 个文件按 {shown} 编码读取" in out.err
    assert json.loads(out.out)["encodings"] == {shown: 1, "UTF-8": 1}
    cut = bom + "第一章\n林砚".encode(codec) + b"\x00"  # half a character at the end
    novel.write_bytes(cut)
    assert main(["--project", str(root), "import", "text", str(novel)]) == 2
    err = capsys.readouterr().err
    assert f"开头的字节序标记（BOM）表明是 {shown}" in err
    assert f"第 2 行第 3 列（字节偏移 {len(cut) - 1}）" in err


def test_utf8_with_a_byte_order_mark_is_utf8(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_bytes(b"\xef\xbb\xbf" + NOVEL.encode("utf-8"))
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        report = book.import_text(path)
        assert report.encodings == {"UTF-8": 1} and report.warnings == []
        assert report.chapters[0].title == "楔子"


FRONT_MATTER = """《斗破苍穹》
作者：天蚕土豆

内容简介：
　　这里是属于斗气的世界。萧炎终成斗帝。

"""


def test_front_matter_is_kept_with_the_first_chapter_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A title page and a 简介 are no chapter (第一章 stays chapter 1, and the 简介's ending
    must not enter the memory of chapter 1), but they are kept and said."""
    root = tmp_path / "b"
    webnovel.init_project(root, title="t").close()
    body = NOVEL.split("\n", 3)[3].replace("楔子\n　　三十年河东，三十年河西。\n\n", "")
    body = body.replace("第二卷 迦南学院\n", "第二卷 迦南学院\n本卷讲萧炎的学院生活。\n")
    novel = write(tmp_path / "book.txt", FRONT_MATTER + body)
    args = ["--project", str(root), "import", "text", str(novel)]
    assert main([*args, "--dry-run", "--format", "text"]) == 0
    dry = capsys.readouterr().out
    assert "第1章《陨落的天才》之前有 36 字不属于任何章节（首行「《斗破苍穹》」）" in dry
    assert "将随第1章保存为章前内容" in dry
    assert main([*args, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["chapters"][0] == {
        "chapter": 1,
        "title": "陨落的天才",
        "volume": "第一卷 落魄少年",
        "chars": len("萧炎望着测验魔石碑，斗之力，三段。萧战叹了口气。"),  # its word_count
    }
    assert report["front_matter"] == [
        {
            "chapter": 1,
            "title": "陨落的天才",
            "chars": 36,
            "first_line": "《斗破苍穹》",
            "kept_in": "chapter_meta.front_matter",
        },
        {
            "chapter": 4,
            "title": "第3节 新的开始",  # chapter 4: the source's own number stays
            "chars": 11,
            "first_line": "本卷讲萧炎的学院生活。",
            "kept_in": "chapter_meta.front_matter",
        },
    ]
    with webnovel.open_project(root) as book:
        first = book.stored_commit(1)
        assert first["result"]["chapter_meta"]["front_matter"] == FRONT_MATTER.strip()
        assert "斗帝" not in first["text"] and book.search("斗帝") == []
        assert "学院生活" not in book.stored_commit(4)["text"]
        assert "学院生活" not in book.stored_commit(3)["text"]
    assert main([*args, "--format", "text"]) == 0  # again: unchanged, and said again
    out = capsys.readouterr().out
    assert "未变化 4 章" in out and "已随第1章保存为章前内容" in out


def test_front_matter_in_a_chapter_file_and_through_extraction(tmp_path: Path) -> None:
    from webnovel.extraction.merge import merge_with_stored
    from webnovel.memory.write.import_shape import is_minimal

    folder = tmp_path / "chapters"
    folder.mkdir()
    write(folder / "1.txt", "作者的话：求月票！\n第1章 开端\n林砚醒来。\n")
    write(folder / "2.txt", "第2章 继续\n林砚下山。\n")
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        report = book.import_text(folder)
        assert [f.chapter for f in report.front_matter] == [1]
        assert report.front_matter[0].first_line == "作者的话：求月票！"
        stored = book.stored_commit(1)["result"]
        assert stored["chapter_meta"]["front_matter"] == "作者的话：求月票！"
        assert book.stored_commit(1)["text"] == "林砚醒来。"
    assert is_minimal(stored)
    marks = {"model": "m", "prompt_version": "1"}
    merged = merge_with_stored({"chapter": 1, "summary": "林砚醒来"}, stored, 1, marks)
    assert merged["chapter_meta"]["front_matter"] == "作者的话：求月票！"  # extraction keeps it


def test_text_after_a_last_volume_heading_is_kept() -> None:
    chapters, warnings = split_chapters("第一章 甲\n正文。\n第二卷 完\n后记：感谢读者。\n")
    assert chapters[-1].text == "正文。\n\n第二卷 完\n后记：感谢读者。"
    assert "最后一个卷标题之后没有章节" in warnings[0]


def test_the_report_is_a_value_whose_json_keeps_its_two_shapes(tmp_path: Path) -> None:
    path = write(tmp_path / "book.txt", NOVEL)
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        planned = book.import_text(path, dry_run=True)
        assert planned.dry_run and "unchanged" not in planned.to_dict()  # nothing was written
        done = book.import_text(path)
        assert not done.dry_run and done.to_dict()["unchanged"] == 0
        assert "candidate_names" not in done.to_dict()
        assert done.committed == 5
