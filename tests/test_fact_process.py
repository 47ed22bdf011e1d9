"""A fresh `webnovel fact` process loads what an as-of fact needs and nothing else: no other
command's parser or code, no write path, no packs, search or review, no chapter report or
resume, none of the records other than facts and entities, and no PostgreSQL driver for a SQLite
book. Agents run it once per question; benchmarks/store_speed.py times it, this pins it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import webnovel
from webnovel.ingest.sample_book import sample_chapters

NOT_FOR_A_FACT = (
    "webnovel.cli.demo",
    "webnovel.book.resume",
    "webnovel.book.importing",
    "webnovel.memory.records",
    "webnovel.memory.read.chapter_report",
    "webnovel.memory.write.name_suggestions",
    "webnovel.memory.write.write_pipeline",
    "webnovel.memory.write.chapter_result",
    "webnovel.memory.write.intake",
    "webnovel.memory.packs.orchestrator",
    "webnovel.memory.retrieval.search",
    "webnovel.memory.review.draft_review",
    "webnovel.extraction",
    "psycopg",
    "tantivy",
    "difflib",
    "tempfile",
    "socket",
    "asyncio",
    "importlib.metadata",
    "unicodedata",  # a JSON answer measures no columns
)


def _fact_process(root: Path, *words: str) -> tuple[object, set[str]]:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "webnovel", "--project", str(root), "fact"]
        + list(words)
        + ["--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    loaded = {
        line.rsplit("|", 1)[1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return json.loads(run.stdout), loaded


def test_a_fresh_fact_loads_only_what_it_needs(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="青灯照剑") as book:
        for chapter in list(sample_chapters())[:4]:
            book.commit(chapter.result, text=chapter.text)
        expected = book.fact("林砚", "境界", as_of=3)
    assert expected is not None
    answer, loaded = _fact_process(tmp_path / "b", "林砚", "境界", "--as-of", "3")
    assert isinstance(answer, dict) and answer["value"] == expected.value
    assert "webnovel.memory.read.as_of_reads" in loaded  # the probe sees what is imported
    assert sorted(m for m in NOT_FOR_A_FACT if m in loaded) == []


def test_a_fact_about_a_stranger_still_suggests_names(tmp_path: Path) -> None:
    """What the fresh process leaves out is loaded when it is needed: a name not found brings
    the suggestions, and the answer is the same as before."""
    with webnovel.init_project(tmp_path / "b", title="青灯照剑") as book:
        for chapter in list(sample_chapters())[:2]:
            book.commit(chapter.result, text=chapter.text)
    run = subprocess.run(
        [sys.executable, "-m", "webnovel", "--project", str(tmp_path / "b"), "fact", "林研"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert run.returncode == 1
    assert "林研" in run.stderr and "林砚" in run.stderr  # did you mean 林砚
