"""Threads and rules that score alike rank the same on SQLite and PostgreSQL: a pack's
candidates come in the order of their ids, never of the rows or of an index's other columns
(PostgreSQL may read rows in the order they were written, and a copied book numbers its rows
anew). Without that, 3 packs in 50 differed between a 1,000-chapter book and its copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from webnovel.memory.store import chain_ops, ranking_scans

from stores import BACKENDS, init_book

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)

IDS = ["zeta", "mu", "alpha", "omega", "beta"]  # one a chapter, against their order


def test_candidates_come_in_the_order_of_their_ids(tmp_path: Path, backend: str) -> None:
    with init_book(backend, tmp_path / "book") as book:
        for chapter, thread_id in enumerate(IDS, start=1):
            result: dict[str, object] = {
                "chapter": chapter,
                "title": f"第{chapter}章",
                "summary": "林砚夜读。",
                "plot_threads": [
                    {
                        "id": thread_id,
                        "kind": "foreshadowing",
                        "action": "plant",
                        "content": f"{thread_id} 的伏笔",
                    }
                ],
                "world_rules": [{"id": thread_id, "rule": f"{thread_id} 之规"}],
            }
            book.commit(result)
        conn = book.storage.conn
        at = len(IDS) + 1
        candidates = ranking_scans.thread_candidates(conn, at)
        versions = chain_ops.versions_by_id(conn, [t.row_id for t in candidates])
        assert [versions[t.row_id].subject for t in candidates] == sorted(IDS)
        assert [r.rule_id for r in ranking_scans.rule_candidates(conn, at)] == sorted(IDS)
