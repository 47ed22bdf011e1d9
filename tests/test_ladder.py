"""A realm written as authors write it (「金丹中期」, 「练气七层」, 「斗者三星」) still has its place
on the book's ladder, so a fall is seen at commit and in review."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.memory.write.ladder import Place, fell, ladder_place

XIANXIA = ("炼气", "筑基", "金丹", "元婴", "化神")
XUANHUAN = ("斗之气", "斗者", "斗师", "大斗师", "斗灵")


@pytest.mark.parametrize(
    ("value", "place"),
    [
        ("金丹", Place(2, None)),
        ("金丹中期", Place(2, 2)),
        ("筑基后期", Place(1, 3)),
        ("练气七层", Place(0, 7)),  # 练气 is 炼气
        ("煉氣第三層", Place(0, 3)),  # in traditional characters
        ("元嬰大圆满", Place(3, 5)),
        ("化神境", Place(4, None)),  # a suffix that names no stage
        ("凡人", None),
    ],
)
def test_a_value_finds_its_rung_and_stage(value: str, place: Place | None) -> None:
    assert ladder_place(XIANXIA, value) == place


def test_the_longest_rung_wins_and_counted_stages_compare() -> None:
    assert ladder_place(XUANHUAN, "大斗师二星") == Place(3, 2)  # not 斗师
    assert fell(XUANHUAN, "斗者九星", "斗者三星")
    assert not fell(XUANHUAN, "斗者九星", "斗师一星")


@pytest.mark.parametrize(
    ("before", "after", "down"),
    [
        ("金丹中期", "筑基后期", True),
        ("金丹后期", "金丹初期", True),
        ("筑基后期", "金丹初期", False),
        ("金丹后期", "金丹", False),  # no stage named: the same rung is no fall
        ("金丹", "练气", True),
        ("金丹", "凡人", False),  # off the ladder: nothing to compare
    ],
)
def test_a_fall(before: str, after: str, down: bool) -> None:
    assert fell(XIANXIA, before, after) is down


def chapter(n: int, realm: str, **more: object) -> dict[str, object]:
    change: dict[str, object] = {"entity_id": "linyan", "field": "realm", "new": realm}
    change.update(more)
    result: dict[str, object] = {"chapter": n, "title": f"第{n}章", "summary": "林砚修行"}
    if n == 1:
        result["entities_new"] = [{"id": "linyan", "name": "林砚", "type": "角色"}]
    result["state_changes"] = [change]
    return result


def test_a_realm_falling_between_stages_is_a_conflict_and_review_sees_it(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="t", genre="仙侠") as book:
        book.commit(chapter(1, "金丹中期"))
        fell_back = book.commit(chapter(2, "筑基后期"))
        assert [c.kind for c in fell_back.conflicts] == ["regression"]
        assert "从「金丹中期」降为「筑基后期」" in fell_back.conflicts[0].message
        book.commit(chapter(3, "金丹初期"))  # climbing back is no conflict
        assert len(book.conflicts()) == 1
        draft = chapter(4, "练气三层", reason="走火入魔，修为尽失")
        issues = {i.category for i in book.review(draft).issues}
        assert "ladder_regression" in issues  # with a reason: advice to explain it in the text
