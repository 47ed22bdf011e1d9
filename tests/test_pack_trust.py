"""The pack an agent can trust (issue 38), on a serial written the way agents write it
(tests/trust_book.py): memories and dreams move nobody and wake no dead; who knows what is said
only from the records; items are things with one holder; the realm answers to its genre's words;
scenes are held against memory's places."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import trust_book
import webnovel
from webnovel.book.project import Project

from cli_runner import run_cli


@pytest.fixture
def book(tmp_path: Path) -> Iterator[Project]:
    with webnovel.init_project(tmp_path / "book", title="青灯", genre="仙侠") as project:
        yield project


def commit_until(book: Project, last: int) -> None:
    for write in trust_book.BOOK[:last]:
        report = book.commit(write())
        assert report is not None


# -- scenes that are not now ------------------------------------------------------------------


def test_a_dead_friend_in_a_memory_or_a_dream_is_no_dead_man_acting(book: Project) -> None:
    commit_until(book, 3)
    assert not [c for c in book.conflicts() if c.kind == "dead_entity_active"]
    # the same chapter told as the present is the contradiction it always was
    present = trust_book.ch3()
    for scene in present["scenes"]:
        scene.pop("flashback", None)
    review = book.review(present, 3)
    assert [i.entity_id for i in review.issues if i.category == "dead_entity_active"] == ["hanxiao"]


def test_a_memory_shows_as_one_in_the_timeline(book: Project, tmp_path: Path) -> None:
    commit_until(book, 3)
    events = book.timeline(3, 3)
    assert [(e.event, e.flashback) for e in events] == [("韩啸与林砚论剑", "flashback")]
    text = run_cli("--project", str(tmp_path / "book"), "timeline", "--format", "text")
    assert "〔回忆〕韩啸与林砚论剑" in text.stdout, text.stdout + text.stderr
    shown = json.loads(run_cli("--project", str(tmp_path / "book"), "timeline").stdout)
    assert shown[-1]["flashback"] == "flashback"


def test_who_was_in_a_memory_is_not_in_the_scene_now(book: Project) -> None:
    commit_until(book, 3)
    pack = book.build_memory_pack("chapter_write", chapter=4, outline="二人启程")
    in_play = {e["name"]: e["why"] for e in pack.to_dict()["entities_in_play"]}
    assert "苏晚晴" in in_play and "韩啸" not in in_play
