"""A commit on PostgreSQL waits for the server as few times as it can: its reads that do not
depend on each other go out together, BEGIN goes with the book's lock and COMMIT with the last
writes. Counted from libpq's own protocol trace (Sync and Flush are what the client sends
before it reads an answer), on a real server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webnovel.ingest.sample_book import sample_chapters

from stores import POSTGRES_URL, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)

# measured on the sample book's last chapter: 25 before BEGIN went with the lock, COMMIT with
# the last writes and reads that do not depend on each other out together; 21 after, 22 once
# the other work of the same session (story time, the author's layer) was merged beside it; 24
# with `name_reintroduced` (a new entity under a known name): its two reads depend on what the
# commit touched (five at first, brought to two), about 80 µs of a commit's 17 ms; 25 with the
# open conflicts read after the commit, to say which it added and took away (the ones before
# go out with the commit's insert); 26 with the chapter's standing result read before the
# commit, so that a result leaving out the cast another version introduced keeps it (kept_cast)
WAITS_AT_MOST = 26


def _waits(book: Any, folder: Path, commit: Any) -> int:
    """Sync and Flush messages the client sent while `commit` ran."""
    raw = book.storage.index.pg.raw
    path = folder / "trace"
    with open(path, "w") as trace:
        raw.pgconn.trace(trace.fileno())
        try:
            commit()
        finally:
            raw.pgconn.untrace()
    sent = [line.split("\t") for line in path.read_text(errors="replace").splitlines()]
    return sum(1 for f in sent if len(f) > 3 and f[1] == "F" and f[3] in ("Sync", "Flush"))


def test_a_commit_waits_for_the_server_few_times(tmp_path: Path) -> None:
    chapters = list(sample_chapters())
    with init_book("postgresql", tmp_path / "book") as book:
        for chapter in chapters[:-1]:
            book.commit(chapter.result, text=chapter.text)
        last = chapters[-1]
        waits = _waits(book, tmp_path, lambda: book.commit(last.result, text=last.text))
        assert waits <= WAITS_AT_MOST
        assert book.latest_chapter() == last.number  # committed
        assert book.fact("linyan", "location", as_of=last.number) is not None
