"""What a book handle holds between packs (its rules, its dead and the threads open at the
chapters asked, `ranking_scans.RankingCache`) never shows a stale or a later chapter's
memory: every write path (commit, revision, retraction, rebuild, import, another handle's or
process's commit, a migration) is seen by the next pack, and packs built with it equal packs
that scan the store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import webnovel
from webnovel.memory.packs.memory_pack import MemoryPack, PackRequest
from webnovel.memory.packs.orchestrator import build_memory_pack, ranking_cache
from webnovel.memory.store.migrations import MIGRATIONS, migrate
from webnovel.memory.store.ranking_scans import book_state

from library_nights import OUTLINE, night
from stores import BACKENDS, init_book


def _pack(book: webnovel.Project, chapter: int) -> MemoryPack:
    """The pack, built twice: the first after a change scans the store, the second is built
    from what the handle then holds; both must say the same."""
    first = book.build_memory_pack("chapter_write", chapter, outline=OUTLINE, record=False)
    again = book.build_memory_pack("chapter_write", chapter, outline=OUTLINE, record=False)
    assert again.to_dict() == first.to_dict()
    return again


def _section(pack: MemoryPack, name: str) -> list[str]:
    return [i.line for s in pack.sections if s.name == name for i in s.items]


def _rules(book: webnovel.Project, chapter: int) -> list[str]:
    return [
        i.value for s in _pack(book, chapter).sections if s.name == "world_rules" for i in s.items
    ]


def _threads(book: webnovel.Project, chapter: int) -> list[str]:
    return [i.value for s in _pack(book, chapter).sections if s.name == "threads" for i in s.items]


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_every_write_path_shows_in_the_next_pack(tmp_path: Path, backend: str) -> None:
    qi = {"id": "qi", "rule": "灵气只在子时充盈", "domain": "修炼"}
    with init_book(backend, tmp_path / "book") as book:
        book.commit(night(1, world_rules=[qi]))
        book.commit(night(2))
        assert _rules(book, 3) == ["灵气只在子时充盈"] and _threads(book, 3) == []
        # a commit: a new rule and a thread planted in chapter 3 reach packs for chapter 4 on
        thread = {"id": "jing", "action": "plant", "content": "残经的下落", "related": ["linyan"]}
        book.commit(
            night(3, world_rules=[{"id": "jin", "rule": "藏经阁子时禁入"}], plot_threads=[thread])
        )
        assert _rules(book, 3) == ["灵气只在子时充盈"] and _threads(book, 3) == []
        assert sorted(_rules(book, 4)) == ["灵气只在子时充盈", "藏经阁子时禁入"]
        assert _threads(book, 4) == ["残经的下落"]
        # a revision (chapter 3 committed again, otherwise worded, the thread resolved)
        resolved = {"id": "jing", "action": "resolve", "content": "残经的下落"}
        book.commit(
            night(3, world_rules=[{"id": "jin", "rule": "藏经阁终日禁入"}]),
        )
        assert sorted(_rules(book, 4)) == ["灵气只在子时充盈", "藏经阁终日禁入"]
        assert _threads(book, 4) == []
        book.commit(night(3, plot_threads=[thread]))
        book.commit(night(4, plot_threads=[resolved]))
        assert _threads(book, 4) == ["残经的下落"] and _threads(book, 5) == []
        # a retraction
        book.retract(4)
        assert _threads(book, 5) == ["残经的下落"]
        assert _rules(book, 5) == ["灵气只在子时充盈"]
        # a rebuild rewrites every row: the packs read the same
        before = _pack(book, 5).to_dict()
        book.rebuild()
        assert _pack(book, 5).to_dict() == before
        # another handle on the same book commits: this handle's next pack sees it
        with webnovel.open_project(tmp_path / "book") as other:
            other.commit(night(4, world_rules=[{"id": "jin", "rule": "藏经阁卯时开门"}]))
        assert sorted(_rules(book, 5)) == ["灵气只在子时充盈", "藏经阁卯时开门"]
        assert _rules(book, 4) == ["灵气只在子时充盈"]  # nothing from a later chapter


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_an_import_is_a_change_the_next_pack_sees(tmp_path: Path, backend: str) -> None:
    with init_book(backend, tmp_path / "book") as book:
        book.commit(night(1, world_rules=[{"id": "qi", "rule": "灵气只在子时充盈"}]))
        assert _rules(book, 2) == ["灵气只在子时充盈"]
        state = book_state(book.storage.conn)
        novel = tmp_path / "novel.txt"
        novel.write_text("第二章 夜行\n\n林砚夜行。\n\n第三章 归来\n\n林砚归来。\n", "utf-8")
        book.import_text(novel)
        assert book.latest_chapter() == 3
        if backend == "sqlite":
            assert book_state(book.storage.conn) not in (None, state)
        pack = _pack(book, 4)
        assert "林砚归来。" in "".join(_section(pack, "working_memory"))
        assert _rules(book, 4) == ["灵气只在子时充盈"]


def test_the_book_state_changes_with_each_writer_and_only_then(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="测试之书") as book:
        book.commit(night(1, world_rules=[{"id": "qi", "rule": "灵气只在子时充盈"}]))
        conn = book.storage.conn
        state = book_state(conn)
        assert state is not None
        _pack(book, 2)
        book.search("藏经阁", 5)
        assert book_state(conn) == state  # reading changes nothing
        book.commit(night(2))
        assert book_state(conn) not in (None, state)
        state = book_state(conn)
        # another connection: a commit, then a migration that rewrites rows (a write that
        # leaves every row as it was commits nothing, and SQLite's data_version rightly stays)
        other = sqlite3.connect(tmp_path / "book" / ".webnovel" / "index.db", isolation_level=None)
        other.execute("UPDATE versions SET confidence = 0.5 WHERE family = 'rule'")
        assert book_state(conn) not in (None, state)
        state = book_state(conn)
        rewrite = ("9999_rewrite", "UPDATE versions SET confidence = 0.25;")
        assert migrate(other, [*MIGRATIONS, rewrite]) == ["9999_rewrite"]
        other.close()
        assert book_state(conn) not in (None, state)
        # inside a transaction the rows are not committed ones: no state, so nothing is held
        conn.execute("BEGIN")
        assert book_state(conn) is None
        conn.execute("ROLLBACK")


def test_a_rolled_back_write_is_never_held(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="测试之书") as book:
        book.commit(night(1, world_rules=[{"id": "qi", "rule": "灵气只在子时充盈"}]))
        conn, held = book.storage.conn, ranking_cache()
        request = PackRequest(task="chapter_write", chapter=2, outline=OUTLINE)
        config, aliases = book.config, book.aliases()

        def rules() -> list[str]:
            pack = build_memory_pack(conn, config, aliases, request, held=held)
            return [i.value for s in pack.sections if s.name == "world_rules" for i in s.items]

        assert rules() == ["灵气只在子时充盈"] == rules()  # scanned, then held
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "UPDATE versions SET value_json = json_set(value_json, '$.rule', '灵气全无') "
            "WHERE family = 'rule'"
        )
        assert rules() == ["灵气全无"] == rules()  # read from the uncommitted rows, not kept
        conn.execute("ROLLBACK")
        assert rules() == ["灵气只在子时充盈"] == rules()


# ThreadSpans' blocks of 128 chapters: the chapters on either side of each edge, and the last.
BLOCK_EDGES = (127, 128, 255, 256, 300)
TASKS = ("chapter_write", "consistency_check", "review")


def test_held_packs_equal_packs_that_scan_the_store(saga_book: webnovel.Project) -> None:
    """Every 7th chapter of the saga, asked in order (more chapters than a snapshot keeps the
    threads of), each by one task in turn, and every task at each block edge: what 123 packs
    (every task at every 7th chapter) compared, in 55."""
    conn, config, aliases = saga_book.storage.conn, saga_book.config, saga_book.aliases()
    held = ranking_cache()
    names = [e.name for e in saga_book.entities()][:40]
    compared, with_rules, with_threads = 0, 0, 0
    for n, chapter in enumerate(sorted({*range(20, 302, 7), *BLOCK_EDGES})):
        outline = f"第{chapter}章：{names[n % 40]}与{names[(3 * n + 1) % 40]}在山门相遇。"
        for task in TASKS if chapter in BLOCK_EDGES else TASKS[n % 3 : n % 3 + 1]:
            request = PackRequest(task=task, chapter=chapter, outline=outline)
            scanned = build_memory_pack(conn, config, aliases, request)
            kept = build_memory_pack(conn, config, aliases, request, held=held)
            assert kept.to_dict() == scanned.to_dict(), (task, chapter)
            assert kept.render("text") == scanned.render("text")
            compared += 1
            with_rules += bool(_section(kept, "world_rules"))
            with_threads += bool(_section(kept, "threads"))
    assert compared > 50 and with_rules > 50 and with_threads > 50
