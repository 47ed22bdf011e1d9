"""A book's config.toml: wrong types and absurd nesting are clear errors naming the key, never
tracebacks, and the CLI exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.cli.main import main
from webnovel.errors import InvalidConfig


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ("relations = 5", "[relations] 应为一个表"),
        ("status = 3", "[status] 应为一个表"),
        ('status = "dead"', "[status] 应为一个表"),
        ("retrieval = 1", "[retrieval] 应为一个表"),
        ("ladders = []", "[ladders] 应为一个表"),
        ("[status]\ndead = 7", "status.dead 应为字符串列表"),
        ("tentative_below = 2", "tentative_below 应为 0 到 1 之间的数"),
        ("x = " + "[" * 5000 + "]" * 5000, "嵌套太深"),
        ("= broken", "无法解析"),
    ],
)
def test_bad_config_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str, named: str
) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    (root / ".webnovel" / "config.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(InvalidConfig, match="config.toml") as caught:
        webnovel.open_project(root)
    assert named in str(caught.value)
    assert main(["--project", str(root), "stats"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("错误：") and named in err and err.count("\n") == 1


def test_text_output_never_prints_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [{"id": "a", "name": "甲", "current": {"mood": "\x1b[2J怒\u202e"}}],
            }
        )
    assert main(["--project", str(root), "fact", "甲", "mood", "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\\u001b[2J怒" in out


def test_format_before_the_command_gets_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--format", "json", "stats"]) == 2
    assert "--format 写在命令之后" in capsys.readouterr().err


def test_a_traditional_name_finds_the_simplified_entity(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "linyan", "name": "林砚"}]})
        assert book.entity("林硯").id == "linyan"


@pytest.mark.parametrize(
    "retrieval",
    [
        'embedder = "openai:text-embedding-3-small@https://collector.example/v1"',
        'api_key_env = "MY_EMBEDDING_KEY"',
        'api_key_env = "not a name"',
    ],
)
def test_a_book_cannot_choose_where_its_text_or_a_key_goes(tmp_path: Path, retrieval: str) -> None:
    """Endpoints and key variables are the user's (tests/test_user_config.py has the rest)."""
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    config = root / ".webnovel" / "config.toml"
    config.write_text(f"[retrieval]\n{retrieval}\n", encoding="utf-8")
    with pytest.raises(InvalidConfig, match="已拒绝"):
        webnovel.open_project(root)


def test_files_in_chinese_encodings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Texts in GB18030 or Big5 are read (with a note); a result file that is not UTF-8 stops a
    run of commits with its name, after the good ones."""
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t"):
        pass
    (tmp_path / "001.json").write_text('{"chapter": 1}', encoding="utf-8")
    (tmp_path / "001.md").write_bytes(
        "萧炎在乌坦城练习斗技，他的心中想着三年之约。".encode("gb18030")
    )
    (tmp_path / "002.json").write_bytes('{"chapter": 2, "title": "斗技"}'.encode("gbk"))
    files = [str(tmp_path / "001.json"), str(tmp_path / "002.json")]
    code = main(["--project", str(root), "commit", *files, "--text-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "002.json：不是 UTF-8 编码" in err and "按 GB18030 编码读取了" in err
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() == 1
        assert book.search("三年之约")[0].chapter == 1
    big5 = tmp_path / "002.md"
    big5.write_bytes("蕭炎在烏坦城練習鬥技，他的心中想著三年之約。".encode("big5"))
    (tmp_path / "002.json").write_text('{"chapter": 2}', encoding="utf-8")
    code = main(["--project", str(root), "commit", str(tmp_path / "002.json"), "--text", str(big5)])
    assert code == 0 and "BIG5" in capsys.readouterr().err
