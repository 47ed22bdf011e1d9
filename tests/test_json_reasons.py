"""A text that is not JSON is refused saying where and why in the reader's language: the json
module's English reasons are each said from the catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.untrusted.json_limits import why_not_json

from cli_runner import run_cli

BROKEN = [
    ('{"chapter": 1,}', "键名须用双引号"),
    ('{"chapter": 1 "summary": "x"}', "此处缺一个逗号"),
    ('{"chapter" 1}', "键名后缺冒号"),
    ('{"chapter": }', "此处应有一个值"),
    ('{"summary": "未完', "字符串缺少结尾的引号"),
    ('{"chapter": 1} {}', "JSON 结束后还有多余的内容"),
    ('{"summary": "一行\n两行"}', "未转义的控制字符"),
    ('{"summary": "\\q"}', "无效的转义"),
    ('{"summary": "\\u12"}', "无效的转义"),
]


@pytest.mark.parametrize(("text", "said"), BROKEN)
def test_each_reason_the_json_module_gives_is_said_in_chinese(text: str, said: str) -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    assert said in why_not_json(caught.value)


def test_a_broken_file_is_refused_naming_the_place_in_either_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    webnovel.init_project(tmp_path / "书", title="青灯照剑").close()
    (tmp_path / "bad.json").write_text('{"chapter": 1, "summary": "x",}', encoding="utf-8")
    zh = run_cli("--project", "书", "commit", "bad.json", cwd=tmp_path)
    assert zh.returncode == 2
    assert "bad.json 不是有效的 JSON（第 1 行第 31 列：键名须用双引号" in zh.stderr, zh.stderr
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    en = run_cli("--project", "书", "commit", "bad.json", cwd=tmp_path)
    assert "bad.json is not valid JSON (line 1, column 31: a key must be in double" in en.stderr
