"""A received book's `index.db` is made by whoever sent it: a trigger, a view standing for a
table, a dropped table, deleted migration rows, a commit sequence that is not a number, or a
file that is not a database at all. Each is refused on open in one sentence that says what is
wrong and what can recover it, nothing in it runs, and `rebuild` makes the file anew from the
commit log rows it still holds."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import DamagedBook

from cli_runner import run_cli

CHAPTERS = [
    {"chapter": 1, "entities_new": [{"id": "linyan", "name": "林砚", "type": "角色"}]},
    {
        "chapter": 2,
        "state_changes": [{"entity_id": "linyan", "field": "location", "new": "青云山"}],
    },
]


def received(tmp_path: Path, *crafting: str) -> Path:
    """A two-chapter book whose index.db the sender then changed with `crafting` (SQL)."""
    root = tmp_path / "book"
    with webnovel.init_project(root, title="收到的书") as book:
        for result in CHAPTERS:
            book.commit(result)
    conn = sqlite3.connect(root / ".webnovel" / "index.db", isolation_level=None)
    for statement in crafting:
        conn.execute(statement)
    conn.close()
    return root


def log_rows(root: Path) -> int:
    conn = sqlite3.connect(root / ".webnovel" / "index.db.damaged")
    try:
        return int(conn.execute("SELECT COUNT(*) FROM commits").fetchone()[0])
    finally:
        conn.close()


def refused(root: Path, *words: str) -> str:
    """The one sentence a command on the book answers with (exit 1, no traceback)."""
    ran = run_cli("--project", str(root), *words)
    assert ran.returncode == 1, ran
    assert "Traceback" not in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1
    return ran.stderr


def rebuilt(root: Path) -> dict[str, object]:
    """`rebuild` recovers the book; its answers are the book's own again."""
    ran = run_cli("--project", str(root), "rebuild", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    summary = json.loads(ran.stdout)
    with webnovel.open_project(root) as book:
        assert book.fact("林砚", "location").value == "青云山"
        assert book.book["title"] == "收到的书"
        assert book.commit_seq() == 2
        objects = book.storage.conn.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')"
        ).fetchall()
        assert objects == []
        book.commit({"chapter": 3, "summary": "第三章"})  # and takes commits again
        assert book.latest_chapter() == 3
    recovered = summary["recovered"]
    assert isinstance(recovered, dict)
    assert recovered["commits_kept"] == 2 and recovered["commits_skipped"] == 0
    assert Path(str(recovered["index_kept_as"])).is_file()
    return recovered


def test_a_trigger_is_refused_before_it_can_run(tmp_path: Path) -> None:
    root = received(
        tmp_path, "CREATE TRIGGER wipe AFTER INSERT ON commits BEGIN DELETE FROM commits; END"
    )
    draft = tmp_path / "ch3.json"
    draft.write_text(json.dumps({"chapter": 3}), encoding="utf-8")
    said = refused(root, "commit", str(draft))
    assert "触发器 wipe" in said and "webnovel rebuild" in said
    rebuilt(root)
    assert log_rows(root) == 2  # the trigger never ran: the sender's file still holds the log


def test_a_view_standing_for_a_table_is_refused(tmp_path: Path) -> None:
    root = received(
        tmp_path,
        "DROP TABLE entities",
        "CREATE VIEW entities AS SELECT 'x' AS id, '秦桧' AS name, NULL AS type, NULL AS tier, "
        "NULL AS description, 0 AS is_protagonist, 0 AS tentative, 1 AS intro_chapter, "
        "1 AS first_chapter, 1 AS last_chapter",
    )
    said = refused(root, "entities")
    assert "视图 entities" in said
    rebuilt(root)


def test_a_dropped_table_is_named(tmp_path: Path) -> None:
    root = received(tmp_path, "DROP TABLE versions")
    assert "表 versions 不见了" in refused(root, "fact", "林砚", "location")
    rebuilt(root)


def test_deleted_migration_rows_are_named(tmp_path: Path) -> None:
    root = received(tmp_path, "DELETE FROM schema_migrations")
    said = refused(root, "stats")
    assert "迁移 0001_core 的记录被删掉了" in said
    rebuilt(root)


def test_a_commit_sequence_that_is_not_a_number(tmp_path: Path) -> None:
    root = received(tmp_path, "UPDATE meta SET value = 'abc' WHERE key = 'commit_seq'")
    assert "'abc'" in refused(root, "resume")
    rebuilt(root)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    root = received(tmp_path)
    index = root / ".webnovel" / "index.db"
    for side in ("-wal", "-shm"):
        Path(f"{index}{side}").unlink(missing_ok=True)
    index.write_bytes(b"not a database, only words " * 400)
    said = refused(root, "stats")
    assert "不是完好的 SQLite 数据库" in said and "无法恢复" in said
    # rebuild says the same, and leaves the file as it was
    assert refused(root, "rebuild") == said
    assert index.read_bytes().startswith(b"not a database")


def test_rebuild_keeps_the_readable_log_rows_and_leaves_out_the_rest(tmp_path: Path) -> None:
    root = received(
        tmp_path,
        "CREATE VIEW spy AS SELECT * FROM commits",
        "INSERT INTO commits (commit_id, chapter, result_json, text, recorded_at) "
        "VALUES ('bad', 'three', '{}', NULL, 'then')",
        "INSERT INTO commits (commit_id, chapter, result_json, text, recorded_at) "
        "VALUES ('deep', 4, '" + "[" * 5000 + "]" * 5000 + "', NULL, 'then')",
    )
    ran = run_cli("--project", str(root), "rebuild", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    recovered = json.loads(ran.stdout)["recovered"]
    assert (recovered["commits_kept"], recovered["commits_skipped"]) == (2, 2)
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() == 2


def test_the_python_api_raises_the_same_error(tmp_path: Path) -> None:
    root = received(tmp_path, "DROP TABLE scenes")
    with pytest.raises(DamagedBook) as raised:
        webnovel.open_project(root)
    assert raised.value.recoverable
    assert webnovel.book.recover_book(root) is not None
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() == 2
    assert webnovel.book.recover_book(root) is None  # a sound book is left alone


def test_a_book_at_an_older_migration_is_checked_against_those_it_records(
    tmp_path: Path,
) -> None:
    """The check compares with the migrations the file records: a book made before the latest
    ones is brought up to date as before, and one with a trigger is refused all the same."""
    from webnovel.memory.store.migrations import MIGRATIONS, migrate

    root = tmp_path / "book"
    with webnovel.init_project(root, title="旧书"):
        pass
    index = root / ".webnovel" / "index.db"
    for side in ("", "-wal", "-shm"):
        Path(f"{index}{side}").unlink(missing_ok=True)
    conn = sqlite3.connect(index, isolation_level=None)
    migrate(conn, MIGRATIONS[:3])
    conn.execute("CREATE TRIGGER stamp AFTER INSERT ON meta BEGIN DELETE FROM meta; END")
    conn.close()
    assert "触发器 stamp" in refused(root, "stats")
    conn = sqlite3.connect(index, isolation_level=None)
    conn.execute("DROP TRIGGER stamp")
    conn.close()
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() is None
        names = {r[0] for r in book.storage.conn.execute("SELECT name FROM schema_migrations")}
    assert names == {name for name, _ in MIGRATIONS}


def test_a_damaged_vectors_db_is_refused_and_cut_anew_by_rebuild(tmp_path: Path) -> None:
    root = received(tmp_path)
    vectors = root / ".webnovel" / "vectors.db"
    conn = sqlite3.connect(vectors, isolation_level=None)
    conn.execute("CREATE TRIGGER spill AFTER INSERT ON chunks BEGIN DELETE FROM vectors; END")
    conn.close()
    assert "触发器 spill" in refused(root, "search", "青云山")
    ran = run_cli("--project", str(root), "rebuild", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    assert Path(json.loads(ran.stdout)["recovered"]["vectors_kept_as"]).is_file()
    ran = run_cli("--project", str(root), "search", "青云山", "--format", "json")
    assert ran.returncode == 0, ran.stderr


def test_a_trigger_in_the_answer_cache_is_refused(tmp_path: Path) -> None:
    from webnovel.extraction.answer_cache import AnswerCache

    path = tmp_path / "answers.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("CREATE TRIGGER boom AFTER INSERT ON t BEGIN DELETE FROM t; END")
    conn.close()
    with pytest.raises(DamagedBook, match="删掉即可"):
        AnswerCache(path)


def test_a_mangled_schema_whose_error_is_not_utf8_is_said_in_one_sentence(
    tmp_path: Path,
) -> None:
    """SQLite's own error quotes the mangled definition, whose bytes are not UTF-8: Python
    raises UnicodeDecodeError, not sqlite3.Error."""
    root = received(tmp_path)
    index = root / ".webnovel" / "index.db"
    for side in ("-wal", "-shm"):
        assert not Path(f"{index}{side}").exists() or Path(f"{index}{side}").stat().st_size == 0
    data = index.read_bytes()
    at = data.index(b"ON entities(first_chapter)")
    index.write_bytes(data[:at] + b"ON entities(first_chapte\xf5)" + data[at + 26 :])
    said = refused(root, "stats")
    assert "不是完好的 SQLite 数据库" in said


def test_text_that_is_not_utf8_is_said_and_its_log_row_left_out(tmp_path: Path) -> None:
    """A flipped byte in a table's name (sqlite_master cannot be read as text) is refused in one
    sentence; a log row whose text is not UTF-8 is left out by rebuild and counted, the other
    rows kept."""
    root = received(tmp_path, "UPDATE commits SET text = CAST(x'e6e7f5' AS TEXT) WHERE chapter = 2")
    index = root / ".webnovel" / "index.db"
    data = index.read_bytes()
    at = data.index(b"CREATE TABLE timeline_events")
    index.write_bytes(data[:at] + b"CREATE TABLE timeline_\xf5vents" + data[at + 28 :])
    assert "不是完好的 SQLite 数据库" in refused(root, "stats")
    ran = run_cli("--project", str(root), "rebuild", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    recovered = json.loads(ran.stdout)["recovered"]
    assert (recovered["commits_kept"], recovered["commits_skipped"]) == (1, 1)
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() == 1


def test_a_damaged_page_found_by_a_query_is_said_and_rebuild_recovers_it(tmp_path: Path) -> None:
    """The schema is sound, a derived table's page is not: found only when a query reads it,
    said in one sentence then, and found by rebuild's check of every page."""
    root = received(tmp_path)
    index = root / ".webnovel" / "index.db"
    conn = sqlite3.connect(index)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    (root_page,) = conn.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'versions'"
    ).fetchone()
    conn.close()
    data = bytearray(index.read_bytes())
    start = (root_page - 1) * page_size
    data[start : start + page_size] = b"\xff" * page_size
    index.write_bytes(bytes(data))
    said = refused(root, "fact", "林砚", "location")
    assert "webnovel rebuild" in said
    recovered = rebuilt(root)
    assert "malformed" in str(recovered["problem"]) or "corrupt" in str(recovered["problem"])


def test_a_name_in_the_file_cannot_write_to_the_terminal(tmp_path: Path) -> None:
    root = received(
        tmp_path, 'CREATE TRIGGER "x\x1b[2J\nline" AFTER INSERT ON meta BEGIN DELETE FROM meta; END'
    )
    said = refused(root, "stats")
    assert "\x1b" not in said and "x [2J line" in said
