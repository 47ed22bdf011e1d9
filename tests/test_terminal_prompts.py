"""`retract` asks before it takes a chapter back, on a real terminal (a pseudo-terminal that is
the process's controlling terminal, so Ctrl-D ends input and Ctrl-C interrupts as at a
keyboard). Ctrl-D or Ctrl-C at the question is a "no": the chapter stays, a clean line says so,
no traceback. (`books --delete` asks through the same `cli.asking.confirmed`.)"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import webnovel

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")


def _on_a_terminal(args: list[str], keys: bytes, cwd: Path) -> tuple[int, str]:
    """Run `webnovel ARGS` with a pseudo-terminal as its controlling terminal and its standard
    input, output and error; type `keys` once it asks; its exit status and all it showed."""
    master, slave = pty.openpty()

    def own_terminal() -> None:  # after the new session: the terminal becomes its own
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(
        [sys.executable, "-m", "webnovel", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "WEBNOVEL_LANG": "zh"},
        start_new_session=True,
        preexec_fn=own_terminal,  # noqa: PLW1509 (no threads are started before it)
    )
    os.close(slave)
    shown, typed = b"", False
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if not typed and b"[y/N]" in shown:
                time.sleep(0.1)  # the prompt is written just before input() reads
                os.write(master, keys)
                typed = True
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the process closed its end: all is read
                    break
                if not chunk:
                    break
                shown += chunk
            elif process.poll() is not None:
                break
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    return code, shown.decode("utf-8", "replace")


@pytest.fixture()
def book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="寒江") as opened:
        opened.commit({"chapter": 1, "title": "雪夜", "summary": "雪落青石镇。"})
    return root


@pytest.mark.parametrize(("key", "name"), [(b"\x04", "Ctrl-D"), (b"\x03", "Ctrl-C")])
def test_ctrl_d_or_ctrl_c_at_the_retract_question_is_a_no(
    book: Path, key: bytes, name: str
) -> None:
    code, shown = _on_a_terminal(["retract", "1"], key, book)
    assert "Traceback" not in shown and "Error" not in shown, (name, shown)
    assert code == 1, (name, shown)
    assert "雪夜" in shown  # the question named the chapter
    last = [line.strip() for line in shown.splitlines() if line.strip()][-1]
    assert last == "未撤回", (name, shown)  # on a line of its own, not after the question
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() == 1  # nothing was taken back


def test_yes_at_the_retract_question_takes_the_chapter_back(book: Path) -> None:
    code, shown = _on_a_terminal(["retract", "1"], "是\n".encode(), book)
    assert code == 0, shown
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() is None


def test_the_question_names_an_untitled_chapter_by_its_number(book: Path) -> None:
    with webnovel.open_project(book) as opened:
        opened.commit({"chapter": 2, "summary": "韩啸夜里来访。"})
    code, shown = _on_a_terminal(["retract", "2"], b"\x04", book)
    assert code == 1, shown
    assert "撤回第2章？" in shown and "《》" not in shown


def test_ctrl_d_at_the_books_delete_question_deletes_nothing(tmp_path: Path) -> None:
    from stores import POSTGRES_URL, book_name, init_book  # the book dropped at the session's end

    if POSTGRES_URL is None:
        pytest.skip("PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set")
    name = book_name()
    with init_book("postgresql", tmp_path / "book", title="青云志", book=name) as opened:
        opened.commit({"chapter": 1, "title": "雪夜"})
    code, shown = _on_a_terminal(
        ["books", "--store", POSTGRES_URL, "--delete", name], b"\x04", tmp_path
    )
    assert "Traceback" not in shown and code == 1, shown
    assert "《青云志》" in shown  # the question named the book
    last = [line.strip() for line in shown.splitlines() if line.strip()][-1]
    assert last == "未删除", shown
    with webnovel.open_project(tmp_path / "book") as still:
        assert still.latest_chapter() == 1
