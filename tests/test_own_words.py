"""An author who writes a field, a key or a value in Chinese (「境界」, as the README teaches) is
not told on every commit that it became an English key: their own words are how the book is
meant to be written. The JSON still lists each rewrite for agents (docs/contract.md), and a
rewrite that is news (a string chapter number, an English variant) is still said. In English,
an impact marks a published chapter with a space before the mark."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel

from cli_runner import run_cli

INTRODUCED = {
    "chapter": 1,
    "entities_new": [{"id": "lu", "name": "陆青云", "current": {"境界": "炼气"}}],
    "plot_threads": [{"id": "oath", "content": "三年之约", "action": "plant"}],
}
WRITTEN_IN_CHINESE = {
    "chapter": "2",  # news: a string, read as a number
    "状态变化": [{"entity_id": "lu", "field": "境界", "new": "筑基"}],
    "plot_threads": [{"id": "oath", "action": "回收"}],
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "book"
    with webnovel.init_project(folder, title="青冥剑歌") as book:
        book.commit(INTRODUCED)
    (tmp_path / "ch2.json").write_text(
        json.dumps(WRITTEN_IN_CHINESE, ensure_ascii=False), encoding="utf-8"
    )
    return folder


@pytest.mark.parametrize("command", ["review", "commit"])
def test_the_author_s_own_chinese_words_are_no_news(root: Path, command: str) -> None:
    draft = str(root.parent / "ch2.json")
    text = run_cli("--project", str(root), command, draft, "--format", "text")
    assert text.returncode == 0, text.stderr
    said = text.stdout
    assert "realm" not in said and "state_changes" not in said and "resolve" not in said, said
    assert "境界" not in said and "$.plot_threads" not in said, said
    assert "$.chapter: 「2」 → 2" in said  # a rewrite that is news is still said
    # while the JSON still lists every rewrite, for agents
    ran = run_cli("--project", str(root), command, draft)
    normalized = json.loads(ran.stdout)["normalized"]
    assert "$.状态变化: 「状态变化」 → 「state_changes」" in normalized
    assert "$.state_changes[0].field: 「境界」 → 「realm」" in normalized
    assert "$.plot_threads[0].action: 「回收」 → 「resolve」" in normalized


def test_an_english_impact_marks_a_published_chapter_with_a_space(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with webnovel.open_project(root) as book:
        book.commit(
            {"chapter": 2, "state_changes": [{"entity_id": "lu", "field": "realm", "new": "筑基"}]}
        )
        book.publish(2)
    revised = root.parent / "ch1.json"
    changed = {
        **INTRODUCED,
        "entities_new": [{"id": "lu", "name": "陆青云", "current": {"realm": "金丹"}}],
    }
    revised.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    ran = run_cli("--project", str(root), "impact", str(revised), "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "chapter 1 [published]" in ran.stdout, ran.stdout
