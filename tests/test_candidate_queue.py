"""Candidate names as a queue the author works through: accept one as an entity, merge one
into a known entity as an alias, reject one for good; each written through `commit`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidInput
from webnovel.ingest.sample_book import sample_book_dir

from cli_runner import run_cli


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        book.import_text(sample_book_dir() / "chapters")
    return tmp_path / "book"


def names(root: Path) -> list[str]:
    ran = run_cli("--project", str(root), "candidates", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    return [c["name"] for c in json.loads(ran.stdout)]


def test_accept_merge_and_reject_empty_the_queue_for_good(imported: Path) -> None:
    queue = names(imported)
    assert {"林砚", "韩啸", "苏晚晴"} <= set(queue)
    accepted = run_cli("--project", str(imported), "candidates", "accept", "林砚", "--id", "linyan")
    assert accepted.returncode == 0, accepted.stderr
    assert "linyan" in accepted.stdout
    run_cli("--project", str(imported), "candidates", "accept", "苏晚晴")
    merged = run_cli(
        "--project",
        str(imported),
        "candidates",
        "merge",
        "韩啸",
        "--into",
        "苏晚晴",
        "--format",
        "json",
    )
    assert json.loads(merged.stdout)["entity_id"] == "苏晚晴"
    rejected = queue[-1]
    run_cli("--project", str(imported), "candidates", "reject", rejected)
    left = names(imported)
    assert not {"林砚", "苏晚晴", "韩啸", rejected} & set(left)
    with webnovel.open_project(imported) as book:
        linyan = book.entity("林砚")
        assert linyan.id == "linyan" and linyan.first_chapter == 1
        assert book.appearances("linyan") == list(range(1, 13))
        assert "韩啸" in book.entity("苏晚晴").aliases
        book.rebuild()
        assert rejected not in [c.name for c in book.candidates()]  # remembered after a rebuild
        assert book.entity("林砚").id == "linyan"


def test_a_rejected_name_is_not_offered_by_a_chapter_skeleton_either(imported: Path) -> None:
    def offered(book: webnovel.Project) -> set[str]:
        return {c["name"] for n in range(1, 13) for c in book.prefill(n)["candidate_new_entities"]}

    with webnovel.open_project(imported) as book:
        assert "木灵根" in offered(book)  # a root of talent, not a person
        book.reject_candidate("木灵根")
        assert "木灵根" not in offered(book)


def test_bad_requests_are_named(imported: Path) -> None:
    with webnovel.open_project(imported) as book:
        with pytest.raises(InvalidInput, match="已存的章节正文中没有"):
            book.accept_candidate("不存在的人")
        with pytest.raises(InvalidInput, match="类型应为"):
            book.accept_candidate("林砚", entity_type="神仙")
    ran = run_cli("--project", str(imported), "candidates", "merge", "林砚")
    assert ran.returncode == 2 and "--into" in ran.stderr


def test_an_unknown_type_names_its_choices_in_the_readers_words(
    imported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The choices are the vocabulary's (every type a result may introduce), each with its label
    in the reader's language; a synonym (人物, item) is still taken."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    ran = run_cli("--project", str(imported), "candidates", "accept", "林砚", "--type", "bogus")
    assert ran.returncode != 0
    assert "type must be one of" in ran.stderr and "bogus" in ran.stderr, ran.stderr
    for value, word in [
        ("角色", "character"),
        ("地点", "place"),
        ("势力", "faction"),
        ("物品", "item"),
    ]:
        assert f"{value} ({word})" in ran.stderr, ran.stderr
    assert "、" not in ran.stderr, ran.stderr
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    with webnovel.open_project(imported) as book:
        with pytest.raises(InvalidInput, match="角色、地点、势力、物品 之一"):
            book.accept_candidate("林砚", entity_type="神仙")
        settled = book.accept_candidate("林砚", entity_type="person", entity_id="linyan")
        assert settled.action == "accepted"
        assert book.entity("linyan").type == "角色"


def test_a_name_that_already_means_someone_is_not_accepted_again(imported: Path) -> None:
    """Accepting a known entity's own name says it is known (not that it looks like another)."""
    with webnovel.open_project(imported) as book:
        book.accept_candidate("林砚")
        with pytest.raises(InvalidInput, match="「林砚」已是实体 林砚（林砚）的名字或别名"):
            book.accept_candidate("林砚")
