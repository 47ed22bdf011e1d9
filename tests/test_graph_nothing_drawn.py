"""The relation graph of a book with nothing to draw yet (no entities, entities but no relations,
a centre linked to no one: every imported book before extraction) answers 200 and says so, on the
dashboard and in the exported wiki, instead of a 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402

from dashboard_server import Running, running_dashboard  # noqa: E402


def _person(entity_id: str, name: str) -> dict[str, object]:
    return {"id": entity_id, "name": name, "type": "角色", "desc": f"{name}，镇上的少年"}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """Chapter 1 has no entity, chapter 2 one, chapter 3 a second one; no relation anywhere."""
    root = tmp_path_factory.mktemp("graph") / "book"
    with webnovel.init_project(root, title="寒江", genre="仙侠") as book:
        book.commit({"chapter": 1, "title": "雪夜", "summary": "雪落青石镇。"})
        book.commit(
            {
                "chapter": 2,
                "title": "铁匠铺",
                "summary": "林砚在铁匠铺打铁。",
                "entities_new": [_person("linyan", "林砚")],
            }
        )
        book.commit(
            {
                "chapter": 3,
                "title": "来客",
                "summary": "韩啸来找林砚。",
                "entities_new": [_person("hanxiao", "韩啸")],
                "entities_appeared": [{"id": "linyan"}],
            }
        )
    with running_dashboard(root) as running:
        yield running


@pytest.mark.parametrize(
    "path",
    [
        "/graph?as_of=1",  # no entity
        "/graph?as_of=2",  # one entity
        "/graph?as_of=3",  # two entities, no relation
        "/graph",
    ],
)
def test_a_graph_with_no_relations_says_there_is_nothing_to_draw(board: Running, path: str) -> None:
    answer = board.get(path)
    assert answer.status == 200, answer.body[:400]
    assert "还没有关系" in answer.body
    assert "<svg" not in answer.body


def test_a_centre_linked_to_no_one_says_so_and_keeps_its_name(board: Running) -> None:
    answer = board.get("/graph?center=linyan&as_of=3")
    assert answer.status == 200, answer.body[:400]
    assert "还没有关系" in answer.body and "林砚" in answer.body
    assert 'value="林砚"' in answer.body  # the centre stays in the form
    assert "<svg" not in answer.body


def test_the_wiki_of_a_book_with_no_relations_is_written(board: Running, tmp_path: Path) -> None:
    from webnovel.dashboard.wiki import write_wiki

    with webnovel.open_project(board.root) as book:
        written = write_wiki(book, tmp_path / "wiki", None)
    assert written["entities"] == 2
    page = (tmp_path / "wiki" / "relations.html").read_text(encoding="utf-8")
    assert "尚无关系" in page and "<svg" not in page
