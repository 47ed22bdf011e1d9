"""The reader wiki: spoiler-free by construction. As of chapter N it is byte for byte the wiki
of a book that holds only chapters 1..N, so no entity introduced later, no value set later and
no later name is in it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("jinja2")

import webnovel  # noqa: E402
from webnovel.dashboard.wiki import page_name, write_wiki  # noqa: E402
from webnovel.errors import InvalidInput  # noqa: E402
from webnovel.ingest.sample_book import sample_chapters  # noqa: E402

from cli_runner import Ran, run_cli  # noqa: E402


def sample(folder: Path, up_to: int) -> webnovel.Project:
    book = webnovel.init_project(folder, title="青灯照剑")
    for chapter in sample_chapters():
        if chapter.number <= up_to:
            book.commit(chapter.result, text=chapter.text)
    return book


def site(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("as_of", [1, 6, 9, 11])
def test_the_wiki_as_of_n_is_the_wiki_of_the_first_n_chapters(tmp_path: Path, as_of: int) -> None:
    with sample(tmp_path / "whole", 12) as whole, sample(tmp_path / "prefix", as_of) as prefix:
        write_wiki(whole, tmp_path / "from-whole", as_of)
        write_wiki(prefix, tmp_path / "from-prefix", as_of)
        later = {e.name for e in whole.entities()} - {e.name for e in whole.entities(as_of)}
    made, expected = site(tmp_path / "from-whole"), site(tmp_path / "from-prefix")
    assert made == expected
    text = "".join(made.values())
    assert all(name not in text for name in later)


def test_the_wiki_holds_what_readers_know_and_no_secrets(tmp_path: Path) -> None:
    with sample(tmp_path / "book", 12) as book:
        summary = write_wiki(book, tmp_path / "wiki", 9)
        entities = book.entities(9)
        secrets = [s.content for s in book.secrets(9)]
    pages = site(tmp_path / "wiki")
    assert summary["entities"] == len(entities) and summary["as_of"] == 9
    assert {"index.html", "relations.html", "timeline.html", "wiki.css"} <= set(pages)
    index = pages["index.html"]
    assert all(e.name in index for e in entities)
    text = "".join(pages.values())
    assert "筑基" in text and "金丹" not in text  # 林砚's realm as of 9, not its chapter-11 one
    assert secrets and all(s not in text for s in secrets)
    assert "<script" not in text and "http://" not in text and "https://" not in text


def test_the_cli_writes_a_wiki_and_refuses_a_foreign_folder(tmp_path: Path) -> None:
    with sample(tmp_path / "book", 4):
        pass

    def run(*args: str) -> Ran:
        return run_cli("--project", str(tmp_path / "book"), "wiki", *args)

    made = run(str(tmp_path / "out"), "--as-of", "3")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["as_of"] == 3
    assert run(str(tmp_path / "out"), "--as-of", "4").returncode == 0  # its own folder again
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep me")
    refused = run(str(foreign))
    assert refused.returncode == 2 and "不是空文件夹" in refused.stderr
    assert run(str(tmp_path / "x"), "--as-of", "9").returncode == 2


def test_an_empty_book_has_no_wiki(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="空") as book, pytest.raises(InvalidInput):
        write_wiki(book, tmp_path / "wiki", None)


@pytest.mark.parametrize("planted", ["index.html", "wiki.css", "relations.html", "e-page"])
def test_a_link_shipped_in_the_wiki_folder_is_refused_not_written_through(
    tmp_path: Path, planted: str
) -> None:
    """OUT is the author's choice, the files in it may be a received book's: one of them linked
    to a file of the author's would be overwritten with a page (docs/security.md)."""
    with sample(tmp_path / "book", 4) as book:
        first = sorted(e.id for e in book.entities(4))[0]
    out = tmp_path / "book" / "reader-wiki"
    out.mkdir()
    (out / "wiki.css").write_text("shipped", encoding="utf-8")
    victim = tmp_path / "notes.txt"
    victim.write_text("my notes", encoding="utf-8")
    name = page_name(first) if planted == "e-page" else planted
    (out / name).unlink(missing_ok=True)
    (out / name).symlink_to(victim)
    refused = run_cli("--project", str(tmp_path / "book"), "wiki", str(out))
    assert refused.returncode == 2, refused.stdout
    assert "符号链接" in refused.stderr and str(out / name) in refused.stderr
    assert victim.read_text(encoding="utf-8") == "my notes"
