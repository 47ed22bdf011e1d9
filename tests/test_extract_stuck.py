"""A chapter whose extraction failed is not stuck: the answers a run rejected are forgotten, so
the next run asks again; the failure says why in the reader's words and shows what the model
answered; a failed chapter is listed, with every request sent counted.

A real chat-completions server on 127.0.0.1 (tests/chat_server.py) answers; nothing is patched.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel
from own_user import as_a_user_of_our_own
from test_extract import imported_book
from webnovel.errors import ExtractionFailed
from webnovel.extraction.answer_cache import AnswerCache, answer_key
from webnovel.extraction.chat_client import Completion, Usage
from webnovel.extraction.prompt import PROMPT_VERSION

from chat_server import Reply, chat_server, gold_results

KEY = "sk-test-6b1d2f0c9e8a4c7b"
GOLD_1 = json.dumps(gold_results()[1], ensure_ascii=False)
GARBAGE = "抱歉，我无法完成这个任务。" * 30  # longer than the excerpt shown


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as monkeypatch:
        as_a_user_of_our_own(tmp_path_factory, monkeypatch)
        root = tmp_path_factory.mktemp("imported") / "book"
        imported_book(root).close()
    return root


@pytest.fixture
def book(
    tmp_path: Path, imported: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[webnovel.Project]:
    monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", KEY)
    monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")
    shutil.copytree(imported, tmp_path / "book")
    project = webnovel.open_project(tmp_path / "book")
    yield project
    project.close()


def extract_1(book: webnovel.Project, script, force: bool = False):
    with chat_server(script) as server, pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        try:
            return book.extract(1, 1, force=force), server
        except ExtractionFailed as failed:
            return failed, server


def kept_answers(book: webnovel.Project) -> list[tuple[str, str | None]]:
    with sqlite3.connect(book.root / ".webnovel" / "answers.db") as db:
        return db.execute("SELECT content, finish_reason FROM answers").fetchall()


def test_a_failed_chapter_is_asked_again_next_run_and_commits(book: webnovel.Project) -> None:
    failed, server = extract_1(book, lambda n, b: Reply(GARBAGE))
    assert isinstance(failed, ExtractionFailed) and len(server.seen) == 3  # 1 + 2 repairs
    assert kept_answers(book) == []  # the rejected answers are not kept
    report, server = extract_1(book, lambda n, b: Reply(GOLD_1))
    assert len(server.seen) == 1  # asked again, not replayed
    assert report.extracted[0].status == "committed"
    assert len(kept_answers(book)) == 1  # the answer that led to a commit is kept
    again, server = extract_1(book, None, force=True)
    assert server.seen == [] and again.extracted[0].cache_hits == 1


def test_the_failure_is_said_in_chinese_and_shows_the_start_of_the_answer(
    book: webnovel.Project,
) -> None:
    failed, _ = extract_1(book, lambda n, b: Reply(GARBAGE))
    said = str(failed)
    assert "回答里没有 JSON 对象" in said and "holds no JSON object" not in said
    assert "模型最后的回答（前 200 字）：抱歉，我无法完成这个任务。" in said
    assert GARBAGE not in said  # bounded: only its start
    row = failed.report.to_dict()["chapters"][-1]
    assert row["status"] == "failed" and "模型最后的回答" in row["problem"]


def test_a_cut_off_answer_is_never_kept(book: webnovel.Project) -> None:
    def script(number: int, body: dict) -> Reply:
        return Reply(GOLD_1[:500], finish_reason="length") if number == 0 else Reply(GOLD_1)

    report, server = extract_1(book, script)
    assert report.extracted[0].status == "committed" and len(server.seen) == 2
    assert [reason for _, reason in kept_answers(book)] == ["stop"]


def test_an_endpoint_that_keeps_failing_lists_the_chapter_and_counts_every_request(
    book: webnovel.Project,
) -> None:
    failed, server = extract_1(book, lambda n, b: Reply(status=500, raw=b"oops"))
    assert len(server.seen) == 5  # the first try and 4 retries
    done = failed.report
    assert done.total.requests == 5 and done.total.failed == 1
    row = done.to_dict()["chapters"][-1]
    assert row["chapter"] == 1 and row["status"] == "failed" and row["requests"] == 5
    assert "HTTP 500" in row["problem"]


def test_a_book_stuck_by_an_earlier_version_is_asked_afresh_in_one_run(
    book: webnovel.Project,
) -> None:
    """Answers an earlier version kept although they failed (the whole failed conversation)
    are replayed once, then forgotten, and the chapter is asked again in the same run."""
    failed, server = extract_1(book, lambda n, b: Reply(GARBAGE))
    cache = AnswerCache(book.root / ".webnovel" / "answers.db")
    for seen in server.seen:  # what the earlier version kept: each garbage answer, by its turn
        key = answer_key(PROMPT_VERSION, "test-model", seen.body["messages"])
        cache.put(key, 1, "test-model", PROMPT_VERSION, Completion(GARBAGE, "stop", Usage(), 1))
    cache.close()
    report, server = extract_1(book, lambda n, b: Reply(GOLD_1))
    assert not isinstance(report, ExtractionFailed), str(report)
    assert len(server.seen) == 1 and report.extracted[0].status == "committed"
