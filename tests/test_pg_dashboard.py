"""A studio's dashboard on one machine follows commits made on another through the shared
PostgreSQL store: two folders holding the same config stand for two machines, the commit is a
separate `webnovel` process, and the page's event stream announces it. That the wait ends on
NOTIFY rather than on a poll is pinned in test_pg_store (a 30 s wait ended at once)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from cli_runner import run_process
from dashboard_server import next_commit_event, running_dashboard
from stores import POSTGRES_URL, init_book

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)


def test_a_dashboard_announces_a_commit_made_on_another_machine(tmp_path: Path) -> None:
    studio, desk = tmp_path / "studio", tmp_path / "desk"
    with init_book("postgresql", studio, title="共写之书") as book:
        book.commit({"chapter": 1, "title": "开篇", "summary": "林砚下山。"})
    (desk / ".webnovel").mkdir(parents=True)  # the config a team keeps in git, on a second desk
    config = (studio / ".webnovel" / "config.toml").read_text(encoding="utf-8")
    (desk / ".webnovel" / "config.toml").write_text(config, encoding="utf-8")
    with running_dashboard(desk) as board:
        before = json.loads(board.get("/api/seq").body)
        assert before["latest_chapter"] == 1
        stream = urllib.request.urlopen(f"{board.url}/events?seq={before['seq']}", timeout=30)
        try:
            assert stream.readline().startswith(b"retry:")
            second = {"chapter": 2, "title": "入城", "summary": "林砚入赤炎城。"}
            done = run_process("--project", str(studio), "commit", "-", stdin=json.dumps(second))
            assert done.returncode == 0, done.stderr
            assert next_commit_event(stream)["seq"] > before["seq"]
        finally:
            stream.close()
        after = json.loads(board.get("/api/seq").body)
        assert after["latest_chapter"] == 2
        assert "入赤炎城" in board.get("/chapters/2").body
        # searched on the dashboard's second handle on the store (book/long_reads.py)
        assert (
            "林砚入<mark>赤炎城</mark>"
            in board.get("/search?q=" + urllib.parse.quote("赤炎城")).body
        )
