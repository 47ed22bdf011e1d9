"""A book open for reading answers as of any chapter without loading the write path, and the
facade's old import path still imports."""

import json
import subprocess
import sys
from pathlib import Path

import webnovel
from webnovel.book import BookReader
from webnovel.ingest.sample_book import sample_chapters

HEAVY = (
    "webnovel.memory.write.write_pipeline",
    "webnovel.memory.write.intake",
    "webnovel.memory.packs.orchestrator",
    "webnovel.memory.retrieval.search",
    "webnovel.memory.review.draft_review",
)


def _sample_book(root: Path) -> Path:
    with webnovel.init_project(root, title="青灯照剑") as book:
        for chapter in list(sample_chapters())[:11]:
            book.commit(chapter.result, text=chapter.text)
    return root


def test_a_reader_answers_as_a_project_does(tmp_path: Path) -> None:
    root = _sample_book(tmp_path / "book")
    reader = BookReader(root)
    with webnovel.open_project(root) as book:
        for as_of in (3, 11):
            ours = reader.fact("林砚", "境界", as_of=as_of)
            theirs = book.fact("林砚", "境界", as_of=as_of)
            assert ours is not None and theirs is not None
            assert ours.to_dict() == theirs.to_dict()
    reader.storage.close()


def test_a_fresh_reader_process_loads_no_write_path(tmp_path: Path) -> None:
    root = _sample_book(tmp_path / "book")
    script = (
        "import json, sys\n"
        "from webnovel.book.reader import BookReader\n"
        f"reader = BookReader(__import__('pathlib').Path({str(root)!r}))\n"
        "item = reader.fact('林砚', '境界')\n"
        f"print(json.dumps([item.value, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    value, loaded = json.loads(run.stdout)
    assert value == "金丹"
    assert loaded == []


def test_a_chapter_that_cannot_be_is_refused_not_answered_empty(tmp_path: Path) -> None:
    import pytest

    from webnovel.errors import InvalidInput

    reader = BookReader(_sample_book(tmp_path / "book"))
    with pytest.raises(InvalidInput, match="章节号从 1 开始"):
        reader.chapter(0)
    with pytest.raises(InvalidInput, match="起始章（第5章）在结束章（第3章）之后"):
        reader.timeline(5, 3)
    reader.storage.close()
