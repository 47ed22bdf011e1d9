"""Items given away by one who does not hold them: the conflict is a function of the book's
content alone (the same whatever order its chapters were committed in, and after a rebuild),
and one mistake is one conflict: `item_not_held` when another holds the thing,
`set_remove_missing` when nobody does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import webnovel

from stores import init_book


def cast(*ids: str) -> list[dict[str, Any]]:
    return [{"id": e, "name": f"角色{e}", "current": {"location": "青石镇"}} for e in ids]


def items(entity: str, op: str, thing: str) -> dict[str, Any]:
    return {"entity_id": entity, "field": "items", "op": op, "new": thing}


# Chapter 1 gives 甲 to 角色e2 before e2 is introduced (chapter 3): a pending reference that
# chapter 3 adopts; chapter 2 has e0 hand over 甲, which e2 holds.
LATE_HOLDER = {
    1: {
        "chapter": 1,
        "entities_new": cast("e0", "e1"),
        "state_changes": [items("角色e2", "add", "甲")],
    },
    2: {"chapter": 2, "state_changes": [items("e0", "remove", "甲")]},
    3: {"chapter": 3, "entities_new": cast("e2")},
}


def conflicts(book: webnovel.Project) -> list[tuple[Any, ...]]:
    """Every recorded conflict, by id and content."""
    return sorted(
        (c.id, c.kind, c.entity_id, c.field, c.chapter, repr(c.expected), repr(c.found), c.target)
        for c in book.conflicts()
    )


def book_of(backend: str, folder: Path, chapters: list[dict[str, Any]]) -> webnovel.Project:
    book = init_book(backend, folder, title="物归何人")
    for result in chapters:
        book.commit(result)
    return book


# The giver named before his introduction: 角色e2 hands over 甲, which e1 holds.
LATE_GIVER = {
    1: {
        "chapter": 1,
        "entities_new": cast("e0", "e1"),
        "state_changes": [items("e1", "add", "甲")],
    },
    2: {"chapter": 2, "state_changes": [items("角色e2", "remove", "甲")]},
    3: {"chapter": 3, "entities_new": cast("e2")},
}


@pytest.mark.parametrize("order", [(1, 2, 3), (1, 3, 2), (3, 1, 2), (2, 3, 1)])
@pytest.mark.parametrize(
    ("chapters", "giver", "holder"), [(LATE_HOLDER, "e0", "e2"), (LATE_GIVER, "e2", "e1")]
)
def test_an_entity_named_before_its_introduction_is_the_same_in_every_order(
    backend: str,
    tmp_path: Path,
    order: tuple[int, ...],
    chapters: dict[int, dict[str, Any]],
    giver: str,
    holder: str,
) -> None:
    in_order = book_of(backend, tmp_path / "a", [chapters[n] for n in (1, 2, 3)])
    shuffled = book_of(backend, tmp_path / "b", [chapters[n] for n in order])
    with in_order, shuffled:
        found = conflicts(shuffled)
        assert found == conflicts(in_order)
        [taken] = [c for c in shuffled.conflicts() if c.kind == "item_not_held"]
        assert (taken.entity_id, taken.chapter, taken.expected, taken.target) == (
            giver,
            2,
            holder,
            holder,
        )
        assert "set_remove_missing" not in {c.kind for c in shuffled.conflicts()}
        shuffled.rebuild()
        assert conflicts(shuffled) == found


def test_giving_away_what_another_holds_is_one_conflict(backend: str, tmp_path: Path) -> None:
    chapters = [
        {
            "chapter": 1,
            "entities_new": cast("e0", "e1"),
            "state_changes": [items("e1", "add", "甲")],
        },
        {"chapter": 2, "state_changes": [items("e0", "remove", "甲")]},
    ]
    with book_of(backend, tmp_path / "b", chapters) as book:
        assert [(c.kind, c.entity_id, c.chapter) for c in book.conflicts()] == [
            ("item_not_held", "e0", 2)
        ]
        review = book.review(chapters[1])
        assert [i.category for i in review.issues if i.field == "items"] == ["item_not_held"]
        # the holder's chapter taken back, nobody holds it: the same mistake, said as such
        book.commit({"chapter": 1, "entities_new": cast("e0", "e1")})
        after = [(c.kind, c.entity_id, c.chapter, c.expected) for c in book.conflicts()]
        assert after == [("set_remove_missing", "e0", 2, "甲")]
        found = conflicts(book)
        book.rebuild()
        assert conflicts(book) == found


def test_giving_away_what_nobody_holds_is_set_remove_missing(backend: str, tmp_path: Path) -> None:
    chapters = [
        {"chapter": 1, "entities_new": cast("e0", "e1")},
        {"chapter": 2, "state_changes": [items("e0", "remove", "甲")]},
    ]
    with book_of(backend, tmp_path / "b", chapters) as book:
        found = [(c.kind, c.entity_id, c.chapter) for c in book.conflicts()]
        assert found == [("set_remove_missing", "e0", 2)]
        # and once someone else holds it, the same removal is `item_not_held`
        book.commit(
            {
                "chapter": 1,
                "entities_new": cast("e0", "e1"),
                "state_changes": [items("e1", "add", "甲")],
            }
        )
        found = [(c.kind, c.entity_id, c.chapter) for c in book.conflicts()]
        assert found == [("item_not_held", "e0", 2)]


def test_giving_away_what_one_received_in_the_same_chapter_is_no_conflict(
    backend: str, tmp_path: Path
) -> None:
    """e1 hands 甲 to e0, who hands it on within the chapter: e0 held it when he gave it."""
    chapters = [
        {
            "chapter": 1,
            "entities_new": cast("e0", "e1", "e2"),
            "state_changes": [items("e1", "add", "甲")],
        },
        {
            "chapter": 2,
            "state_changes": [
                items("e1", "remove", "甲"),
                items("e0", "add", "甲"),
                items("e0", "remove", "甲"),
                items("e2", "add", "甲"),
            ],
        },
    ]
    with book_of(backend, tmp_path / "b", chapters) as book:
        assert [c.kind for c in book.conflicts()] == []


def test_an_item_introduced_later_judges_earlier_removals_in_every_order(
    backend: str, tmp_path: Path
) -> None:
    """甲 in two hands is no unique thing until chapter 3 introduces it as an item (物品): from
    then on e0 handing it over in chapter 2 is `item_not_held`, whichever came first."""
    chapters = {
        1: {
            "chapter": 1,
            "entities_new": cast("e0", "e1", "e2"),
            "state_changes": [items("e1", "add", "甲"), items("e2", "add", "甲")],
        },
        2: {"chapter": 2, "state_changes": [items("e0", "remove", "甲")]},
        3: {"chapter": 3, "entities_new": [{"id": "jia", "name": "甲", "type": "物品"}]},
    }
    in_order = book_of(backend, tmp_path / "a", [chapters[n] for n in (1, 2, 3)])
    shuffled = book_of(backend, tmp_path / "b", [chapters[n] for n in (3, 1, 2)])
    with in_order, shuffled:
        found = conflicts(in_order)
        assert [(c[1], c[2], c[4]) for c in found] == [("item_not_held", "e0", 2)]
        assert conflicts(shuffled) == found
        in_order.rebuild()
        assert conflicts(in_order) == found
