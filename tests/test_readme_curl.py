"""The README's curl line for the dashboard's JSON answers works as pasted (only its port
changed): curl encodes the Chinese arguments, where a raw Chinese URL is refused with 400."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from dashboard_server import Running, build_sample_book, running_dashboard  # noqa: E402

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = build_sample_book(tmp_path_factory.mktemp("readme") / "book")
    with running_dashboard(root) as running:
        yield running


def _readme_curl() -> list[str]:
    lines = [
        line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("curl ")
    ]
    assert len(lines) == 1, lines
    return shlex.split(lines[0])


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_readme_curl_line_answers_the_fact(board: Running) -> None:
    words = _readme_curl()
    assert "-G" in words and "--data-urlencode" in words
    words = [w.replace("http://127.0.0.1:8765", board.url) for w in words]
    ran = subprocess.run(
        [*words, "-s", "-w", "\n%{http_code}"], capture_output=True, text=True, timeout=60
    )
    body, status = ran.stdout.rsplit("\n", 1)
    assert status == "200", ran.stdout
    answer = json.loads(body)
    assert (answer["subject"], answer["field"], answer["value"]) == ("linyan", "realm", "筑基")
