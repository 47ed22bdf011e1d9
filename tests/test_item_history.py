"""Items as things over time (trial 3, §8): `history 青冥剑` (and `history 青冥剑 持有者`) shows
the chain of holders over the chapters, read from everyone's 物品, not 「（无历史）」; and an item
used up or destroyed is held by nobody from that chapter, 「无人持有（第6章起；此前 沈月华）」, not
「（无记录）」. Both for an item a chapter introduced (青冥剑) and for a thing only ever held
(九转金丹)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel

from cli_runner import run_cli
from stores import init_book

PEOPLE = {"baimei": "白眉真人", "lu": "陆青云", "han": "韩啸天", "shen": "沈月华"}


def moved(who: str, op: str, thing: str, reason: str) -> dict[str, Any]:
    return {"entity_id": who, "field": "items", "op": op, "new": thing, "reason": reason}


CHAPTERS: list[dict[str, Any]] = [
    {
        "chapter": 1,
        "entities_new": [
            *({"id": i, "name": n, "type": "角色"} for i, n in PEOPLE.items()),
            {"id": "qingming", "name": "青冥剑", "type": "物品"},
        ],
        "state_changes": [moved("baimei", "add", "青冥剑", "镇派之宝")],
    },
    {"chapter": 2, "state_changes": [moved("shen", "add", "九转金丹", "丹房所得")]},
    {
        "chapter": 3,
        "state_changes": [
            moved("baimei", "remove", "青冥剑", "传剑于徒"),
            moved("lu", "add", "青冥剑", "师父所传"),
        ],
    },
    {"chapter": 4, "summary": "陆青云下山。"},
    {
        "chapter": 5,
        "state_changes": [
            moved("lu", "remove", "青冥剑", "被夺"),
            moved("han", "add", "青冥剑", "夺剑"),
        ],
    },
    {"chapter": 6, "state_changes": [moved("shen", "remove", "九转金丹", "服下九转金丹")]},
    {
        "chapter": 7,
        "state_changes": [
            moved("han", "remove", "青冥剑", "败走弃剑"),
            moved("lu", "add", "青冥剑", "夺回"),
        ],
    },
]


@pytest.fixture
def items_book(backend: str, tmp_path: Path) -> Path:
    root = tmp_path / "book"
    with init_book(backend, root, title="青冥剑歌") as book:
        for result in CHAPTERS:
            book.commit(result)
    return root


def cli(root: Path, *args: str, fmt: str = "json") -> Any:
    ran = run_cli("--project", str(root), *args, "--format", fmt)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout) if fmt == "json" else ran.stdout


def chain(versions: list[dict[str, Any]]) -> list[tuple[Any, int, int | None]]:
    return [(v["value"], v["valid_from"], v["valid_to"]) for v in versions]


def test_an_item_s_history_is_its_chain_of_holders(items_book: Path) -> None:
    expected = [("白眉真人", 1, 3), ("陆青云", 3, 5), ("韩啸天", 5, 7), ("陆青云", 7, None)]
    assert chain(cli(items_book, "history", "青冥剑")) == expected
    assert chain(cli(items_book, "history", "青冥剑", "持有者")) == expected
    first = cli(items_book, "history", "qingming", "holder")[0]
    assert (first["field"], first["field_label"], first["status"]) == (
        "holder",
        "持有者",
        "outdated",
    )
    assert first["evidence"][0]["chapter"] == 1
    # as chapter 5 knew it: 韩啸天 holds it, and nothing yet of chapter 7
    assert chain(cli(items_book, "history", "青冥剑", "--as-of", "5")) == [
        ("白眉真人", 1, 3),
        ("陆青云", 3, 5),
        ("韩啸天", 5, None),
    ]
    text = cli(items_book, "history", "青冥剑", fmt="text")
    assert "（无历史）" not in text
    rows = [line.split() for line in text.splitlines()[1:]]
    assert [row[:3] for row in rows] == [
        ["持有者", "白眉真人", "第1–2章"],
        ["持有者", "陆青云", "第3–4章"],
        ["持有者", "韩啸天", "第5–6章"],
        ["持有者", "陆青云", "第7章起"],
    ]
    assert "“夺剑”" in text  # how it changed hands
    # a person's history is their own fields: their 物品, no holders
    fields = {v["field"] for v in cli(items_book, "history", "陆青云")}
    assert "holder" not in fields and "items" in fields


def test_a_used_up_item_is_held_by_nobody_from_then(items_book: Path) -> None:
    gone = cli(items_book, "fact", "九转金丹")
    assert (gone["value"], gone["found"]) == ([], False)
    assert (gone["nobody_since"], gone["last_holders"]) == (6, ["沈月华"])
    said = "九转金丹的持有者：无人持有（第6章起；此前 沈月华）"
    assert cli(items_book, "fact", "九转金丹", fmt="text").strip() == said
    assert cli(items_book, "fact", "九转金丹", "持有者", fmt="text").strip() == said
    held = cli(items_book, "fact", "九转金丹", "--as-of", "5")
    assert (held["value"], "nobody_since" in held) == (["沈月华"], False)
    assert chain(cli(items_book, "history", "九转金丹")) == [("沈月华", 2, 6), (None, 6, None)]
    text = cli(items_book, "history", "九转金丹", fmt="text")
    assert "无人持有" in text and "“服下九转金丹”" in text
    # nobody held it yet: no record, not 「无人持有」
    assert cli(items_book, "fact", "九转金丹", "--as-of", "1", fmt="text").strip() == (
        "九转金丹的持有者：（无记录）"
    )
    with webnovel.open_project(items_book) as book:
        versions = book.history("九转金丹", "持有者")
        assert [(v.value, v.status) for v in versions] == [
            ("沈月华", "outdated"),
            (None, "active"),
        ]
        assert {v.subject_name for v in versions} == {"九转金丹"}


def test_get_fact_without_a_field_answers_over_mcp_as_the_cli_does(items_book: Path) -> None:
    """Agents ask `get_fact {"subject": "青冥剑"}` with no field (trial 4, §7, the third trial
    running): an item answers who holds it, anyone else every field, as `fact NAME` does."""
    pytest.importorskip("mcp")
    import asyncio

    from mcp import Client

    from webnovel.mcp import create_server

    async def ask(subject: str) -> Any:
        with webnovel.open_project(items_book) as opened:
            async with Client(create_server(opened).lowlevel()) as client:
                answered = await client.call_tool("get_fact", {"subject": subject})
        assert not answered.is_error, answered.content
        return json.loads(answered.content[0].text)

    sword = asyncio.run(ask("青冥剑"))
    assert (sword["field"], sword["value"], sword["holder_ids"]) == ("holder", ["陆青云"], ["lu"])
    assert sword == cli(items_book, "fact", "青冥剑")
    person = asyncio.run(ask("陆青云"))
    assert person["field"] is None and person["entity_name"] == "陆青云"
    assert "items" in {f["field"] for f in person["facts"]}
    assert person == cli(items_book, "fact", "陆青云")
