"""A pack's lines are worth their budget (trial 3, §11): an emptied 物品 set gives no
「白眉真人 物品：（无）」 line, and a secret several people in play lack is one 「尚不知」 line naming
them all, not a line each. The pack's JSON keeps its shape (docs/contract.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import webnovel
from webnovel.memory.packs.memory_pack import MemoryPack, PackItem

from stores import init_book

SECRET = "青冥剑中封着上古魔魂"
OUTLINE = "陆青云、白眉真人、钱万金、沈月华在山门相会"


def moved(who: str, op: str, thing: str) -> dict[str, Any]:
    return {"entity_id": who, "field": "items", "op": op, "new": thing}


def build(backend: str, root: Path) -> webnovel.Project:
    book = init_book(backend, root, title="青冥剑歌")
    people = {"lu": "陆青云", "baimei": "白眉真人", "qian": "钱万金", "shen": "沈月华"}
    book.commit(
        {
            "chapter": 1,
            "entities_new": [
                {"id": i, "name": n, "type": "角色", **({"tier": "主角"} if i == "lu" else {})}
                for i, n in people.items()
            ],
            "state_changes": [moved("baimei", "add", "青冥剑"), moved("qian", "add", "金算盘")],
            "secrets": [{"id": "demon", "content": SECRET, "known_by": ["白眉真人"]}],
        }
    )
    book.commit(
        {
            "chapter": 2,
            "state_changes": [
                moved("baimei", "remove", "青冥剑"),
                moved("lu", "add", "青冥剑"),
                moved("qian", "remove", "金算盘"),
            ],
        }
    )
    return book


def items_of(pack: MemoryPack) -> list[PackItem]:
    return [item for section in pack.sections for item in section.items]


def test_an_emptied_set_takes_no_line_and_one_secret_is_one_line(
    backend: str, tmp_path: Path
) -> None:
    with build(backend, tmp_path / "book") as book:
        pack = book.build_memory_pack("chapter_write", 3, outline=OUTLINE)
        lines = [item.line for item in items_of(pack)]
        assert not [line for line in lines if "（无）" in line], lines
        assert "- 陆青云 物品：青冥剑（第2章起）" in lines
        unaware = [item for item in items_of(pack) if item.line.endswith(f"尚不知：{SECRET}")]
        assert len(unaware) == 1, lines
        named = unaware[0].line.removeprefix("- ").split(" 尚不知")[0].split("、")
        assert sorted(named) == ["沈月华", "钱万金", "陆青云"]  # not 白眉真人, who knows it
        # the item keeps the contract's keys: a secret's constraint, its id naming whom it says
        said = unaware[0].to_dict()
        assert (said["category"], said["subject"], said["field"], said["value"]) == (
            "active_constraints",
            "demon",
            "secret",
            SECRET,
        )
        ids = {"陆青云": "lu", "钱万金": "qian", "沈月华": "shen"}
        assert said["id"].endswith(":unaware:" + ",".join(ids[n] for n in named))
        assert said["why"] == f"{'、'.join(named)} is in play and does not know it"
        assert f"- {'、'.join(named)} 尚不知：{SECRET}" in pack.render("prompt")


def test_past_six_secrets_the_lines_held_back_are_counted_as_lines(
    backend: str, tmp_path: Path
) -> None:
    with build(backend, tmp_path / "book") as book:
        more = [
            {"id": f"s{n}", "content": f"第{n}桩旧事", "known_by": ["白眉真人"]} for n in range(7)
        ]
        book.commit({"chapter": 3, "secrets": more})
        pack = book.build_memory_pack("chapter_write", 4, outline=OUTLINE)
        lines = [item.line for item in items_of(pack)]
        unaware = [line for line in lines if " 尚不知：" in line]
        assert len(unaware) == 6, lines
        assert all(line.startswith("- ") and line.count("、") == 2 for line in unaware)
        # eight secrets, three people lacking each: two lines held back, not 18 people's gaps
        assert [line for line in lines if line.startswith("- 另有")] == [
            "- 另有 2 条「尚不知」未列出（与本场关系较远）；需要时用 knows 人物 或 secrets 查询"
        ]
