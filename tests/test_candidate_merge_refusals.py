"""`candidates merge NAME --into E` refuses a NAME that already means someone: another entity's
alias (the name would then mean two entities, which `rename` refuses too), or E itself (its
name, id or alias: every chapter naming it was rewritten for nothing). Refused with the names
said, and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_book_dir

from cli_runner import run_cli


@pytest.fixture
def cast(tmp_path: Path) -> Path:
    """The sample's chapters, 林砚 (called 砚儿) and 韩啸 accepted as entities."""
    root = tmp_path / "book"
    with webnovel.init_project(root, title="青灯照剑") as book:
        book.import_text(sample_book_dir() / "chapters")
        book.accept_candidate("林砚", entity_id="linyan")
        book.merge_candidate("砚儿", "林砚")
        book.accept_candidate("韩啸", entity_id="hanxiao")
    return root


def written(root: Path) -> tuple[str | None, str | None]:
    """What a refused merge must leave as it was: the commit sequence and the decisions."""
    with webnovel.open_project(root) as book:
        return book.store.commits.meta("commit_seq"), book.store.commits.meta("author_decisions")


def test_another_entitys_alias_is_refused_naming_both(cast: Path) -> None:
    before = written(cast)
    ran = run_cli("--project", str(cast), "candidates", "merge", "砚儿", "--into", "韩啸")
    assert ran.returncode != 0
    assert "砚儿" in ran.stderr and "林砚（linyan）的别名" in ran.stderr, ran.stderr
    assert "candidates merge 林砚 --into 韩啸" in ran.stderr  # the merge they may have meant
    assert "Traceback" not in ran.stderr
    assert written(cast) == before
    with webnovel.open_project(cast) as book:
        assert book.entity("砚儿").id == "linyan"  # still one entity's name
        assert "砚儿" not in book.entity("韩啸").aliases
        # the entity merge is left alone: 林砚, an entity's own name, folds into 韩啸
        done = book.merge_candidate("林砚", "韩啸")
        assert done.entity_id == "hanxiao" and done.chapters
        assert {"林砚", "砚儿"} <= set(book.entity("韩啸").aliases)


@pytest.mark.parametrize("name", ["林砚", "linyan", "砚儿"])
def test_merging_an_entity_into_itself_is_refused(cast: Path, name: str) -> None:
    before = written(cast)
    ran = run_cli("--project", str(cast), "candidates", "merge", name, "--into", "林砚")
    assert ran.returncode != 0
    assert f"「{name}」并入 林砚（linyan）" in ran.stderr and "无需合并" in ran.stderr, ran.stderr
    assert written(cast) == before
