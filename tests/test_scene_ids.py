"""A character's scenes are found by their exact id on both stores: the lookup once matched the
id with LIKE, where `_` stands for any character and SQLite ignores ASCII case (PostgreSQL does
not), so other characters' scenes used up the latest chapters it takes, and the two stores
answered differently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stores import init_book

# wang_er is in chapter 1 only; wangxer (which `wang_er` matches as a LIKE pattern) and WANG_ER
# (which it matches on SQLite, ignoring case) are in every later chapter.
CAST = [
    {"id": "wang_er", "name": "王二", "type": "角色"},
    {"id": "wangxer", "name": "王小二", "type": "角色"},
    {"id": "WANG_ER", "name": "王大", "type": "角色"},
]


def chapter(number: int, who: list[str]) -> dict[str, Any]:
    return {
        "chapter": number,
        "entities_new": CAST if number == 1 else [],
        "scenes": [
            {"index": 1, "location": f"地点{number}", "characters": who, "time": f"第{number}天"}
        ],
    }


def test_a_character_s_track_holds_its_own_scenes_alone(tmp_path: Path, backend: str) -> None:
    with init_book(backend, tmp_path / "book", title="t") as book:
        book.commit(chapter(1, ["wang_er"]))
        for number in range(2, 6):
            book.commit(chapter(number, ["wangxer", "WANG_ER"]))
        for limit in (1, 3, 60):
            assert [s.chapter for s in book.track("王二", limit=limit)] == [1], limit
        assert [s.chapter for s in book.track("王小二", limit=2)] == [4, 5]
        assert [s.chapter for s in book.track("王大", limit=2)] == [4, 5]
