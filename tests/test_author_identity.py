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
from webnovel.errors import InvalidInput

from cli_runner import run_cli

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


def test_a_rename_holds_from_its_chapter_keeps_the_old_name_and_survives_a_reimport(
    book: webnovel.Project, tmp_path: Path
) -> None:
    book.accept_candidate("祖师", entity_id="puti")
    book.accept_candidate("石猴", entity_id="shihou")
    book.merge_candidate("猴王", "石猴")  # decided before the rename: it follows the new name
    first = book.rename_entity("祖师", "菩提祖师")  # from the chapter introducing it
    assert (first.action, first.old_name, first.from_chapter) == ("renamed", "祖师", 1)
    later = book.rename_entity("石猴", "美猴王", from_chapter=2)
    assert later.to_dict() == {
        "entity_id": "shihou",
        "name": "美猴王",
        "old_name": "石猴",
        "action": "renamed",
        "from_chapter": 2,
        "chapters": [2],
    }
    book.rename_entity("孙悟空", "齐天大圣", from_chapter=2)  # one the imported cast introduced

    def renamed() -> None:
        people = cast_of(book)
        assert people["puti"] == ("菩提祖师", ("祖师",))
        assert people["shihou"][0] == "美猴王" and {"石猴", "猴王"} <= set(people["shihou"][1])
        assert book.entity("祖师").id == "puti" and book.entity("石猴").id == "shihou"
        assert people["wukong"] == ("齐天大圣", ("孙悟空",))
        as_of_1 = {e.id: e.name for e in book.entities(as_of=1)}
        assert as_of_1 == {"puti": "菩提祖师", "shihou": "石猴", "wukong": "孙悟空"}
        assert book.conflicts() == []
        queued = {c.name for c in book.candidates(min_count=2, limit=200)}
        assert not {"祖师", "石猴", "猴王", "美猴王"} & queued

    renamed()
    book.import_text(novel(tmp_path), start=1, cast=CAST)
    renamed()
    book.import_text(novel(tmp_path, corrected=True), start=1, cast=CAST)
    renamed()


def test_a_rename_refuses_a_name_another_entity_holds_and_is_undone(
    book: webnovel.Project,
) -> None:
    book.accept_candidate("祖师", entity_id="puti")
    with pytest.raises(InvalidInput, match="已是 孙悟空（wukong）的名字或别名"):
        book.rename_entity("祖师", "孙悟空")
    with pytest.raises(InvalidInput, match="第1章才登场"):
        book.rename_entity("祖师", "菩提祖师", from_chapter=0)
    book.rename_entity("祖师", "菩提祖师")
    book.rename_entity("菩提祖师", "须菩提祖师", from_chapter=2)
    assert book.entity("puti").name == "须菩提祖师"
    undone = book.rename_entity("须菩提祖师", "", undo=True)  # the latest first
    assert (undone.action, undone.name, undone.chapters) == ("undone", "须菩提祖师", (2,))
    assert book.entity("puti").name == "菩提祖师"
    book.rename_entity("puti", "", undo=True)
    assert cast_of(book)["puti"] == ("祖师", ())
    with pytest.raises(InvalidInput, match="没有可撤销的改名"):
        book.rename_entity("puti", "", undo=True)
    assert book.store.commits.meta("author_decisions").count("renamed") == 0


def test_rename_on_the_command_line(book: webnovel.Project) -> None:
    root = str(book.root)
    book.close()
    taken = run_cli("--project", root, "rename", "孙悟空", "孙悟空", "--format", "text")
    assert taken.returncode == 2 and "已经是这个实体的名字" in taken.stderr
    ran = run_cli("--project", root, "rename", "孙悟空", "齐天大圣", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {
        "entity_id": "wukong",
        "name": "齐天大圣",
        "old_name": "孙悟空",
        "action": "renamed",
        "from_chapter": 1,
        "chapters": [1],
    }
    undone = run_cli("--project", root, "rename", "齐天大圣", "--undo", "--format", "text")
    assert undone.returncode == 0 and "已撤销「孙悟空」→「齐天大圣」的改名" in undone.stdout


def test_a_rename_to_a_merged_name_is_undone_first_and_a_rename_needs_an_introduction(
    book: webnovel.Project,
) -> None:
    book.merge_candidate("猴王", "孙悟空")
    book.rename_entity("孙悟空", "猴王")  # an alias of its own becomes its name
    assert cast_of(book)["wukong"] == ("猴王", ("孙悟空",))
    assert book.undo_candidate("猴王").chapters == (1,)  # the latest decision about 猴王
    assert cast_of(book)["wukong"] == ("孙悟空", ("猴王",))
    with pytest.raises(InvalidInput, match="本书没有已提交的第9章"):
        book.rename_entity("孙悟空", "美猴王", from_chapter=9)
    book.commit({"chapter": 3, "entities_appeared": [{"id": "樵夫"}]}, text="樵夫砍柴。")
    with pytest.raises(InvalidInput, match="「樵夫」从未在任何章节结果中登场"):
        book.rename_entity("樵夫", "老樵夫")


def test_a_rename_interrupted_before_its_decision_is_recorded_leaves_no_half(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chapters a rename rewrites and the decision that lets it be undone go in together:
    Ctrl-C (or a kill) between them used to leave the name changed with nothing to undo."""
    from webnovel.book import author_layer

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    before = book.commit_seq()
    monkeypatch.setattr(author_layer, "record", interrupted)
    with pytest.raises(KeyboardInterrupt):
        book.rename_entity("孙悟空", "齐天大圣", from_chapter=2)
    monkeypatch.undo()
    assert book.commit_seq() == before
    assert cast_of(book)["wukong"] == ("孙悟空", ())
    assert book.rename_entity("孙悟空", "齐天大圣", from_chapter=2).chapters == (2,)
