"""The cheaper forms a commit's statements take on PostgreSQL do what the plain ones do: the
row-by-row deletes and updates run as one statement over arrays and must leave the book as the
rows applied one by one would, duplicates and all; the book's size, summed over its tables by
name, is what the catalog says its schema holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from webnovel.ingest.sample_book import sample_book_dir, sample_chapters
from webnovel.memory.store.pg.pg_connection import _batched

from stores import POSTGRES_URL, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)


def versions(pg: Any) -> list[tuple[Any, ...]]:
    return [
        tuple(row)
        for row in pg.execute(
            "SELECT id, family, key, valid_from, valid_to, status FROM versions ORDER BY id"
        )
    ]


def test_batched_deletes_and_updates_end_as_row_by_row(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
        draft = sample_book_dir() / "drafts" / "013-draft-with-mistakes.json"
        book.commit(json.loads(draft.read_text("utf-8")))  # a chapter with conflicts
        pg = book.storage.index.pg
        before = versions(pg)
        first, second, third = before[0], before[1], before[2]

        # one row named twice: the later value stays, as when the rows run in order, whichever
        # way the server joins. One statement would keep one of the two by its plan (the
        # plans here happen to keep the last), so such rows are not batched.
        update = "UPDATE versions SET valid_to = ?, status = ? WHERE id = ?"
        assert _batched(update, [(1, "a", first[0]), (2, "b", first[0])]) is None
        assert _batched(update, [(1, "a", first[0]), (2, "b", second[0])]) is not None
        for join in ("hashjoin", "nestloop", "mergejoin"):
            for other in {"hashjoin", "nestloop", "mergejoin"} - {join}:
                pg.execute(f"SET enable_{other} = off")
            for kept in [(9, "contradicted"), (7, "superseded")]:
                dropped = (16 - kept[0], "x")
                pg.executemany(update, [(*dropped, first[0]), (*kept, first[0])])
                assert {row[0]: row for row in versions(pg)}[first[0]][4:] == kept, join
            for other in ("hashjoin", "nestloop", "mergejoin"):
                pg.execute(f"RESET enable_{other}")  # not RESET ALL: that takes the book's schema
        pg.executemany(
            update,
            [(7, "superseded", first[0]), (9, "contradicted", first[0]), (None, "x", second[0])],
        )
        after = {row[0]: row for row in versions(pg)}
        assert after[first[0]][4:] == (9, "contradicted")
        assert after[second[0]][4:] == (None, "x")
        assert after[third[0]] == third

        # deletes by chain from a chapter on, one of them twice
        chains = [(first[1], first[2], first[3]), (third[1], third[2], 1), (first[1], first[2], 0)]
        pg.executemany(
            "DELETE FROM versions WHERE family = ? AND key = ? AND valid_from >= ?", chains
        )
        gone = {
            row[0]
            for row in before
            if any(row[1:3] == (f, k) and row[3] >= since for f, k, since in chains)
        }
        assert gone and set(after) - {row[0] for row in versions(pg)} == gone

        scopes = [
            str(row[0]) for row in pg.execute("SELECT DISTINCT scope FROM conflicts ORDER BY 1")
        ]
        assert len(scopes) > 1, "the sample's draft derives conflicts"
        pg.executemany(
            "DELETE FROM conflicts WHERE scope = ? AND chapter >= ?",
            [(scopes[0], 0), (scopes[0], 3), ("no such scope", 0)],
        )
        left = {str(row[0]) for row in pg.execute("SELECT DISTINCT scope FROM conflicts")}
        assert left == set(scopes[1:])


def test_the_size_by_table_names_is_the_schemas_whole_size(tmp_path: Path) -> None:
    with init_book("postgresql", tmp_path / "book") as book:
        for chapter in list(sample_chapters())[:3]:
            book.commit(chapter.result, text=chapter.text)
        pg = book.storage.index.pg
        (whole,) = pg.execute(
            "SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        ).fetchone()
        assert book.storage.index.size_bytes() == whole
        newest, earlier = book.commit_log(limit=3)[0], book.commit_log(limit=3)[2]
        assert earlier.index_bytes is not None and newest.index_bytes is not None
        assert 0 < earlier.index_bytes <= newest.index_bytes <= whole


def test_a_commit_measures_the_book_at_the_first_and_every_sixteenth_commit(
    tmp_path: Path,
) -> None:
    """Summing every relation's files was half a small commit's server time: the size is
    measured at commit 1, 17, 33…, and the commits between record the last measure."""
    from webnovel.memory.store.pg.pg_sql import SIZE_EVERY

    big = "长" * 200_000  # a text that takes many pages: the book grows at once
    with init_book("postgresql", tmp_path / "book") as book:
        for chapter in range(1, SIZE_EVERY + 2):
            book.commit({"chapter": chapter}, text=big if chapter == 2 else None)
        sizes = {e.chapter: e.index_bytes for e in book.commit_log(limit=SIZE_EVERY + 1)}
        whole = book.storage.index.size_bytes()
    assert all(sizes[n] == sizes[1] for n in range(2, SIZE_EVERY + 1)), sizes
    assert sizes[SIZE_EVERY + 1] is not None and sizes[1] is not None
    assert sizes[1] < sizes[SIZE_EVERY + 1] <= whole
