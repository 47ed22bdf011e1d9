"""The garbage collector's policy: the library never freezes the heap of a host program that
imports it; the processes this package runs itself (`webnovel mcp`, the dashboard) freeze what
they hold at start-up (`book.server_memory.settle_heap`), and the book answers the same after."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import webnovel

from library_nights import OUTLINE, night

CHILD = """
import gc, json, sys
import webnovel
from webnovel.book.server_memory import settle_heap

with webnovel.open_project(sys.argv[1]) as book:
    before = book.build_memory_pack("chapter_write", 3, outline=sys.argv[2], record=False)
    library = gc.get_freeze_count()
    settle_heap(book)
    frozen = gc.get_freeze_count()
    after = book.build_memory_pack("chapter_write", 3, outline=sys.argv[2], record=False)
    print(json.dumps([library, frozen, before.to_dict() == after.to_dict()]))
"""


def test_only_a_server_freezes_its_heap_and_its_packs_stay_the_same(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="t") as book:
        book.commit(night(1, world_rules=[{"id": "qi", "rule": "灵气只在子时充盈"}]))
        book.commit(night(2))
    # a process of its own: a freeze lasts as long as the process
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "book"), OUTLINE],
        capture_output=True,
        text=True,
        check=True,
    )
    library, frozen, same = json.loads(done.stdout)
    assert library == 0  # opening a book and building packs froze nothing
    assert frozen > 10_000  # the modules, the book's handle and its name index
    assert same
