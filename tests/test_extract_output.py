"""`extract`'s output at scale: what every chapter of a run would say alike is said once (the
versions the run replaced, a known person registered again), the help says the code's default,
and a run with nothing to ask needs no endpoint. Against a real chat-completions server on
127.0.0.1 (tests/chat_server.py); nothing is patched.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import webnovel
from test_extract import KEY, imported_book
from test_extract_stuck import book, imported  # noqa: F401 - fixtures
from webnovel.cli.render import extract_text
from webnovel.errors import InvalidConfig
from webnovel.extraction.settings import DEFAULT_CONCURRENCY

from chat_server import Reply, chat_server
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parent.parent
ENV = ("WEBNOVEL_LLM_BASE_URL", "WEBNOVEL_LLM_API_KEY", "WEBNOVEL_LLM_MODEL")


def test_a_whole_run_says_the_versions_it_replaced_in_one_line(
    book: webnovel.Project,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    imported_versions = {n: book.stored_commit(n)["commit_id"] for n in range(1, 13)}
    with chat_server() as server:
        monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        report = book.extract()
    shown = extract_text(report)
    assert "原有另一版本" not in shown  # never one line per chapter
    assert shown.count("本次提取取代了 12 章原有的版本（第1–12章）") == 1
    rows = report.to_dict()["chapters"]
    assert {row["chapter"]: row["replaced"] for row in rows} == imported_versions
    assert not any("原有另一版本" in w for row in rows for w in row["warnings"])


def three_chapters(root: Path) -> Path:
    texts = root / "texts"
    texts.mkdir(parents=True)
    (texts / "001.md").write_text("# 第一回 出世\n\n岳飞生于相州。秦桧在金营。\n")
    (texts / "002.md").write_text("# 第二回 习武\n\n岳飞拜周侗为师。秦桧南归。\n")
    (texts / "003.md").write_text("# 第三回 从军\n\n岳飞从军。秦桧入朝。\n")
    return texts


def cast_again(number: int, body: dict[str, Any]) -> Reply:
    """Chapter 1 introduces 岳飞 and 秦桧; chapters 2 and 3 register 秦桧 again under a new id,
    by the very same name (so no alias is added)."""
    asked = int(re.search(r"请输出第(\d+)章", body["messages"][1]["content"]).group(1))
    result: dict[str, Any] = {"chapter": asked, "summary": f"第{asked}回。"}
    if asked == 1:
        result["entities_new"] = [
            {"id": "yuefei", "name": "岳飞", "type": "角色", "is_protagonist": True},
            {"id": "qinhui", "name": "秦桧", "type": "角色"},
        ]
    else:
        result["entities_new"] = [{"id": "qin-hui", "name": "秦桧", "type": "角色"}]
        result["entities_appeared"] = [{"id": "yuefei"}]
    return Reply(json.dumps(result, ensure_ascii=False))


def test_a_known_person_registered_again_is_said_once_a_run_and_claims_no_alias(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    novel = imported_book(tmp_path / "book", chapters=three_chapters(tmp_path))
    with novel, chat_server(cast_again) as server:
        monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", KEY)
        monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")
        report = novel.extract()
        assert sorted(e.id for e in novel.entities()) == ["qinhui", "yuefei"]
    said = [w for row in report.extracted for w in row.warnings if "qin-hui" in w]
    assert said == ["模型把已知的秦桧（qinhui）另记为 qin-hui：记为出场（本次运行只提一次）"]


def test_the_concurrency_help_says_the_default_the_code_uses() -> None:
    shown = " ".join(run_cli("extract", "--help").stdout.split())
    assert f"默认 [llm] max_concurrency 或 {DEFAULT_CONCURRENCY}）" in shown
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"`--concurrency K` (default {DEFAULT_CONCURRENCY})" in readme


def test_a_run_with_nothing_to_ask_needs_no_endpoint(
    book: webnovel.Project,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with chat_server() as server:
        monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        assert book.extract(1, 1).extracted[0].status == "committed"
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    again = book.extract(1, 1)  # chapter 1 is extracted already: nothing to ask
    assert again.chapters == [] and again.total.requests == 0
    # a request whose answer is not kept needs a model: said with the chapter and how to set one
    with pytest.raises(
        InvalidConfig, match="第1章的回答不在本书已存的回答里.*WEBNOVEL_LLM_BASE_URL"
    ):
        book.extract(1, 1, force=True)
