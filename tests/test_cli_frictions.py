"""A new user's first afternoon (issue 42): each friction found, as the user met it on the
command line, answered in words that help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters

from cli_runner import run_cli


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("frictions") / "demo-book"
    with webnovel.init_project(root, title="青灯照剑", genre="仙侠") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
    return root


def test_the_words_of_a_search_are_one_question(demo: Path) -> None:
    two = run_cli("--project", str(demo), "search", "林砚", "断刀", "--top-k", "3")
    assert two.returncode == 0, two.stderr
    one = run_cli("--project", str(demo), "search", "林砚 断刀", "--top-k", "3")
    assert json.loads(two.stdout) == json.loads(one.stdout) != []


def test_a_mistyped_command_suggests_the_close_one() -> None:
    ran = run_cli("fatc")
    assert ran.returncode == 2
    assert "没有命令 fatc（是否指 fact？）" in ran.stderr
    assert "'books', 'copy'" not in ran.stderr  # not the 35 commands burying the hint


def test_a_global_option_after_the_command_says_where_it_goes(demo: Path) -> None:
    ran = run_cli("fact", "林砚", "境界", "--project", str(demo))
    assert ran.returncode == 2
    assert "无法识别的参数" in ran.stderr
    assert "--project 是整条命令的选项，要写在命令之前" in ran.stderr


def test_an_as_of_past_the_end_is_said(demo: Path) -> None:
    text = run_cli(
        "--project", str(demo), "fact", "林砚", "境界", "--as-of", "99", "--format", "text"
    )
    assert text.returncode == 0
    assert "本书最新只到第12章" in text.stderr and "第99章" in text.stderr
    assert "本书最新只到" not in text.stdout
    data = json.loads(
        run_cli("--project", str(demo), "fact", "林砚", "境界", "--as-of", "99").stdout
    )
    assert data["beyond_end"] == {"asked": 99, "latest_chapter": 12}
    within = run_cli("--project", str(demo), "fact", "林砚", "境界", "--as-of", "12")
    assert "beyond_end" not in json.loads(within.stdout) and within.stderr == ""


def test_a_pack_past_the_end_is_said(demo: Path) -> None:
    far = run_cli("--project", str(demo), "pack", "--chapter", "200")
    assert json.loads(far.stdout)["beyond_end"] == {"asked": 200, "latest_chapter": 12}
    assert "第200章的记忆包按全书末尾（第12章）组装" in far.stderr
    nxt = run_cli("--project", str(demo), "pack", "--chapter", "13")
    assert nxt.stderr == "" and "beyond_end" not in json.loads(nxt.stdout)


def test_an_imported_chapters_ending_passage_is_said_in_chinese(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="t") as book:
        book.import_text(sample_book_dir() / "chapters")
    ran = run_cli("--project", str(tmp_path / "book"), "chapter", "3", "--format", "text")
    assert "结尾：原文：" in ran.stdout and "passage" not in ran.stdout


def test_an_entity_type_filter_takes_the_types_other_words(demo: Path) -> None:
    people = run_cli("--project", str(demo), "entities", "--type", "角色")
    assert json.loads(people.stdout)
    for word in ("人物", "person"):
        ran = run_cli("--project", str(demo), "entities", "--type", word)
        assert json.loads(ran.stdout) == json.loads(people.stdout), word
    sects = run_cli("--project", str(demo), "entities", "--type", "门派")
    assert {e["type"] for e in json.loads(sects.stdout)} == {"势力"}
    unknown = run_cli("--project", str(demo), "entities", "--type", "bogus")
    assert unknown.returncode == 2 and "类型应为 角色、地点、势力、物品 之一" in unknown.stderr


def test_a_type_of_the_book_s_own_is_listed_not_refused(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="t") as book:
        book.commit(
            {"chapter": 1, "entities_new": [{"id": "青灯", "name": "青灯", "type": "法宝"}]}
        )
    ran = run_cli("--project", str(tmp_path / "book"), "entities", "--type", "法宝")
    assert ran.returncode == 0 and [e["id"] for e in json.loads(ran.stdout)] == ["青灯"]


def test_init_says_what_its_genre_gave(tmp_path: Path) -> None:
    history = run_cli(
        "init", str(tmp_path / "a"), "--title", "史", "--genre", "历史", "--format", "text"
    )
    assert history.returncode == 0
    assert "题材「历史」没有预设的等级阶梯（有预设的：玄幻、仙侠）" in history.stdout
    xianxia = run_cli(
        "init", str(tmp_path / "b"), "--title", "仙", "--genre", "仙侠", "--format", "text"
    )
    assert "境界：炼气 → 筑基 → 金丹" in xianxia.stdout
    data = json.loads(
        run_cli("init", str(tmp_path / "c"), "--title", "史", "--genre", "历史").stdout
    )
    assert data["ladders"] == {}


@pytest.mark.parametrize(
    ("prices", "header"),
    [
        ('{input = 2.0, output = 8.0, currency = "元"}', "费用（元，估）"),
        ("{input = 2.0, output = 8.0}", "费用（未注明币种，估）"),
    ],
)
def test_the_cost_column_names_its_currency(tmp_path: Path, prices: str, header: str) -> None:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t") as book:
        config = book.storage.config_path
        config.write_text(
            config.read_text(encoding="utf-8") + f"\n[llm]\nprices = {prices}\n", encoding="utf-8"
        )
    with webnovel.open_project(root) as book:
        book.import_text(sample_book_dir() / "chapters")
    ran = run_cli("--project", str(root), "extract", "--dry-run", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert header in ran.stdout
    assert ("currency = " in ran.stdout) == ("currency" not in prices)
    data = json.loads(run_cli("--project", str(root), "extract", "--dry-run").stdout)
    assert data["prices"].get("currency") == ("元" if "元" in prices else None)


def test_an_agent_asking_past_the_end_is_told_too(demo: Path) -> None:
    import asyncio

    pytest.importorskip("mcp")
    from mcp import Client

    from webnovel.mcp import create_server

    async def ask() -> tuple[dict[str, object], str]:
        with webnovel.open_project(demo) as book:
            async with Client(create_server(book).lowlevel()) as client:
                fact = await client.call_tool(
                    "get_fact", {"subject": "林砚", "field": "境界", "as_of": 99}
                )
                pack = await client.call_tool(
                    "build_memory_pack", {"chapter": 200, "format": "prompt"}
                )
        return json.loads(fact.content[0].text), pack.content[0].text

    fact, pack = asyncio.run(ask())
    assert fact["beyond_end"] == {"asked": 99, "latest_chapter": 12}
    assert pack.startswith("本书最新只到第12章：第200章的记忆包按全书末尾（第12章）组装")
    assert "以下为截至第12章的记忆" in pack and "截至第199章" not in pack  # its own header too


def test_rename_without_the_new_name_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    """`rename 韩啸` said 「新名字应为非空字符串」, as if a name had been given wrong: it is missing,
    said with the usage, as argparse says a missing argument (exit 2)."""
    root = tmp_path / "book"
    with webnovel.init_project(root, title="寒江") as book:
        book.commit(
            {
                "chapter": 1,
                "summary": "韩啸来访。",
                "entities_new": [{"id": "hanxiao", "name": "韩啸", "type": "角色"}],
            }
        )
    ran = run_cli("--project", str(root), "rename", "韩啸")
    assert ran.returncode == 2
    assert ran.stderr.startswith("用法：webnovel rename"), ran.stderr
    assert "缺少必填参数：new_name" in ran.stderr and "--undo" in ran.stderr
    assert "非空字符串" not in ran.stderr
    given_empty = run_cli("--project", str(root), "rename", "韩啸", "")
    assert given_empty.returncode == 2 and "新名字应为非空字符串" in given_empty.stderr
