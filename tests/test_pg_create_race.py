"""Several machines creating the same PostgreSQL book at once: one makes it, every other is
told in one sentence that the store already holds a book of that name (issue 42: a loser got
`psycopg.errors.DuplicateSchema` as a raw traceback, 8 races of 8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from stores import NO_POSTGRES, POSTGRES_URL, _made, book_name

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason=NO_POSTGRES)

CREATORS = 4
ROUNDS = 3
# each creator waits for the word, so that all of them reach CREATE SCHEMA together
CREATOR = """
import sys
sys.stdin.readline()
from webnovel.cli.main import main
sys.exit(main(["init", sys.argv[1], "--title", "同名", "--store", sys.argv[2], "--book", sys.argv[3]]))
"""


def test_concurrent_creators_of_one_book_get_one_book_and_one_sentence(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    for round_ in range(ROUNDS):
        name = book_name()
        _made.append(name)
        creators = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    CREATOR,
                    str(tmp_path / f"r{round_}-m{n}"),
                    POSTGRES_URL,
                    name,
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for n in range(CREATORS)
        ]
        for creator in creators:  # imported and waiting: go
            assert creator.stdin is not None
            creator.stdin.write("go\n")
            creator.stdin.flush()
        ends = [(c.wait(timeout=120), *c.communicate()) for c in creators]
        codes = sorted(code for code, _, _ in ends)
        assert codes == [0] + [1] * (CREATORS - 1), ends
        for code, _, err in ends:
            if code:
                assert "Traceback" not in err, err
                assert f"里已有一本名为《{name}》的书" in err, err
                assert len(err.strip().splitlines()) == 1, err
