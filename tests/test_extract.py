"""`webnovel extract`: a model reads stored chapters and memory learns from them.

Every test talks to a real chat-completions server on 127.0.0.1 (tests/chat_server.py),
scripted per test; nothing in the client is patched. The book is the sample serial brought in
with `import text` (texts only); the server answers the serial's gold results, so the extracted
book must answer exactly as the demo book, which commits those results directly.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel
from own_user import as_a_user_of_our_own
from webnovel.errors import ExtractionFailed, InvalidConfig
from webnovel.extraction.report import ExtractionReport
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters
from webnovel.memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA

from answers import book_answers
from chat_server import ChatServer, Reply, chat_server, gold_results
from cli_runner import run_cli

KEY = "sk-test-6b1d2f0c9e8a4c7b"
CHAPTERS = sample_book_dir() / "chapters"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with chat_server() as running:
        yield running


def use(monkeypatch: pytest.MonkeyPatch, server: ChatServer) -> None:
    monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", KEY)
    monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")


# A retry goes out at once (`retry_backoff_s = 0`): the server is local, and a test waits only
# where the wait is what it checks.
def imported_book(
    root: Path, llm: str = "timeout_s = 2\nretry_backoff_s = 0\n", chapters: Path = CHAPTERS
) -> webnovel.Project:
    book = webnovel.init_project(root, title="青灯照剑")
    config = book.storage.config_path
    config.write_text(config.read_text(encoding="utf-8") + "\n[llm]\n" + llm, encoding="utf-8")
    book.close()
    book = webnovel.open_project(root)
    book.import_text(chapters)
    return book


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample chapters imported once; each test extracts into its own copy of the folder."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        as_a_user_of_our_own(tmp_path_factory, monkeypatch)
        root = tmp_path_factory.mktemp("imported") / "book"
        imported_book(root).close()
    return root


@pytest.fixture
def book(tmp_path: Path, imported: Path) -> Iterator[webnovel.Project]:
    shutil.copytree(imported, tmp_path / "book")
    project = webnovel.open_project(tmp_path / "book")
    yield project
    project.close()


def demo_book(root: Path) -> webnovel.Project:
    book = webnovel.init_project(root, title="青灯照剑")
    for chapter in sample_chapters():
        book.commit(chapter.result, text=chapter.text)
    return book


def answers_of(book: webnovel.Project) -> dict[str, object]:
    gold = gold_results()
    entities = sorted({e["id"] for r in gold.values() for e in r.get("entities_new", [])})
    fields = sorted(
        {c["field"] for r in gold.values() for c in r.get("state_changes", [])}
        | {
            f
            for r in gold.values()
            for e in r.get("entities_new", [])
            for f in e.get("current", {})
        }
    )
    return book_answers(book, entities, fields, list(range(1, 13)))


# -- the whole serial -----------------------------------------------------------------------------


def test_twelve_extracted_chapters_give_the_demo_books_memory(
    book: webnovel.Project, server: ChatServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use(monkeypatch, server)
    report = book.extract()
    assert report.total.committed == 12
    assert [r.chapter for r in report.chapters] == list(range(1, 13))
    with demo_book(tmp_path / "demo") as demo:
        assert answers_of(book) == answers_of(demo)
        assert [c.to_dict()["kind"] for c in book.conflicts()] == [
            c.to_dict()["kind"] for c in demo.conflicts()
        ]


def test_the_request_for_chapter_5_carries_the_ids_chapter_1_introduced(
    book: webnovel.Project, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, server)
    book.extract(end=5)
    fifth = next(s for s in server.seen if s.chapter == 5)
    introduced = [e["id"] for e in gold_results()[1]["entities_new"]]
    for entity_id in introduced:
        assert f"- {entity_id}：" in fifth.user_text
    assert "realm（境界）=炼气" in fifth.user_text or "realm（境界）=" in fifth.user_text
    # stable part first, the chapter's text last
    messages = fifth.body["messages"]
    assert messages[0]["role"] == "system" and "规则" in messages[0]["content"]
    user = messages[-1]["content"]
    assert user.index("【记忆") < user.index("【上一章") < user.index("【第5章")
    assert fifth.body["response_format"]["type"] == "json_schema"


def test_reported_tokens_equal_the_servers_usage_and_a_second_run_sends_nothing(
    book: webnovel.Project, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, server)
    first = book.extract()
    assert first.total.tokens.to_dict() == server.total_usage()
    assert first.total.requests == len(server.seen) == 12
    assert first.total.tokens.cached > 0  # the shared prefix was cached by the server
    assert sum(r.tokens.input for r in first.extracted) == server.total_usage()["input"]
    again = book.extract(force=True)
    assert len(server.seen) == 12  # nothing sent
    assert again.total.requests == 0 and again.total.cache_hits == 12
    assert again.total.unchanged == 12
    assert book.extract().total.chapters == 0  # nothing left to extract


def test_result_does_not_depend_on_concurrency(
    tmp_path: Path, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asking ahead adds requests (a chapter asked before its predecessors committed is asked
    again), never changes one: every request of the run at 1 is sent at 8, and memory is the
    same."""
    use(monkeypatch, server)
    bodies: dict[int, set[str]] = {}
    answers = {}
    for k in (1, 8):
        with imported_book(tmp_path / f"k{k}") as book:
            start = len(server.seen)
            report = book.extract(concurrency=k)
            bodies[k] = {json.dumps(s.body, ensure_ascii=False) for s in server.seen[start:]}
            answers[k] = answers_of(book)
            assert report.total.requests == len(server.seen) - start
    assert len(bodies[1]) == 12 and bodies[1] <= bodies[8]
    assert answers[1] == answers[8]


def test_an_interrupted_run_resumes_without_paying_twice(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse_chapter_7(number: int, body: dict) -> Reply | None:
        asked = "请输出第7章的章节结果" in body["messages"][-1]["content"]
        return Reply(status=401, raw=b'{"error": "no"}') if asked else None

    with chat_server(refuse_chapter_7) as server:
        use(monkeypatch, server)
        with pytest.raises(ExtractionFailed) as failed:
            book.extract(concurrency=4)
        assert failed.value.chapter == 7
        assert failed.value.report is not None
        assert "problem" not in failed.value.report.to_dict()["chapters"][0]  # a committed one
        assert book.stored_commit(6)["result"]["chapter_meta"]["origin"] == "extract"
        assert book.stored_commit(7)["result"]["chapter_meta"]["origin"] == "text_import"
        asked_before = {s.chapter for s in server.answered()}
    with chat_server() as server:
        use(monkeypatch, server)
        report = book.extract()
        assert [r.chapter for r in report.chapters] == list(range(7, 13))
        # chapters 8–10 were asked ahead in the first run, with memory as of chapter 6: the
        # resumed run asks them again with chapter 7 in memory; 1–6 are not asked
        assert sorted(s.chapter for s in server.seen) == list(range(7, 13))
        assert asked_before & set(range(8, 11))


# -- the protocol's bad days ------------------------------------------------------------------------


def one_chapter(
    book: webnovel.Project, script, chapter: int = 1
) -> tuple[ExtractionReport, ChatServer]:
    with chat_server(script) as server, pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBNOVEL_LLM_BASE_URL", server.base_url)
        report = book.extract(chapter, chapter)
    return report, server


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("WEBNOVEL_LLM_API_KEY", KEY)
    monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "test-model")


GOLD_1 = json.dumps(gold_results()[1], ensure_ascii=False)


def test_an_answer_in_a_code_fence_with_remarks_is_read(book: webnovel.Project, env: None) -> None:
    fenced = f"好的，下面是第1章的章节结果：\n```json\n{GOLD_1}\n```\n如有需要请告诉我。"
    report, server = one_chapter(book, lambda n, body: Reply(fenced))
    assert report.extracted[0].status == "committed"
    assert report.extracted[0].repairs == 0
    assert book.fact("林砚", "realm").value == "炼气"


def test_a_wrong_enum_is_repaired_quoting_its_path(book: webnovel.Project, env: None) -> None:
    wrong = json.loads(GOLD_1)
    wrong["plot_threads"][0]["kind"] = "伏笔线"

    def script(number: int, body: dict) -> Reply:
        return Reply(json.dumps(wrong if number == 0 else gold_results()[1], ensure_ascii=False))

    report, server = one_chapter(book, script)
    assert report.extracted[0].repairs == 1
    repair = server.seen[1].body["messages"]
    assert repair[-2]["role"] == "assistant"
    assert "$.plot_threads[0].kind" in repair[-1]["content"]
    assert "伏笔线" in repair[-1]["content"]


def test_429_with_retry_after_is_honoured(book: webnovel.Project, env: None) -> None:
    import time

    def script(number: int, body: dict) -> Reply | None:
        return Reply(status=429, headers={"Retry-After": "1"}) if number == 0 else None

    started = time.perf_counter()
    report, server = one_chapter(book, script)
    assert time.perf_counter() - started >= 1.0
    assert report.extracted[0].requests == 2
    assert report.extracted[0].status == "committed"


def test_a_500_is_retried(book: webnovel.Project, env: None) -> None:
    report, server = one_chapter(book, lambda n, b: Reply(status=500) if n == 0 else None)
    assert report.extracted[0].status == "committed"
    assert len(server.seen) == 2


def test_the_wait_before_a_retry_is_the_books_setting(tmp_path: Path, env: None) -> None:
    import time

    with imported_book(tmp_path / "book", "retry_backoff_s = 0.4\n") as book:
        started = time.perf_counter()
        report, server = one_chapter(book, lambda n, b: Reply(status=500) if n == 0 else None)
    assert time.perf_counter() - started >= 0.4
    assert report.extracted[0].requests == 2


def test_a_negative_wait_before_a_retry_is_refused_by_name(tmp_path: Path, env: None) -> None:
    refused = pytest.raises(InvalidConfig, match="llm.retry_backoff_s 应为 0 到 60 之间的数")
    with imported_book(tmp_path / "book", "retry_backoff_s = -1\n") as book, refused:
        book.extract(1, 1)


def test_a_timeout_is_retried(tmp_path: Path, env: None) -> None:
    with imported_book(tmp_path / "book", "timeout_s = 1\nretry_backoff_s = 0\n") as book:
        report, server = one_chapter(
            book, lambda n, b: Reply(GOLD_1, delay_s=1.6) if n == 0 else None
        )
    assert report.extracted[0].status == "committed"
    assert report.extracted[0].requests == 2


def test_a_cut_off_answer_is_asked_again_with_a_larger_limit(
    book: webnovel.Project, env: None
) -> None:
    def script(number: int, body: dict) -> Reply | None:
        return Reply(GOLD_1[:500], finish_reason="length") if number == 0 else None

    report, server = one_chapter(book, script)
    assert report.extracted[0].status == "committed"
    assert server.seen[1].body["max_tokens"] == 2 * server.seen[0].body["max_tokens"]


def test_an_answer_always_cut_off_is_named_as_the_reason(book: webnovel.Project, env: None) -> None:
    with pytest.raises(ExtractionFailed, match="finish_reason: length"):
        one_chapter(book, lambda n, b: Reply("{", finish_reason="length"))


def test_malformed_json_is_repaired(book: webnovel.Project, env: None) -> None:
    report, server = one_chapter(
        book, lambda n, b: Reply('{"chapter": 1, "summary": "缺了括号"') if n == 0 else None
    )
    assert report.extracted[0].repairs == 1
    assert "不是有效的 JSON" in server.seen[1].body["messages"][-1]["content"]


def test_garbage_forever_names_the_chapter_and_writes_nothing(
    book: webnovel.Project, env: None
) -> None:
    before = book.stored_commit(3)
    seq = book.commit_seq()
    with pytest.raises(ExtractionFailed) as failed:
        one_chapter(book, lambda n, b: Reply("我不知道。"), chapter=3)
    assert failed.value.chapter == 3
    assert "第3章" in str(failed.value) and "回答里没有 JSON 对象" in str(failed.value)
    done = failed.value.report  # what the run did, its failed chapter saying why
    assert done is not None and done.total.failed == 1
    row = done.to_dict()["chapters"][-1]
    assert row["status"] == "failed" and "回答里没有 JSON 对象" in row["problem"]
    assert book.stored_commit(3) == before and book.commit_seq() == seq


def test_a_server_without_json_schema_gets_json_mode(book: webnovel.Project, env: None) -> None:
    def script(number: int, body: dict) -> Reply | None:
        if body.get("response_format", {}).get("type") == "json_schema":
            return Reply(status=400, raw=b'{"error": "response_format json_schema unsupported"}')
        return None

    report, server = one_chapter(book, script)
    assert report.response_mode == "json_object"
    assert server.seen[-1].body["response_format"] == {"type": "json_object"}
    # the schema goes once: in response_format while the server took it, then in the words
    schema = json.dumps(CHAPTER_RESULT_SCHEMA, ensure_ascii=False, separators=(",", ":"))
    first, last = server.seen[0].body, server.seen[-1].body
    assert first["response_format"]["json_schema"]["schema"] == CHAPTER_RESULT_SCHEMA
    assert schema not in json.dumps(first["messages"], ensure_ascii=False)
    assert last["messages"][0]["content"].endswith("章节结果的 JSON Schema：" + schema)


# -- configuration, the key, the CLI ----------------------------------------------------------------


def test_the_key_is_sent_as_a_bearer_header_and_printed_nowhere(
    book: webnovel.Project, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, server)
    root = str(book.root)
    ran = run_cli("--project", root, "extract", "--to", "3", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert server.seen[0].headers["Authorization"] == f"Bearer {KEY}"
    ran_json = run_cli("--project", root, "extract", "--format", "json")
    failed = run_cli("--project", root, "extract", "--force", "--format", "json")
    for output in (ran, ran_json, failed):
        assert KEY not in output.stdout + output.stderr
    assert "合计" in ran.stdout and "第3章" in ran.stdout
    data = json.loads(ran_json.stdout)
    assert data["total"]["committed"] == 9


def test_a_refused_key_is_a_clear_error_without_the_key(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    echo = Reply(status=401, raw=json.dumps({"error": f"bad key {KEY}"}).encode())
    with chat_server(lambda n, b: echo) as server:
        use(monkeypatch, server)
        ran = run_cli("--project", str(book.root), "extract", "1")
    assert ran.returncode == 1
    assert "第1章" in ran.stderr and "HTTP 401" in ran.stderr
    assert KEY not in ran.stderr + ran.stdout


def test_dry_run_estimates_and_sends_nothing(
    book: webnovel.Project, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, server)
    config = book.storage.config_path
    config.write_text(
        config.read_text(encoding="utf-8") + "prices = {input = 2.0, cached = 0.5, output = 8.0}\n",
        encoding="utf-8",
    )
    ran = run_cli("--project", str(book.root), "extract", "--dry-run", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    assert server.seen == []
    assert data["total"]["requests"] == 12
    assert data["total"]["estimated_tokens"]["input"] > 12 * 2000
    assert data["total"]["estimated_cost"] > 0
    text = run_cli("--project", str(book.root), "extract", "--dry-run", "--format", "text")
    assert "试运行" in text.stdout


def test_without_a_model_extract_says_how_to_configure_one(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("WEBNOVEL_LLM_BASE_URL", "WEBNOVEL_LLM_API_KEY", "WEBNOVEL_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(InvalidConfig, match="WEBNOVEL_LLM_BASE_URL"):
        book.extract()


def test_plain_http_is_refused_off_this_machine(
    book: webnovel.Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", "http://api.example.com/v1")
    monkeypatch.setenv("WEBNOVEL_LLM_MODEL", "m")
    with pytest.raises(InvalidConfig, match="https"):
        book.extract()


def test_a_book_cannot_choose_where_the_key_goes(
    tmp_path: Path, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, server)
    with pytest.raises(InvalidConfig, match="base_url"):
        imported_book(tmp_path / "b", llm='base_url = "https://evil.example/v1"\n')
    assert server.seen == []


def test_an_agent_asks_the_engine_to_extract_over_mcp(
    book: webnovel.Project, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SDK's client against our server in process: the endpoint comes from this process's
    environment, as it would from the agent's for `webnovel mcp` (started in test_mcp_stdio)."""
    pytest.importorskip("mcp")
    from mcp import Client

    from webnovel.mcp import create_server

    from test_mcp import structured

    use(monkeypatch, server)

    async def body():
        async with Client(create_server(book).lowlevel()) as client:
            done = structured(await client.call_tool("extract_chapter", {"chapter": 1}))
            again = await client.call_tool("extract_chapter", {"chapter": 1})
            fact = structured(
                await client.call_tool("get_fact", {"subject": "林砚", "field": "realm"})
            )
            return done, again, fact

    done, again, fact = asyncio.run(body())
    assert done["total"]["committed"] == 1 and done["chapters"][0]["requests"] == 1
    again = structured(again)
    assert again["total"]["chapters"] == 0  # chapter 1 is extracted already, and it says so
    assert [(s["code"], s["chapters"]) for s in again["skipped"]] == [("has_result", [1])]
    assert "force" in again["skipped"][0]["message"]
    assert "WEBNOVEL_LLM_BASE_URL" not in again["skipped"][0]["message"]  # a model is configured
    assert fact["value"] == "炼气"
    assert server.seen[0].headers["Authorization"] == f"Bearer {KEY}"


def test_an_empty_extraction_says_why_over_mcp_and_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Trial 4 §7: `extract_chapter {"chapter": 11}` with no model configured, on a chapter an
    agent wrote, answered success with `chapters: []` and no word why."""
    pytest.importorskip("mcp")
    from mcp import Client

    from webnovel.mcp import create_server

    from test_mcp import structured

    for name in ("WEBNOVEL_LLM_BASE_URL", "WEBNOVEL_LLM_API_KEY", "WEBNOVEL_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t", genre="仙侠") as book:
        book.commit({"chapter": 1, "summary": "林砚入门。"}, text="林砚推门而入。")
        book.commit({"chapter": 2, "summary": "林砚下山。"})  # no text

        async def body() -> list[Any]:
            async with Client(create_server(book).lowlevel()) as client:
                return [
                    structured(await client.call_tool("extract_chapter", {"chapter": n}))
                    for n in (1, 2, 7)
                ]

        written, textless, missing = asyncio.run(body())
    assert written["chapters"] == [] and written["endpoint"] is None
    [why] = written["skipped"]
    assert (why["code"], why["chapters"]) == ("has_result", [1])
    assert "force" in why["message"] and "WEBNOVEL_LLM_BASE_URL" in why["message"]
    assert [(s["code"], s["chapters"]) for s in textless["skipped"]] == [("no_text", [2])]
    assert [(s["code"], s["chapters"]) for s in missing["skipped"]] == [("not_stored", [7])]
    ran = run_cli("--project", str(root), "extract", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "第1章已有自己的结果" in ran.stdout and "第2章没有存下正文" in ran.stdout
