from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.packs.relevance_filter import freshness, shared_terms
from webnovel.memory.read.aliases import AliasIndex
from webnovel.memory.store import entity_ops

PAIRS = [
    ("萧炎", "xiaoyan"),
    ("炎子", "xiaoyan"),
    ("xiaoyan", "xiaoyan"),
    ("萧炎之父", "xiaozhan"),
    ("萧战", "xiaozhan"),
    ("长老", "a"),
    ("长老", "b"),
    ("炎", "xiaoyan"),
    ("e1", "e1"),
]


def found(text: str) -> list[tuple[str, str, bool]]:
    return [(m.entity_id, m.text, m.ambiguous) for m in AliasIndex(PAIRS, fold=str).find(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("萧炎来了", [("xiaoyan", "萧炎", False)]),
        ("炎子与萧战", [("xiaoyan", "炎子", False), ("xiaozhan", "萧战", False)]),
        ("萧炎之父到了", [("xiaozhan", "萧炎之父", False)]),  # longest match first
        ("一团炎火", []),  # one-character aliases never match
        ("长老说", [("a", "长老", True), ("b", "长老", True)]),
        ("e12 and e1", [("e1", "e1", False)]),  # ascii ids match whole words
        ("见到xiaoyan", [("xiaoyan", "xiaoyan", False)]),
    ],
)
def test_alias_automaton(text: str, expected: list) -> None:
    assert found(text) == expected


def test_folding_is_applied_to_names_and_text() -> None:
    index = AliasIndex([("萧炎", "x")], fold=lambda t: t.replace("蕭", "萧"))
    assert [m.entity_id for m in index.find("蕭炎到了")] == ["x"]


def test_freshness_halves_per_window() -> None:
    assert freshness(100, 100, 30) == 1.0
    assert freshness(70, 100, 30) == pytest.approx(0.5)
    assert freshness(1, 10_000, 30) == 0.1


def test_shared_terms() -> None:
    assert shared_terms("青灯只在子时点燃", {"青灯", "剑诀"}) == ["青灯"]


def test_traditional_names_are_found_with_opencc_installed() -> None:
    pytest.importorskip("opencc")
    from webnovel.memory.read.aliases import traditional_folder

    index = AliasIndex([("萧炎", "x"), ("药老", "y")], fold=traditional_folder())
    assert [m.entity_id for m in index.find("蕭炎與藥老")] == ["x", "y"]


def test_the_automaton_kept_in_step_equals_one_built_anew(tmp_path: Path) -> None:
    """After every commit, revision and retraction, the automaton a long-lived process updates
    by what changed finds exactly what one built from scratch finds."""
    chapters = list(sample_chapters())
    text = "".join(c.text for c in chapters)

    def check(book: webnovel.Project) -> None:
        fresh = AliasIndex(entity_ops.alias_pairs(book.storage.conn))
        kept = book.aliases()
        assert {k: sorted(v) for k, v in kept.by_first.items()} == {
            k: sorted(v) for k, v in fresh.by_first.items()
        }
        # the book's text as written, as bulk text is read: both indexes fold a text alike
        # (OpenCC's pure-Python fold of the whole book cost this test three quarters of its time)
        assert kept.find(text, fold=False) == fresh.find(text, fold=False)

    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.aliases()
        for chapter in chapters:
            book.commit(chapter.result)
            check(book)
        renamed = {**chapters[9].result}
        renamed["entities_new"] = [{**e, "aliases": ["黑袍人"]} for e in renamed["entities_new"]]
        book.commit(renamed)  # a revision changes a name
        check(book)
        book.retract(10)
        check(book)
        book.retract(1)  # the protagonist's introduction
        check(book)
