"""`webnovel chapter N` and `Project.chapter`: what happened in chapter N, from chapter N's own
records (a search for 「第三章发生了什么」 once answered with chapters 10, 1 and 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import UnknownChapter
from webnovel.ingest.sample_book import sample_chapters

from cli_runner import run_cli


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("chapter") / "book"
    with webnovel.init_project(root, title="青灯照剑") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result)
    return root


def test_the_report_holds_chapter_nine_and_only_it(sample: Path) -> None:
    with webnovel.open_project(sample) as book:
        report = book.chapter(9)
        assert report.title == "血衣堂主" and report.introduced == ["血衣堂主"]
        assert [s.characters for s in report.scenes][1] == ["林砚", "韩啸", "血衣堂主", "林远山"]
        assert report.scenes[0].location == "黑风谷玄字碑"
        with pytest.raises(TypeError):  # a mapping in 0.x; no longer (read the field by name)
            report.scenes[0]["location"]  # type: ignore[index]
        assert {e.event for e in report.events} == {
            "林砚三剑断韩啸血刀",
            "林远山挣断血煞锁送林砚脱身",
        }
        changed = {(c.subject_name, c.field): (c.before, c.after) for c in report.changes}
        assert changed[("韩啸", "faction")] == ("玄霄门", "血衣堂")
        assert changed[("林砚", "韩啸")] == ("朋友", "仇敌")  # a relation, before and after
        assert {(t.id, t.action) for t in report.threads} == {
            ("hanxiao-secret", "resolve"),
            ("father-rescue", "plant"),
        }
        learned = {(s.who, s.secret) for s in report.secrets if s.who}
        assert ("血衣堂主", "father-alive") in learned
        with pytest.raises(UnknownChapter):
            book.chapter(40)


def test_the_cli_answers_in_text_and_json(sample: Path) -> None:
    text = run_cli("--project", str(sample), "chapter", "3", "--format", "text")
    assert text.returncode == 0, text.stderr
    with webnovel.open_project(sample) as book:
        three = book.chapter(3)
    assert text.stdout.startswith(f"第3章《{three.title}》")
    assert three.summary and three.summary in text.stdout
    for block in ("【场景】", "【事件】", "【变化】", "【伏笔】", "【矛盾】"):
        assert block in text.stdout
    assert "第10章" not in text.stdout.splitlines()[0]
    data = json.loads(run_cli("--project", str(sample), "chapter", "3", "--format", "json").stdout)
    assert data["chapter"] == 3 and data["title"] == three.title
    assert set(data) >= {"summary", "scenes", "events", "changes", "threads", "conflicts"}
    missing = run_cli("--project", str(sample), "chapter", "40")
    assert missing.returncode != 0 and "40" in missing.stderr
