"""A shared store's book may be deleted and another made under its name. A machine whose folder
names that book then holds projections of the old one (its search index, state.json): they are
dropped, never shown as the new book's, however the two books' commit counts compare."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import webnovel
from webnovel.book.stores import delete_book

from stores import POSTGRES_URL, book_name, init_book

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None, reason="PostgreSQL tests skipped: WEBNOVEL_TEST_POSTGRES is not set"
)


def _chapter(n: int, who: str, text: str) -> tuple[dict[str, object], str]:
    result = {
        "chapter": n,
        "summary": text,
        "entities_new": [{"id": who, "name": who, "type": "character"}] if n == 1 else [],
        "entities_appeared": [{"id": who}],
    }
    return result, text


def test_a_book_made_anew_under_a_deleted_one_s_name_is_searched_afresh(tmp_path: Path) -> None:
    name = book_name()
    machine_a, machine_b = tmp_path / "a", tmp_path / "b"
    with webnovel.init_project(machine_a, title="旧书", store=POSTGRES_URL, book=name) as old:
        for n in range(1, 4):
            result, text = _chapter(n, "周伯", f"周伯在山门前扫了第{n}天的落叶。")
            old.commit(result, text=text)
    shutil.copytree(machine_a, machine_b)  # the same config.toml, on another machine
    with webnovel.open_project(machine_b) as b:
        assert {h.chapter for h in b.search("周伯扫落叶")} == {1, 2, 3}

    assert delete_book(POSTGRES_URL or "", name)
    shutil.rmtree(machine_a)
    # made by init_book: dropped with the module's books, as the old one was by the test
    with init_book("postgresql", machine_a, title="新书", book=name) as new:
        for n in range(1, 4):  # as many commits as the old book's: the numbers say "no change"
            result, text = _chapter(n, "张三", f"张三第{n}次下山，去镇上买米。")
            new.commit(result, text=text)

    with webnovel.open_project(machine_b) as b:
        hits = b.search("周伯扫落叶") + b.search("张三下山买米")
        assert hits and all("张三" in h.text for h in hits)
        assert {h.chapter for h in b.search("张三下山买米")} == {1, 2, 3}
    state = json.loads((machine_b / ".webnovel" / "state.json").read_text(encoding="utf-8"))
    assert state["meta"]["book_id"] == webnovel.open_project(machine_a).book_id() != ""
    assert "周伯" not in (machine_b / ".webnovel" / "memory_scratchpad.json").read_text()
