from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import ProjectExists, ProjectNotFound
from webnovel.memory.store.migrations import MIGRATIONS, migrate


def test_migrating_twice_is_a_no_op(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    assert migrate(conn) == [name for name, _ in MIGRATIONS]
    tables = conn.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall()
    assert migrate(conn) == []
    assert conn.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall() == tables


def test_init_creates_the_memory_folder(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="书", genre="玄幻") as book:
        memory = book.root / ".webnovel"
        assert sorted(
            p.name for p in memory.iterdir() if not p.name.endswith(("-wal", "-shm"))
        ) == [
            "config.toml",
            "index.db",
            "memory_scratchpad.json",
            "state.json",
            "vectors.db",
        ]
        assert book.config.ladders["realm"][:3] == ("斗之气", "斗者", "斗师")
        conn = sqlite3.connect(memory / "index.db")
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(ProjectExists):
        webnovel.init_project(tmp_path / "b", title="again")
    with pytest.raises(ProjectNotFound):
        webnovel.open_project(tmp_path / "nowhere")


def test_projections_follow_commits(book: webnovel.Project) -> None:
    book.commit(
        {
            "chapter": 1,
            "summary": "开篇",
            "entities_new": [
                {"id": "a", "name": "甲", "is_protagonist": True, "current": {"realm": "炼气"}},
                {"id": "b", "name": "乙", "current": {"status": "存活"}},
            ],
            "plot_threads": [
                {"id": "p", "kind": "reader_promise", "content": "三年之约", "due_chapter": 2}
            ],
            "world_rules": [{"id": "r", "rule": "灵脉枯竭无法突破", "domain": "修炼"}],
        }
    )
    book.commit(
        {"chapter": 3, "state_changes": [{"entity_id": "乙", "field": "status", "new": "死亡"}]}
    )
    book.flush()
    memory = book.root / ".webnovel"
    state = json.loads((memory / "state.json").read_text(encoding="utf-8"))
    assert state["progress"]["latest_chapter"] == 3
    assert state["protagonist"] == {"id": "a", "name": "甲", "state": {"realm": "炼气"}}
    assert state["risks"]["overdue_count"] == 1
    pad = json.loads((memory / "memory_scratchpad.json").read_text(encoding="utf-8"))
    assert set(pad) == {
        "character_state",
        "story_state",
        "world_rules",
        "timeline",
        "open_loops",
        "reader_promises",
        "active_constraints",
        "meta",
    }
    assert [i["value"] for i in pad["reader_promises"]] == ["三年之约"]
    assert [i["value"] for i in pad["world_rules"]] == ["灵脉枯竭无法突破"]
    constraints = {i["subject"]: i for i in pad["active_constraints"]}
    assert constraints["b"]["value"] == "死亡" and constraints["p"]["overdue"] is True
    assert pad["meta"]["commit_seq"] == state["meta"]["commit_seq"]


def test_stale_projections_are_rebuilt_on_open(tmp_path: Path) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
    state_path = root / ".webnovel" / "state.json"
    state_path.write_text("{", encoding="utf-8")  # as a crash mid-write would leave it
    with webnovel.open_project(root):
        pass
    assert json.loads(state_path.read_text(encoding="utf-8"))["progress"]["latest_chapter"] == 1


def test_a_scratchpad_lost_or_left_behind_is_rebuilt_on_open(tmp_path: Path) -> None:
    """state.json is written after the scratchpad, so its commit sequence vouches for both: a
    scratchpad that failed to be written leaves state.json behind too, and a missing one is
    seen."""
    root = tmp_path / "b"
    memory = root / ".webnovel"
    pad_path, state_path = memory / "memory_scratchpad.json", memory / "state.json"
    with webnovel.init_project(root, title="t") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
    old_pad = pad_path.read_text(encoding="utf-8")
    pad_path.unlink()
    pad_path.mkdir()  # the next rewrite of the scratchpad fails
    with pytest.warns(UserWarning, match="not rewritten"), webnovel.open_project(root) as book:
        book.commit({"chapter": 2, "entities_new": [{"id": "b", "name": "乙"}]})
    pad_path.rmdir()
    pad_path.write_text(old_pad, encoding="utf-8")  # the old one, as a failed write leaves it

    def seqs() -> list[int]:
        return [json.loads(p.read_text())["meta"]["commit_seq"] for p in (pad_path, state_path)]

    with webnovel.open_project(root):
        pass
    assert seqs() == [2, 2]
    pad_path.unlink()
    with webnovel.open_project(root):
        pass
    assert seqs() == [2, 2]


def test_history_is_never_compacted_away(book: webnovel.Project) -> None:
    book.commit({"chapter": 1, "entities_new": [{"id": "a", "name": "甲"}]})
    for n in range(2, 200):
        book.commit(
            {
                "chapter": n,
                "state_changes": [{"entity_id": "a", "field": "location", "new": f"地{n}"}],
                "world_rules": [{"id": f"r{n}", "rule": f"规则{n}"}],
            }
        )
    assert len(book.history("a", "location")) == 198
    assert len(book.rules()) == 198
    assert book.fact("a", "location", as_of=3).value == "地3"


def test_migration_0002_tags_existing_rows(tmp_path: Path) -> None:
    """A book created before the state index gets its open threads and dead tagged."""
    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    from webnovel.memory.store.migrations import statements as _statements

    for statement in _statements(MIGRATIONS[0][1]):
        conn.execute(statement)
    conn.execute("INSERT INTO schema_migrations VALUES ('0001_core', 'then')")
    row = "(?, ?, ?, ?, NULL, ?, 1, NULL, 'active', 1, 'x', 1.0, '[]', 'then')"
    columns = (
        "family, key, subject, field, obj, value_json, valid_from, valid_to, status, "
        "source_chapter, source_type, confidence, evidence_json, recorded_at"
    )
    conn.execute(
        f"INSERT INTO versions ({columns}) VALUES {row}",
        ("thread", "t", "t", "thread", '{"status": "open"}'),
    )
    conn.execute(
        f"INSERT INTO versions ({columns}) VALUES {row}",
        ("fact", "a\x1fstatus", "a", "status", '"死亡"'),
    )
    assert migrate(conn) == [name for name, _ in MIGRATIONS[1:]]
    assert conn.execute("SELECT family, state FROM versions ORDER BY family").fetchall() == [
        ("fact", "dead"),
        ("thread", "open"),
    ]
