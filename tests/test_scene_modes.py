"""Scenes that are not now (回忆, 梦境) and the time a scene states: the one vocabulary that the
pack, review and the story clock read (`scenes[].flashback`, `scenes[].time`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import InvalidChapterResult

from cli_runner import run_cli


def _chapter(scenes: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "chapter": 1,
        "title": "旧梦",
        "summary": "林砚梦见亡父，醒来已是次日清晨。",
        "entities_new": [
            {"id": "linyan", "name": "林砚", "type": "角色"},
            {"id": "linfu", "name": "林父", "type": "角色"},
        ],
        "scenes": scenes,
    }


def test_a_flashback_a_dream_and_a_stated_time_are_kept(tmp_path: Path) -> None:
    scenes = [
        {
            "index": 1,
            "location": "林家旧宅",
            "characters": ["linyan", "linfu"],
            "flashback": True,
            "time": "十年前",
        },
        {"index": 2, "location": "青石镇", "characters": ["linyan"], "flashback": "梦境"},
        {"index": 3, "location": "青石镇", "characters": ["linyan"], "time": "次日清晨"},
        {"index": 4, "location": "后山", "characters": ["linyan"], "闪回": "memory"},
    ]
    with webnovel.init_project(tmp_path / "book", title="青灯") as book:
        book.commit(_chapter(scenes))
        report = book.chapter(1)
    assert [(s.flashback, s.time) for s in report.scenes] == [
        ("flashback", "十年前"),
        ("dream", None),
        (None, "次日清晨"),
        ("flashback", None),
    ]
    text = run_cli("--project", str(tmp_path / "book"), "chapter", "1", "--format", "text")
    assert text.returncode == 0, text.stderr
    assert "1. 〔回忆〕〔十年前〕林砚、林父＠林家旧宅" in text.stdout
    assert "2. 〔梦境〕林砚＠青石镇" in text.stdout
    shown = json.loads(
        run_cli("--project", str(tmp_path / "book"), "chapter", "1", "--format", "json").stdout
    )
    assert shown["scenes"][1]["flashback"] == "dream"
    assert shown["scenes"][2]["time"] == "次日清晨"


def test_a_word_that_is_no_scene_mode_is_refused_with_its_path(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="青灯") as book:
        with pytest.raises(InvalidChapterResult) as refused:
            book.commit(_chapter([{"index": 1, "characters": ["linyan"], "flashback": "白日"}]))
        assert "scenes[0].flashback" in str(refused.value)
        assert "回忆" in str(refused.value) and "梦境" in str(refused.value)
        assert book.stats().counts["commits"] == 0
