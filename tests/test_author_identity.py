"""The author's own decisions outlive a re-import: `import text` run again (the same novel, or a
corrected edition) writes the author's layer into every chapter it commits, so the cast accepted,
the names merged and rejected, and the entities renamed hold. Renames are the author's decisions
too (`rename`). On 《西游记》1–2回 (tests/data)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel

DATA = Path(__file__).parent / "data"
CAST = [{"id": "wukong", "name": "孙悟空", "type": "角色", "aliases": []}]


def novel(folder: Path, corrected: bool = False) -> Path:
    """The two chapters as one TXT; the corrected edition fixes a word in the second."""
    text = "".join((DATA / f"xiyouji_0{n}.txt").read_text(encoding="utf-8") for n in (1, 2))
    if corrected:
        text = text.replace("祖师道", "祖师言", 1)
    path = folder / ("corrected.txt" if corrected else "xiyouji.txt")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def book(tmp_path: Path) -> Iterator[webnovel.Project]:
    project = webnovel.init_project(tmp_path / "book", title="西游记")
    project.import_text(novel(tmp_path), cast=CAST)
    yield project
    project.close()


def cast_of(book: webnovel.Project) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {e.id: (e.name, e.aliases) for e in book.entities()}


@pytest.mark.parametrize("corrected", [False, True])
def test_accepted_merged_and_rejected_names_survive_a_reimport(
    book: webnovel.Project, tmp_path: Path, corrected: bool
) -> None:
    book.accept_candidate("祖师", entity_id="puti")
    book.merge_candidate("猴王", "孙悟空")
    book.reject_candidate("樵夫")
    # a chapter the author wrote by hand after the imported ones, its state on the merged name
    state = {"entity_id": "猴王", "field": "location", "new": "灵台方寸山"}
    book.commit({"chapter": 3, "state_changes": [state]}, text="猴王在山中修行。")
    decided = cast_of(book)
    assert decided == {"puti": ("祖师", ()), "wukong": ("孙悟空", ("猴王",))}

    again = book.import_text(novel(tmp_path, corrected), start=1, cast=CAST)
    assert again.committed == 2 if corrected else again.committed <= 2

    assert cast_of(book) == decided  # nothing lost, nothing doubled
    assert book.entity("猴王").id == "wukong"
    assert book.fact("猴王", "location").value == "灵台方寸山"
    queued = {c.name for c in book.candidates(min_count=2, limit=200)}
    assert not {"祖师", "猴王", "樵夫", "孙悟空"} & queued
    assert book.conflicts() == []
    for chapter in (1, 2):
        result = book.stored_commit(chapter)["result"]
        intros = [e["id"] for e in result.get("entities_new") or []]
        assert len(intros) == len(set(intros)), result["entities_new"]
        seen = [a["id"] for a in result["entities_appeared"]]
        assert len(seen) == len(set(seen)) and {"puti", "wukong"} <= set(seen)
        for appeared in result["entities_appeared"]:
            assert len(appeared["mentions"]) == len(set(appeared["mentions"]))
    first = book.stored_commit(1)["result"]["entities_new"]
    assert json.dumps(first, ensure_ascii=False).count('"猴王"') == 1
