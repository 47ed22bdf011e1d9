"""A real dashboard server on a free loopback port, in a thread of the test process, over a
sample book with the chapter-13 draft committed (so it has open conflicts)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import webnovel
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters

from cli_runner import run_process

# every page kind, on the sample book's protagonist and one of its threads
PAGES = (
    "/",
    "/characters",
    "/characters/linyan",
    "/graph",
    "/graph?center=linyan&hops=2",
    "/threads",
    "/threads/lamp-origin",
    "/timeline",
    "/timeline?entity=linyan",
    "/timeline?entity=linyan&order=story",
    "/conflicts",
    "/search?q=青灯的来历",
    "/pack",
    "/pack?task=review",
    "/revise",  # `?chapter=N` fills its editor with the result's JSON, keys in English: test_revise_page
)


def build_sample_book(folder: Path, published_through: int | None = None) -> Path:
    """The sample book in `folder`, its chapters published through `published_through` if given."""
    with webnovel.init_project(folder, title="青灯照剑", genre="仙侠") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
        draft = sample_book_dir() / "drafts" / "013-draft-with-mistakes.json"
        book.commit(json.loads(draft.read_text(encoding="utf-8")))
        if published_through is not None:
            book.publish(published_through)
    return folder


CHAPTER_14 = {"chapter": 14, "title": "余烬", "summary": "韩啸断后，二人连夜离城。"}


@contextmanager
def chapter_14_committed_elsewhere(root: Path) -> Iterator[None]:
    """Chapter 14 committed by another process (the CLI), taken back again afterwards."""
    run_process("--project", str(root), "commit", "-", stdin=json.dumps(CHAPTER_14))
    try:
        yield
    finally:
        run_process("--project", str(root), "retract", "14")


@contextmanager
def chapter_14_committed_beside(root: Path) -> Iterator[None]:
    """Chapter 14 committed through a second handle on the book in this process, taken back
    again afterwards. A SQLite dashboard learns of it as of any other process's commit, by
    reading the commit sequence from the file (nothing in the process tells it), without the
    two Python start-ups (1.2 s of CPU) of `chapter_14_committed_elsewhere`; that one stays for
    the test that a real second process is announced (test_dashboard.py)."""
    with webnovel.open_project(root) as other:
        other.commit(CHAPTER_14)
    try:
        yield
    finally:
        with webnovel.open_project(root) as other:
            other.retract(14)


def next_commit_event(stream: Any, seconds: float = 15) -> dict[str, Any]:
    """Read a dashboard's event stream up to its next `commit` event and give that event's
    data; fails when none comes within `seconds`."""
    deadline, lines = time.monotonic() + seconds, []
    while time.monotonic() < deadline:
        line = stream.readline().decode("utf-8").strip()
        lines.append(line)
        if line.startswith("data:"):
            break
    assert "event: commit" in lines, lines
    data: dict[str, Any] = json.loads(lines[-1][5:])
    return data


@dataclass
class Answer:
    status: int
    body: str
    headers: dict[str, str]


@dataclass
class Running:
    url: str
    root: Path

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def request(
        self,
        method: str,
        path: str,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers=headers or {}
        )
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=30) as response:
                return Answer(
                    response.status, response.read().decode("utf-8"), dict(response.headers)
                )
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read().decode("utf-8", "replace"), dict(error.headers))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@contextmanager
def running_dashboard(root: Path, login_token: str | None = None) -> Iterator[Running]:
    """The dashboard over the book at `root`; with `login_token`, as served beyond this machine
    (every request needs the token: access.py)."""
    import uvicorn

    from webnovel.dashboard.app import create_app
    from webnovel.dashboard.server import bind

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    book = webnovel.open_project(root)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(book, login_token), log_level="warning", timeout_graceful_shutdown=1
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield Running(f"http://127.0.0.1:{port}", root)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        book.close()
        sock.close()
