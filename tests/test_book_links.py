"""A received book folder cannot reach outside itself through a symbolic link (docs/security.md,
"Links"): at every path the program reads or writes in a book, a real link to a file outside
the book is refused, naming the link, and the file it points to is neither changed nor read.

Two layers, each tested: a book whose `.webnovel/` holds a link is refused when it is opened
(before SQLite or the config reader touch anything), and the lock and log files are opened
without following a link, so a link made after the book was opened is refused as well."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.errors import LinkRefused
from webnovel.memory.packs import pack_log
from webnovel.memory.packs.memory_pack import MemoryPack
from webnovel.memory.retrieval.background import embed_lock, start_embedding

from cli_runner import run_cli, run_process
from test_retrieval import book_with_embedder

SECRET = "TOP-SECRET-KEY-MATERIAL"
VICTIM = "the author's own notes, not to be touched\n"
CHAPTER_1 = {
    "chapter": 1,
    "title": "入门",
    "summary": "林砚拜入青云宗。",
    "entities_new": [{"id": "linyan", "name": "林砚", "is_protagonist": True}],
}


def _book(tmp_path: Path, embedder: str | None = None) -> Path:
    root = tmp_path / "book"
    if embedder:
        book_with_embedder(root, embedder)
    else:
        webnovel.init_project(root, title="收到的书").close()
    with webnovel.open_project(root) as book:
        book.commit(CHAPTER_1, text="林砚拜入青云宗，山门云雾缭绕。")
    return root


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM, encoding="utf-8")
    return victim


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    return secret


def _link(link: Path, target: Path) -> None:
    link.unlink(missing_ok=True)
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, link)


def _refused(ran: Any, link: Path) -> None:
    """The command failed as bad input, naming the link and where it points, in Chinese."""
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    assert "符号链接" in ran.stderr and str(link) in ran.stderr, ran.stderr
    assert SECRET not in ran.stdout + ran.stderr


# -- .webnovel/: the book is refused when it is opened -------------------------------------------


def test_a_linked_embed_lock_is_not_truncated_by_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's hole: `embed.lock` → victim.txt with `embedder = "hashing"`; an ordinary
    commit used to truncate the victim to a process number."""
    monkeypatch.delenv("WEBNOVEL_EMBED_IN_BACKGROUND", raising=False)
    root = _book(tmp_path, embedder="hashing")
    victim = _victim(tmp_path)
    lock = root / ".webnovel" / "embed.lock"
    _link(lock, victim)
    result = tmp_path / "ch2.json"
    result.write_text(json.dumps({"chapter": 2, "summary": "林砚下山。"}), encoding="utf-8")
    ran = run_cli("--project", str(root), "commit", str(result), "--format", "json")
    assert victim.read_text(encoding="utf-8") == VICTIM
    _refused(ran, lock)


def test_a_linked_embed_log_gets_nothing_appended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_EMBED_IN_BACKGROUND", raising=False)
    root = _book(tmp_path, embedder="hashing")
    victim = _victim(tmp_path)
    log = root / ".webnovel" / "embed.log"
    _link(log, victim)
    result = tmp_path / "ch2.json"
    result.write_text(json.dumps({"chapter": 2, "summary": "林砚下山。"}), encoding="utf-8")
    ran = run_cli("--project", str(root), "commit", str(result), "--format", "json")
    assert victim.read_text(encoding="utf-8") == VICTIM
    _refused(ran, log)


def test_a_linked_pack_log_gets_nothing_appended(tmp_path: Path) -> None:
    root = _book(tmp_path)
    victim = _victim(tmp_path)
    log = root / ".webnovel" / "packs.jsonl"
    _link(log, victim)
    ran = run_cli("--project", str(root), "pack", "--chapter", "2", "--format", "json")
    assert victim.read_text(encoding="utf-8") == VICTIM
    _refused(ran, log)


def test_a_linked_index_gets_none_of_our_tables(tmp_path: Path) -> None:
    """`index.db` → another SQLite file: `stats` used to write 17 tables into it."""
    root = _book(tmp_path)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE mine (x)")
    conn.close()
    index = root / ".webnovel" / "index.db"
    for leftover in (root / ".webnovel").glob("index.db-*"):
        leftover.unlink()
    _link(index, other)
    ran = run_cli("--project", str(root), "stats", "--format", "json")
    with sqlite3.connect(other) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    conn.close()
    assert tables == ["mine"]
    _refused(ran, index)


@pytest.mark.parametrize(
    "name",
    [
        "config.toml",
        "index.db-wal",
        "index.db-shm",
        "vectors.db",
        "state.json",
        "memory_scratchpad.json",
        "answers.db",
        "lexicon/meta.json",
        "packs.jsonl.tmp",
    ],
)
def test_any_link_in_the_memory_folder_refuses_the_book(tmp_path: Path, name: str) -> None:
    root = _book(tmp_path)
    secret = _secret(tmp_path)
    link = root / ".webnovel" / name
    _link(link, secret)
    ran = run_cli("--project", str(root), "fact", "林砚", "location", "--format", "json")
    _refused(ran, link)
    with pytest.raises(LinkRefused, match="符号链接"):
        webnovel.open_project(root)
    assert secret.read_text(encoding="utf-8") == SECRET


def test_a_linked_memory_folder_refuses_the_book(tmp_path: Path) -> None:
    """`.webnovel` itself a link to another book's memory: refused, not opened there."""
    elsewhere = _book(tmp_path / "elsewhere")
    root = tmp_path / "book"
    root.mkdir()
    _link(root / ".webnovel", elsewhere / ".webnovel")
    ran = run_cli("--project", str(root), "stats", "--format", "json")
    _refused(ran, root / ".webnovel")


# -- lock and log files: opened without following a link ----------------------------------------


def test_the_embed_lock_is_never_opened_through_a_link(tmp_path: Path) -> None:
    """A link made after the book was opened (the check at open cannot see it)."""
    memory = tmp_path / "memory"
    memory.mkdir()
    victim = _victim(tmp_path)
    _link(memory / "embed.lock", victim)
    with pytest.raises(LinkRefused, match="embed.lock"), embed_lock(memory, wait=False):
        pass
    assert victim.read_text(encoding="utf-8") == VICTIM


def test_the_embed_log_is_never_opened_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_EMBED_IN_BACKGROUND", raising=False)
    memory = tmp_path / "memory"
    memory.mkdir()
    victim = _victim(tmp_path)
    _link(memory / "embed.log", victim)
    with pytest.raises(LinkRefused, match="embed.log"):
        start_embedding(tmp_path / "no-book", memory)
    assert victim.read_text(encoding="utf-8") == VICTIM


def test_the_pack_log_is_never_opened_through_a_link(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    log = tmp_path / "packs.jsonl"
    _link(log, victim)
    pack = MemoryPack(
        task="chapter_write", chapter=2, budget_tokens=100, used_tokens=10, sections=[]
    )
    with pytest.raises(LinkRefused, match="packs.jsonl"):
        pack_log.record(log, pack, 1.0)
    with pytest.raises(LinkRefused, match="packs.jsonl"):
        pack_log.latest_by_chapter(log)
    assert victim.read_text(encoding="utf-8") == VICTIM


def test_a_pipe_in_the_memory_folder_refuses_the_book_at_once(tmp_path: Path) -> None:
    """`config.toml` as a pipe (an archive can hold one): the first read of it used to wait
    forever. In a real process, so that a hang fails the test instead of stopping the run."""
    root = _book(tmp_path)
    config = root / ".webnovel" / "config.toml"
    config.unlink()
    os.mkfifo(config)
    ran = run_process("--project", str(root), "stats", "--format", "json")
    assert ran.returncode == 2 and "不是普通文件" in ran.stderr and str(config) in ran.stderr


def test_a_dashboard_page_never_appends_through_a_link_made_while_it_runs(tmp_path: Path) -> None:
    """Any web page can make the browser GET /api/query/pack; with packs.jsonl linked after the
    dashboard opened the book, that GET used to append to the linked file."""
    pytest.importorskip("starlette")
    from dashboard_server import running_dashboard

    root = _book(tmp_path)
    victim = _victim(tmp_path)
    with running_dashboard(root) as board:
        _link(root / ".webnovel" / "packs.jsonl", victim)
        answer = board.get("/api/query/build_memory_pack?task=chapter_write&chapter=2")
    assert victim.read_text(encoding="utf-8") == VICTIM
    assert answer.status == 400 and "符号链接" in json.loads(answer.body)["error"]


def test_a_pipe_for_a_lock_or_log_is_refused_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_EMBED_IN_BACKGROUND", raising=False)
    memory = tmp_path / "memory"
    memory.mkdir()
    os.mkfifo(memory / "embed.lock")
    with pytest.raises(LinkRefused, match="不是普通文件"), embed_lock(memory, wait=False):
        pass
    other = tmp_path / "other"
    other.mkdir()
    os.mkfifo(other / "embed.log")  # written only: a pipe no one reads
    with pytest.raises(LinkRefused, match="embed.log.*不是普通文件"):
        start_embedding(tmp_path / "no-book", other)


# -- the book's own folders: outlines, and texts found in a folder -------------------------------


def test_a_linked_outline_never_reaches_the_pack(tmp_path: Path) -> None:
    root = _book(tmp_path)
    link = root / "outlines" / "002.md"
    _link(link, _secret(tmp_path))
    ran = run_cli("--project", str(root), "pack", "--chapter", "2", "--format", "prompt")
    _refused(ran, link)


def test_a_linked_outlines_folder_never_reaches_the_pack(tmp_path: Path) -> None:
    root = _book(tmp_path)
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "002.md").write_text(SECRET, encoding="utf-8")
    _link(root / "outlines", secrets)
    ran = run_cli("--project", str(root), "pack", "--chapter", "2", "--format", "prompt")
    _refused(ran, root / "outlines")


def test_a_linked_outline_never_reaches_an_agent_over_mcp(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import Client

    from webnovel.mcp import create_server

    root = _book(tmp_path)
    _link(root / "outlines" / "002.md", _secret(tmp_path))

    async def ask() -> Any:
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                request = {"task": "chapter_write", "chapter": 2, "format": "prompt"}
                return await client.call_tool("build_memory_pack", request)

    result = asyncio.run(ask())
    said = json.dumps([c.model_dump() for c in result.content], ensure_ascii=False)
    assert result.is_error and "符号链接" in said
    assert SECRET not in said


def test_a_linked_text_in_the_text_dir_is_refused(tmp_path: Path) -> None:
    root = _book(tmp_path)
    results, texts = tmp_path / "results", tmp_path / "texts"
    results.mkdir()
    for chapter in (2, 3):
        summary = {"chapter": chapter, "summary": f"第{chapter}章的事。"}
        (results / f"ch{chapter}.json").write_text(json.dumps(summary), encoding="utf-8")
    (texts / "ch2.md").parent.mkdir()
    (texts / "ch2.md").write_text("林砚下山。", encoding="utf-8")
    _link(texts / "ch3.md", _secret(tmp_path))
    files = [str(results / "ch2.json"), str(results / "ch3.json")]
    ran = run_cli("--project", str(root), "commit", *files, "--text-dir", str(texts))
    _refused(ran, texts / "ch3.md")
    with webnovel.open_project(root) as book:
        assert book.search(SECRET) == []
        assert all(SECRET not in hit.text for hit in book.search("TOP SECRET KEY MATERIAL"))


def test_a_link_the_user_typed_is_theirs(tmp_path: Path) -> None:
    """A path typed on the command line is the user's choice: a linked result and text file
    still commit."""
    root = _book(tmp_path)
    real = tmp_path / "real"
    real.mkdir()
    (real / "ch2.json").write_text(json.dumps({"chapter": 2, "summary": "林砚下山。"}), "utf-8")
    (real / "ch2.md").write_text("林砚下山，回望青云。", encoding="utf-8")
    _link(tmp_path / "ch2.json", real / "ch2.json")
    _link(tmp_path / "ch2.md", real / "ch2.md")
    ran = run_cli(
        "--project",
        str(root),
        "commit",
        str(tmp_path / "ch2.json"),
        "--text",
        str(tmp_path / "ch2.md"),
        "--format",
        "json",
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["status"] == "committed"
