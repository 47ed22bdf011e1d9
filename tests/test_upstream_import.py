"""Importing a webnovel-writer v6 project. The fixture under tests/data/upstream-v6/project was
written by that project's own scripts (see make_fixture.py there): its data only. After the
import our book holds what it holds: the same current facts, relations, threads, rules,
chapters, aliases and texts, and each as of the chapter that set it."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidInput
from webnovel.ingest.sample_book import sample_book_dir

from cli_runner import run_cli

FIXTURE = Path(__file__).resolve().parent / "data" / "upstream-v6" / "project"


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    copy = tmp_path / "upstream"
    shutil.copytree(FIXTURE, copy)
    return copy


def held(upstream: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(upstream / ".webnovel" / "index.db")
    conn.row_factory = sqlite3.Row
    return conn


def imported(tmp_path: Path, upstream: Path) -> webnovel.Project:
    plan = webnovel.book.plan_upstream_import(upstream)
    book = webnovel.init_project(tmp_path / "book", title=plan.title, genre=plan.genre)
    report = book.import_upstream(upstream)
    assert report.committed == 4 and report.conflicts == 0, report
    return book


def test_the_imported_book_holds_what_the_upstream_project_holds(
    tmp_path: Path, upstream: Path
) -> None:
    conn = held(upstream)
    with imported(tmp_path, upstream) as book:
        # facts: the latest state change of each field, else the entity's recorded state
        expected: dict[tuple[str, str], str] = {}
        for row in conn.execute("SELECT id, current_json FROM entities"):
            for field, value in json.loads(row["current_json"]).items():
                expected[(row["id"], field)] = value
        for row in conn.execute(
            "SELECT entity_id, field, new_value FROM state_changes ORDER BY chapter, id"
        ):
            expected[(row["entity_id"], row["field"])] = row["new_value"]
        for (entity_id, field), value in expected.items():
            found = book.fact(entity_id, field)
            assert found is not None and found.value == value, (entity_id, field)

        relations = {
            (r["from_entity"], r["to_entity"], r["type"])
            for r in conn.execute("SELECT from_entity, to_entity, type FROM relationships")
        }
        assert {(e.source, e.target, e.type) for e in book.relation_graph()} == relations

        events = conn.execute("SELECT event_type, subject, chapter FROM story_events").fetchall()
        planted = {
            e["subject"]
            for e in events
            if e["event_type"] in ("open_loop_created", "promise_created")
        }
        closed = {
            e["subject"]
            for e in events
            if e["event_type"] in ("open_loop_closed", "promise_paid_off")
        }
        threads = {t.id: t for t in book.threads("all")}
        assert set(threads) == planted
        assert {i for i, t in threads.items() if t.status == "resolved"} == closed
        assert threads["sect-trial"].resolved_chapter == 4
        rules = {e["subject"] for e in events if e["event_type"] == "world_rule_revealed"}
        assert {r.id for r in book.rules()} == rules

        chapters = {c["chapter"]: c for c in book.chapters()}
        for row in conn.execute("SELECT chapter, title, summary, word_count FROM chapters"):
            mine = chapters[row["chapter"]]
            assert (mine["title"], mine["summary"], mine["word_count"]) == (
                row["title"],
                row["summary"],
                row["word_count"],
            )
        for row in conn.execute("SELECT alias, entity_id FROM aliases"):
            if row["alias"] not in ("protagonist", "主角"):
                assert book.entity(row["alias"]).id == row["entity_id"], row["alias"]
        assert book.entity("林砚").is_protagonist
        hits = book.search("迷心阵", top_k=3)
        assert hits and hits[0].chapter == 3  # the texts came along


def test_each_record_counts_from_its_own_chapter(tmp_path: Path, upstream: Path) -> None:
    with imported(tmp_path, upstream) as book:
        assert book.fact("林砚", "location", as_of=1).value == "青石镇"
        assert book.fact("林砚", "location", as_of=3).value == "落霞山"
        assert book.fact("林砚", "location", as_of=4).value == "玄霄门"
        assert book.fact("林砚", "identity", as_of=3).value == "铁匠铺帮工"
        assert [e.name for e in book.entities(as_of=2)].count("白眉老道") == 0
        assert "白眉老道" in [e.name for e in book.entities(as_of=3)]
        assert book.threads("open", as_of=3)[-1].id == "sect-trial"
        assert "sect-trial" not in {t.id for t in book.threads("open", as_of=4)}
        assert {r.id for r in book.rules(as_of=1)} == {"spirit-vein"}


def test_the_cli_makes_a_new_book_resumes_and_refuses_a_full_one(
    tmp_path: Path, upstream: Path
) -> None:
    run = run_cli

    book = tmp_path / "new-book"
    dry = run("--project", str(book), "import", "upstream", str(upstream), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["counts"]["entities_new"] == 6 and not book.exists()

    first = run("--project", str(book), "import", "upstream", str(upstream))
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert (report["title"], report["committed"]) == ("青灯照剑", 4)
    assert "index.db tool_call_stats" in report["unmapped"]  # what it could not map is said
    again = json.loads(run("--project", str(book), "import", "upstream", str(upstream)).stdout)
    assert (again["committed"], again["unchanged"]) == (0, 4)

    other = tmp_path / "other"
    assert run("init", str(other), "--title", "别的书").returncode == 0
    sample = sample_book_dir() / "results" / "001.json"
    assert run("--project", str(other), "commit", str(sample)).returncode == 0
    refused = run("--project", str(other), "import", "upstream", str(upstream))
    assert refused.returncode == 2 and "里的书已经有章节了" in refused.stderr

    missing = run("--project", str(tmp_path / "x"), "import", "upstream", str(tmp_path))
    assert missing.returncode == 2 and "不是 webnovel-writer 项目" in missing.stderr


@pytest.mark.parametrize("name", ["作品#2", "作品?v=1", "作品 %23 100%"])
def test_a_folder_named_with_uri_characters_is_read_as_it_is(
    tmp_path: Path, upstream: Path, name: str
) -> None:
    """`#`, `?` and `%` are a file URI's own characters: a folder named with them was read as an
    empty database cut at the `#` or `?` (0 entities) and left a stray file beside it."""
    expected = webnovel.book.plan_upstream_import(upstream)
    assert expected.counts["entities_new"] == 6
    named = tmp_path / "under" / name
    shutil.copytree(upstream, named)
    before = (named / ".webnovel" / "index.db").read_bytes()
    plan = webnovel.book.plan_upstream_import(named)
    assert (plan.counts, plan.chapters, plan.texts) == (
        expected.counts,
        expected.chapters,
        expected.texts,
    )
    assert sorted(p.name for p in named.parent.iterdir()) == [name]  # nothing made beside it
    assert (named / ".webnovel" / "index.db").read_bytes() == before  # read only


def test_a_v5_project_without_an_event_log_takes_threads_from_the_scratchpad(
    tmp_path: Path, upstream: Path
) -> None:
    with sqlite3.connect(upstream / ".webnovel" / "index.db") as conn:
        conn.execute("DROP TABLE story_events")
    with imported(tmp_path, upstream) as book:
        contents = {t.content for t in book.threads("all")}
        assert "青灯的来历与周伯的过去" in contents and len(contents) == 5
        assert len(book.rules()) == 5


def test_an_unreadable_project_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="空") as book:
        with pytest.raises(InvalidInput, match="不是 webnovel-writer 项目"):
            book.import_upstream(tmp_path)
        assert book.latest_chapter() is None


def test_links_leading_outside_the_project_are_refused_and_named(
    tmp_path: Path, upstream: Path
) -> None:
    secret = tmp_path / "elsewhere" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    chapter = upstream / "正文" / "第0005章-外面的文件.md"
    chapter.symlink_to(secret)
    book = tmp_path / "book"
    ran = run_cli("--project", str(book), "import", "upstream", str(upstream))
    assert ran.returncode == 2
    assert str(chapter) in ran.stderr and str(secret) in ran.stderr and "链接" in ran.stderr
    assert not book.exists() or webnovel.open_project(book).latest_chapter() is None
    chapter.unlink()
    inside = upstream / "正文" / "第0005章-里面的文件.md"  # a link within the project is fine
    inside.symlink_to(upstream / "正文" / "第0001章-青石镇的铁匠铺.md")
    assert run_cli("--project", str(book), "import", "upstream", str(upstream)).returncode == 0
