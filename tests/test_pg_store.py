"""Books in a real PostgreSQL server (WEBNOVEL_TEST_POSTGRES; `.ci/postgres-start` starts one):
a folder's config names the book, the store lists and deletes books, copies between SQLite and
PostgreSQL answer the same, writers serialize per book, and a dropped or killed writer leaves no
half commit."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.book.stores import copy_book, delete_book, list_books
from webnovel.cli.main import main
from webnovel.errors import ProjectExists, ProjectNotFound, StoreUnavailable

from answers import book_answers
from saga import generate_saga
from stores import POSTGRES_URL, book_name, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)
URL = POSTGRES_URL or ""
SAGA = generate_saga(24, seed=8, text_chars=200)
FIELDS = ["realm", "location", "status", "items"]


def answers(book: webnovel.Project) -> dict[str, Any]:
    """What a reader of the book would see: facts, relations, threads and rules as of several
    chapters, the conflicts, the chapters, a search and a pack."""
    latest = book.latest_chapter() or 0
    known = [r[0] for r in book.storage.conn.execute("SELECT id FROM entities ORDER BY id")]
    out = book_answers(book, known[:10], FIELDS, sorted({1, latest // 2, latest}))
    out["conflicts"] = sorted((c.id, c.message, c.status) for c in book.conflicts())
    out["chapters"] = [(c["chapter"], c["title"]) for c in book.chapters()]
    out["search"] = sorted((h.chapter, h.text) for h in book.search("剑", top_k=50))
    out["pack"] = book.build_memory_pack("chapter_write", chapter=latest + 1).to_dict()
    return out


def reference(tmp_path: Path, results: list[dict[str, Any]]) -> dict[str, Any]:
    with webnovel.init_project(tmp_path / "reference", title="r") as book:
        for result in results:
            book.commit(result)
        return answers(book)


# -- a book named by its folder's config -------------------------------------------------------


def test_init_store_writes_the_config_any_copy_of_the_folder_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = book_name()
    first = tmp_path / "machine-a" / "book"
    try:
        code = main(["init", str(first), "--title", "青灯", "--store", URL, "--book", name])
        assert code == 0, capsys.readouterr().err
        config = (first / ".webnovel" / "config.toml").read_text(encoding="utf-8")
        assert f'url = "{URL}"' in config and f'book = "{name}"' in config
        assert not (first / ".webnovel" / "index.db").exists()
        # another machine: only the config travels (kept in git)
        second = tmp_path / "machine-b" / "book"
        (second / ".webnovel").mkdir(parents=True)
        (second / ".webnovel" / "config.toml").write_text(config, encoding="utf-8")
        with webnovel.open_project(first) as a:
            for result in SAGA.results[:3]:
                a.commit(result)
        with webnovel.open_project(second) as b:
            assert b.latest_chapter() == 3
            assert b.book["title"] == "青灯"
            b.commit(SAGA.results[3])
        with webnovel.open_project(first) as a:
            assert a.latest_chapter() == 4
        with pytest.raises(ProjectExists):
            webnovel.init_project(tmp_path / "other", title="x", store=URL, book=name)
    finally:
        delete_book(URL, name)


def test_books_lists_the_store_in_chinese_and_delete_removes_everything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = book_name()
    with init_book("postgresql", tmp_path / "b", title="斗破苍穹", book=name) as book:
        for result in SAGA.results[:2]:
            book.commit(result)
    assert main(["books", "--store", URL, "--format", "text"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(name))
    assert "斗破苍穹" in line and "第2章" in line
    listed = {b["book"]: b for b in list_books(URL)}
    assert listed[name]["commits"] == 2 and listed[name]["size_bytes"] > 0

    assert main(["books", "--store", URL, "--delete", name, "--yes", "--format", "json"]) == 0
    capsys.readouterr()
    assert name not in {b["book"] for b in list_books(URL)}
    schema = listed[name]["schema"]
    import psycopg

    with psycopg.connect(URL) as conn:
        left = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
    assert left is None
    with pytest.raises(ProjectNotFound):
        webnovel.open_project(tmp_path / "b")
    assert main(["books", "--store", URL, "--delete", name, "--yes"]) == 1
    assert "没有名为" in capsys.readouterr().err


def test_copy_sqlite_to_postgresql_and_back_answers_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "source"
    with webnovel.init_project(source, title="源", genre="仙侠") as book:
        for result, text in zip(SAGA.results, SAGA.texts, strict=True):
            book.commit(result, text=text)
        book.retract(9)
        book.commit({**SAGA.results[4], "summary": "改写过的第五章"})
        conflict = next(iter(book.conflicts()), None)
        if conflict is not None:
            book.resolve_conflict(conflict.id, intentional=True, note="有意为之")
        before = answers(book)
    name = book_name()
    try:
        code = main(
            ["--project", str(source), "copy", str(tmp_path / "pg"), "--store", URL,
             "--book", name, "--format", "json"]
        )  # fmt: skip
        assert code == 0, capsys.readouterr().err
        with webnovel.open_project(tmp_path / "pg") as pg:
            assert answers(pg) == before
            assert len(pg.commit_log(limit=100)) == len(SAGA.results) + 2
            assert "[ladders]" in (tmp_path / "pg" / ".webnovel" / "config.toml").read_text(
                encoding="utf-8"
            )
            copy_book(pg, tmp_path / "back")
        with webnovel.open_project(tmp_path / "back") as back:
            assert back.storage.location is None
            assert answers(back) == before
    finally:
        delete_book(URL, name)


def test_a_table_copy_answers_as_a_replay_and_goes_on_committing_alike(tmp_path: Path) -> None:
    """The default copy carries the tables; a replay derives them anew: both answer as the
    source, and the next commits (new sequence numbers and ids) keep them equal."""
    source = tmp_path / "source"
    with webnovel.init_project(source, title="源") as book:
        for result, text in zip(SAGA.results[:16], SAGA.texts, strict=False):
            book.commit(result, text=text)
        book.retract(9)
        book.commit({**SAGA.results[4], "summary": "改写过的第五章"})
    names = [book_name(), book_name()]
    try:
        with webnovel.open_project(source) as book:
            copy_book(book, tmp_path / "tables", store=URL, book=names[0])
            copy_book(book, tmp_path / "replayed", store=URL, book=names[1], replay=True)
        with webnovel.open_project(tmp_path / "tables") as pg:
            copy_book(pg, tmp_path / "back")  # PostgreSQL's tables into SQLite
        folders = [source, tmp_path / "tables", tmp_path / "replayed", tmp_path / "back"]
        for folder in folders:  # each opened anew, so what goes on is what the store holds
            with webnovel.open_project(folder) as book:
                for result, text in zip(SAGA.results[16:], SAGA.texts[16:], strict=True):
                    book.commit(result, text=text)
        seen = []
        for folder in folders:
            with webnovel.open_project(folder) as book:
                log = [(e.seq, e.chapter, e.commit_id) for e in book.commit_log(limit=100)]
                seen.append((answers(book), log))
        assert seen[1] == seen[0]
        assert seen[3] == seen[0]
        assert seen[2][0] == seen[0][0]  # a replay numbers its commits afresh
    finally:
        for name in names:
            delete_book(URL, name)


def test_a_copy_that_fails_half_way_leaves_no_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Until the copy commits, another connection sees the new book empty; a failure mid-COPY
    rolls it back and takes the book away."""
    import psycopg

    from webnovel.memory.store import table_copy

    with init_book("sqlite", tmp_path / "source", title="源") as book:
        for result in SAGA.results[:6]:
            book.commit(result)
        monkeypatch.setattr(table_copy, "ROWS_A_PROGRESS", 10)
        name = book_name()
        seen: list[int] = []

        def stop(done: int, total: int) -> None:
            with psycopg.connect(URL) as other:
                schema = other.execute(
                    "SELECT schema_name FROM public.webnovel_books WHERE book = %s", (name,)
                ).fetchone()
                assert schema is not None
                row = other.execute(f'SELECT COUNT(*) FROM "{schema[0]}".commits').fetchone()
                seen.append(row[0] if row else -1)
            if done >= 40:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            copy_book(book, tmp_path / "copy", store=URL, book=name, progress=stop)
    assert seen and set(seen) == {0}
    assert name not in {b["book"] for b in list_books(URL)}
    assert not (tmp_path / "copy" / ".webnovel").exists()


# -- writers --------------------------------------------------------------------------------------

WORKER = textwrap.dedent(
    """
    import json, sys
    import webnovel
    folder, results = sys.argv[1], json.loads(open(sys.argv[2], encoding="utf-8").read())
    with webnovel.open_project(folder) as book:
        for result in results:
            book.commit(result)
    """
)


def spawn(
    folder: Path, results: list[dict[str, Any]], script: str = WORKER
) -> subprocess.Popen[str]:
    """A process running `script` over the book in `folder` with these chapter results."""
    import json

    given = folder.parent / f"{folder.name}-{random.random()}.json"
    given.write_text(json.dumps(results, ensure_ascii=False), encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, "-c", script, str(folder), str(given)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_three_processes_commit_at_once_two_of_them_into_one_book_and_lose_nothing(
    tmp_path: Path,
) -> None:
    """Three Pythons started at once, on two cores (the README's test command): one commits a
    book of its own, which answers as a book committed alone does; two share another book,
    one the odd chapters and one the even, whose commits serialize (twelve, none lost, and a
    rebuild from the log answers alike). Eight books at once in .ci/run."""
    results = SAGA.results[:12]
    for name in ("own", "shared"):
        init_book("postgresql", tmp_path / name, title=name).close()
    processes = [
        spawn(tmp_path / "own", results),
        spawn(tmp_path / "shared", results[0::2]),
        spawn(tmp_path / "shared", results[1::2]),
    ]
    for process in processes:
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
    expected = reference(tmp_path, results)
    with webnovel.open_project(tmp_path / "own") as book:
        assert book.latest_chapter() == 12
        assert answers(book) == expected
    with webnovel.open_project(tmp_path / "shared") as book:
        assert book.latest_chapter() == 12
        log = book.commit_log(limit=100)
        assert len(log) == 12 and all(entry.counts for entry in log)
        now = answers(book)
        book.rebuild()
        assert answers(book) == now


@pytest.mark.slow
def test_eight_processes_commit_eight_books_at_once_and_lose_nothing(tmp_path: Path) -> None:
    processes_commit_books_at_once(tmp_path, 8)


def processes_commit_books_at_once(tmp_path: Path, books: int) -> None:
    results = SAGA.results[:12]
    folders = []
    for n in range(books):
        init_book("postgresql", tmp_path / f"b{n}", title=f"书{n}").close()
        folders.append(tmp_path / f"b{n}")
    processes = [spawn(folder, results) for folder in folders]
    for process in processes:
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
    expected = reference(tmp_path, results)
    for folder in folders:
        with webnovel.open_project(folder) as book:
            assert book.latest_chapter() == 12
            assert answers(book) == expected


def test_a_writer_waits_for_the_one_holding_the_book_and_says_so(tmp_path: Path) -> None:
    holder = init_book("postgresql", tmp_path / "b", title="t")
    waiting: list[str] = []
    with webnovel.open_project(tmp_path / "b") as other:
        other.on_wait(waiting.append)
        with holder.storage.index.atomic():
            holder.pipeline.commit(SAGA.results[0])
            writer = threading.Thread(target=other.commit, args=(SAGA.results[1],))
            writer.start()
            deadline = time.monotonic() + 30  # until it says it waits, not a fixed pause
            while not waiting and writer.is_alive() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert waiting, "the second writer must say it waits for the first"
            assert writer.is_alive(), "the second writer must wait for the first"
            with webnovel.open_project(tmp_path / "b") as reader:
                assert reader.latest_chapter() is None  # the held commit is not seen half way
        writer.join(60)
        assert not writer.is_alive()
        assert other.latest_chapter() == 2
    holder.close()


def test_a_backend_terminated_mid_commit_rolls_back_and_the_next_commit_succeeds(
    tmp_path: Path,
) -> None:
    import psycopg

    with init_book("postgresql", tmp_path / "b", title="t") as book:
        book.commit(SAGA.results[0])
        index = book.storage.index
        pid = index.conn.raw.info.backend_pid  # type: ignore[union-attr]
        with pytest.raises(StoreUnavailable), index.atomic():  # the store's, not the driver's
            book.pipeline.commit(SAGA.results[1])
            with psycopg.connect(URL, autocommit=True) as killer:
                killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
            book.pipeline.commit(SAGA.results[2])
        assert book.latest_chapter() == 1
        assert book.commit(SAGA.results[1]).status == "committed"
        assert book.latest_chapter() == 2


# -- crashes --------------------------------------------------------------------------------------

LOOPER = textwrap.dedent(
    """
    import json, sys, itertools
    import webnovel
    folder, results = sys.argv[1], json.loads(open(sys.argv[2], encoding="utf-8").read())
    with webnovel.open_project(folder) as book:
        print("open", flush=True)
        for n in itertools.count():
            result = dict(results[n % len(results)])
            result["summary"] = f"第{n}次改写：" + (result.get("summary") or "")
            book.commit(result)
    """
)


@pytest.mark.slow
def test_a_hundred_kills_during_commits_leave_no_half_commit(tmp_path: Path) -> None:
    results = SAGA.results[:10]
    with init_book("postgresql", tmp_path / "b", title="t") as book:
        for result in results:
            book.commit(result)
    rng = random.Random(4)
    kills = 0
    while kills < 100:
        process = spawn(tmp_path / "b", results, LOOPER)
        assert process.stdout is not None
        process.stdout.readline()  # the book is open: from here on it commits, a chapter a time
        time.sleep(rng.uniform(0.05, 0.6))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
    with webnovel.open_project(tmp_path / "b") as book:
        log = book.commit_log(limit=100_000)
        # how many commits fit between kills depends on the machine's load; some always do
        assert len(log) > len(results), "the killed writers committed between kills"
        assert all(entry.counts for entry in log), "every commit wrote its stats with it"
        now = answers(book)
        copy_book(book, tmp_path / "replayed", replay=True)  # a clean replay, into SQLite
    with webnovel.open_project(tmp_path / "replayed") as replayed:
        assert answers(replayed) == now


def test_a_commit_on_another_machine_ends_a_watchers_wait_at_once(tmp_path: Path) -> None:
    """What the dashboard's live refresh waits on: NOTIFY from the commit, not a poll."""
    with init_book("postgresql", tmp_path / "a", title="t") as writer:
        config = (tmp_path / "a" / ".webnovel" / "config.toml").read_text(encoding="utf-8")
        (tmp_path / "b" / ".webnovel").mkdir(parents=True)
        (tmp_path / "b" / ".webnovel" / "config.toml").write_text(config, encoding="utf-8")
        with webnovel.open_project(tmp_path / "b") as watcher:
            assert watcher.wait_for_commit(0.2) is False  # listening, nothing came
            started = time.monotonic()
            timer = threading.Timer(0.5, writer.commit, args=(SAGA.results[0],))
            timer.start()
            assert watcher.wait_for_commit(30) is True
            assert time.monotonic() - started < 10
            timer.join()
            assert watcher.commit_seq() == writer.commit_seq() > 0
