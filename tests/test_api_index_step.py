"""A long run of commits through the Python API keeps the search index in step, as the CLI's
runs do (issue 42): the first search after it has at most SEARCH_BEHIND_AT_MOST chapters to
index, and `on_indexing` hears the catch-ups' progress."""

from __future__ import annotations

from pathlib import Path

import webnovel
from webnovel.book.writing import SEARCH_BEHIND_AT_MOST


def test_api_commits_keep_the_search_index_in_step(tmp_path: Path) -> None:
    heard: list[tuple[int, int]] = []
    chapters = 2 * SEARCH_BEHIND_AT_MOST + 50
    with webnovel.init_project(tmp_path / "book", title="t") as book:
        book.on_indexing(lambda done, total: heard.append((done, total)))
        for n in range(1, chapters + 1):
            book.commit({"chapter": n, "summary": f"林砚在第{n}站歇脚，听说了灯{n}的传闻。"})
            assert book.search_pending() < SEARCH_BEHIND_AT_MOST
        assert book.search_pending() == 50
        assert heard and heard[-1][0] == heard[-1][1]  # a catch-up told to its end
        hits = book.search("灯300的传闻", 3)
        assert hits and hits[0].chapter == 300
