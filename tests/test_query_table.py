"""The table of queries (queries/table.py) is where the CLI's query commands, the MCP server's
query tools and the dashboard's JSON answers come from: each entry has its Chinese help, an
example that runs, a test that calls it, and the same answer on every surface."""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import json
import re
import shlex
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.cli.main import build_parser
from webnovel.errors import InvalidInput
from webnovel.messages import MESSAGES, say
from webnovel.queries import QUERIES, Arg, Query
from webnovel.queries.arguments import checked_arguments
from webnovel.queries.declare import find_query

from cli_runner import run_cli
from dashboard_server import Running, build_sample_book, running_dashboard

# The tools declared in mcp/server.py rather than the table: they write, or have a model read
# or prefill a chapter from its stored text.
HAND_WRITTEN_TOOLS = {
    "commit_chapter",
    "retract_chapter",
    "review_draft",
    "prefill_chapter",
    "extract_chapter",
    "impact_of_revision",
    "restore_chapter",
}
TOOL_QUERIES = [q for q in QUERIES if q.tool is not None]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_book(tmp_path_factory.mktemp("queries") / "book")


def example_words(query: Query[Any]) -> list[list[str]]:
    """Each command line of the query's help example, without the leading `webnovel`."""
    return [shlex.split(line.strip())[1:] for line in query.example.splitlines()]


def first_example(query: Query[Any]) -> list[str]:
    """The example's first command line without its `--format`: each test says its own."""
    words = example_words(query)[0]
    while "--format" in words:
        at = words.index("--format")
        del words[at : at + 2]
    return words


@functools.cache
def whole_parser() -> argparse.ArgumentParser:
    """`webnovel`'s parser, built once for the module (tens of milliseconds a build; parsing
    leaves it as it was)."""
    return build_parser()


def example_arguments(query: Query[Any]) -> dict[str, Any]:
    """The MCP arguments the example's first command line stands for."""
    parsed = whole_parser().parse_args(first_example(query))
    given = {a.name: getattr(parsed, a.name) for a in query.mcp_args}
    # the words of a search are one question, as the CLI asks it
    return {
        name: " ".join(value) if isinstance(value, list) else value
        for name, value in given.items()
        if value is not None
    }


def cli_json(root: Path, words: list[str]) -> Any:
    ran = run_cli("--project", str(root), *words, "--format", "json")
    assert ran.returncode == 0, (words, ran.stderr)
    return json.loads(ran.stdout)


# -- the declarations ----------------------------------------------------------------------


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_each_answer_takes_exactly_its_declared_arguments(query: Query[Any]) -> None:
    parameters = list(inspect.signature(query.answer).parameters)
    assert parameters[0] == "book"
    assert sorted(parameters[1:]) == sorted(a.name for a in query.args)


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_each_query_has_chinese_help_and_an_example_of_itself(query: Query[Any]) -> None:
    for key in (query.help, *(a.help for a in query.args)):
        assert key in MESSAGES, f"add {key!r} to messages/queryhelp.py"
        assert re.search("[\u4e00-\u9fff]", MESSAGES[key][0]), key
    for words in example_words(query):
        assert words[0] == query.name
        assert whole_parser().parse_args(words).command == query.name
    if query.tool is not None:
        assert re.search("[\u4e00-\u9fff]", say(query.tool_help)), "agents read its description"


def test_the_cli_commands_come_from_the_table() -> None:
    parser = build_parser()
    for query in QUERIES:
        assert query.name in parser.commands
        parsed = parser.parse_args(example_words(query)[0])
        assert parsed.handler.func.__name__ == "run_query"
        assert {a.name for a in query.cli_args} <= set(vars(parsed))


def test_the_mcp_tools_come_from_the_table(tmp_path: Path) -> None:
    from webnovel.mcp import create_server

    with webnovel.init_project(tmp_path / "book", title="空书") as book:
        server = create_server(book)
    assert set(server.tools) == {q.tool for q in TOOL_QUERIES} | HAND_WRITTEN_TOOLS
    for query in TOOL_QUERIES:
        assert query.tool is not None
        schema = server.tools[query.tool].input_schema()
        assert set(schema["properties"]) == {a.name for a in query.mcp_args}
        assert schema["required"] == [a.name for a in query.mcp_args if a.required]


# Every query is called on every surface by the parametrised tests below (its example on the
# CLI, each tool through the SDK's client, each query as the dashboard's JSON), and every tool,
# hand-written ones included, by tests/test_mcp_sizes.py: no search of the tests' text for a
# command's name (a regex once took the field `items` for the command).


# -- checking arguments given as JSON or text ---------------------------------------------

ARGS = (
    Arg(name="subject", type="str", help="x", required=True),
    Arg(name="as_of", type="int", help="x"),
    Arg(name="status", type="str", default="open", choices=("open", "all"), help="x"),
    Arg(name="include_settled", type="bool", default=False, help="x"),
)


@pytest.mark.parametrize(
    ("given", "text", "expected"),
    [
        ({"subject": "林砚"}, False, {"as_of": None, "status": "open", "include_settled": False}),
        ({"subject": "林砚", "as_of": "7"}, False, {"as_of": 7}),
        ({"subject": "林砚", "as_of": 7.0}, False, {"as_of": 7}),
        ({"subject": "林砚", "as_of": None}, False, {"as_of": None}),
        ({"subject": "林砚", "include_settled": "1"}, True, {"include_settled": True}),
        ({"subject": "林砚", "include_settled": "false"}, True, {"include_settled": False}),
    ],
)
def test_arguments_are_read_with_their_defaults(
    given: dict[str, Any], text: bool, expected: dict[str, Any]
) -> None:
    checked = checked_arguments("t", ARGS, given, text=text)
    assert checked["subject"] == "林砚"
    assert {k: checked[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({}, "t：参数 subject 必填"),
        ({"subject": 3}, "t：参数 subject 应为字符串，实际是 3"),
        ({"subject": "a", "as_of": True}, "t：参数 as_of 应为整数，实际是 true"),
        ({"subject": "a", "as_of": "七"}, 't：参数 as_of 应为整数，实际是 "七"'),
        ({"subject": "a", "status": "done"}, '参数 status 应为 open、all 之一，实际是 "done"'),
        ({"subject": "a", "include_settled": "1"}, '应为 true 或 false，实际是 "1"'),
        ({"as_of": 1.5}, "参数 subject 必填；参数 as_of 应为整数"),
        # ignored, a typo or another spelling would answer a different question without a word
        ({"subject": "a", "asof": 4}, "没有参数 asof（是否指 as_of？）"),
        ({"subject": "a", "x": 1}, "没有参数 x；这里的参数是：subject、as_of、status"),
    ],
)
def test_each_unfit_argument_is_named(given: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        checked_arguments("t", ARGS, given)
    assert message in str(refused.value)


def test_unfit_arguments_are_named_in_english_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with pytest.raises(InvalidInput) as refused:
        checked_arguments("t", ARGS, {"as_of": "x", "asof": 4})
    assert str(refused.value) == (
        "t: unknown argument 'asof' (did you mean 'as_of'?); this one takes: subject, as_of, "
        "status, include_settled; argument 'subject' is required; argument 'as_of': should be an integer, got \"x\""
    )


# -- the same answer on every surface -------------------------------------------------------


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_each_example_runs_on_the_sample_book(sample: Path, query: Query[Any]) -> None:
    words = first_example(query)
    for shown in ("text", *query.formats):
        text = run_cli("--project", str(sample), *words, "--format", shown)
        assert text.returncode == 0, text.stderr
        assert re.search("[\u4e00-\u9fff]", text.stdout), text.stdout[:200]
    cli_json(sample, words)


@pytest.fixture(scope="module")
def cli_answers(sample: Path) -> dict[str, Any]:
    """Each query's JSON from its example on the command line, asked once for the module."""
    return {query.name: cli_json(sample, first_example(query)) for query in QUERIES}


@pytest.fixture(scope="module")
def board(sample: Path) -> Iterator[Running]:
    """One dashboard over the sample book for the module's tests."""
    with running_dashboard(sample) as running:
        yield running


def ask_tools(sample: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The results of the calls, through the SDK's client against our server in process: the
    same tools and results as over stdio (test_mcp_stdio starts the real `webnovel mcp`)."""
    from mcp import Client

    from webnovel.mcp import create_server

    async def ask(book: Any) -> list[Any]:
        async with Client(create_server(book).lowlevel()) as client:
            return [await client.call_tool(tool, arguments) for tool, arguments in calls]

    with webnovel.open_project(sample) as book:
        return asyncio.run(ask(book))


@pytest.mark.parametrize("query", TOOL_QUERIES, ids=lambda q: q.tool)
def test_each_mcp_tool_answers_as_the_cli_does(
    sample: Path, cli_answers: dict[str, Any], query: Query[Any]
) -> None:
    assert query.tool is not None
    (result,) = ask_tools(sample, [(query.tool, example_arguments(query))])
    assert not result.is_error, result.content
    assert json.loads(result.content[0].text) == cli_answers[query.name]


def test_an_mcp_tool_answers_settled_conflicts_and_refuses_unfit_arguments(sample: Path) -> None:
    settled, missing = ask_tools(
        sample, [("list_conflicts", {"include_settled": True}), ("get_history", {"as_of": "x"})]
    )
    assert json.loads(settled.content[0].text) == cli_json(sample, ["conflicts", "--all"])
    assert missing.is_error
    refused = json.loads(missing.content[0].text)
    assert (refused["code"], refused["message"]) == (
        "invalid_argument",
        'get_history：参数 subject 必填；参数 as_of 应为整数，实际是 "x"',
    )


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_each_query_answers_the_dashboard_as_the_cli_does(
    board: Running, cli_answers: dict[str, Any], query: Query[Any]
) -> None:
    """`/api/query/NAME` gives the CLI's JSON and, where the table declares the query's page,
    links to it: a page the dashboard serves."""
    arguments = {
        k: str(v).lower() if isinstance(v, bool) else v for k, v in example_arguments(query).items()
    }
    path = f"/api/query/{query.tool or query.name}?" + urllib.parse.urlencode(arguments)
    answer = board.get(path)
    assert answer.status == 200, (path, answer.body)
    assert json.loads(answer.body) == cli_answers[query.name]
    headers = {name.lower(): value for name, value in answer.headers.items()}
    if query.page is None:
        assert "link" not in headers
        return
    linked = re.fullmatch(r'<(/[^>]*)>; rel="alternate"; type="text/html"', headers["link"])
    assert linked is not None, headers["link"]
    assert (
        linked.group(1).split("?")[0]
        == query.page.format(
            **{k: urllib.parse.quote(str(v), safe="") for k, v in example_arguments(query).items()}
        ).split("?")[0]
    )
    page = board.get(linked.group(1))
    assert page.status == 200, (linked.group(1), page.body[:300])
    assert "<html" in page.body
    if "as_of" in arguments:  # shown as of the chapter asked about
        assert f'value="{arguments["as_of"]}"' in page.body


def test_the_dashboard_refuses_an_unknown_entity_a_missing_argument_and_query(
    board: Running,
) -> None:
    unknown = board.get(
        "/api/query/fact?" + urllib.parse.urlencode({"subject": "萧炎", "field": "境界"})
    )
    missing = board.get("/api/query/relations")
    nothing = board.get("/api/query/no_such_query")
    # one error shape, from the app's one handler: the sentence, its code, its data
    assert unknown.status == 404 and "萧炎" in json.loads(unknown.body)["error"]
    assert json.loads(unknown.body)["code"] == "unknown_entity"
    assert json.loads(unknown.body)["details"]["reference"] == "萧炎"
    assert missing.status == 400
    assert json.loads(missing.body) == {
        "error": "relations：参数 subject 必填",
        "code": "invalid_argument",
        "details": {
            "tool": "relations",
            "arguments": ["subject"],
            "problems": ["参数 subject 必填"],
        },
    }
    assert nothing.status == 404 and "no_such_query" in json.loads(nothing.body)["error"]
    assert json.loads(nothing.body)["code"] == "unknown_query"


def test_the_cli_spelling_of_an_argument_points_to_its_name() -> None:
    timeline = (Arg(name="start", flag="--from", type="int", help="x"),)
    with pytest.raises(InvalidInput, match="没有参数 from（是否指 start？）"):
        checked_arguments("get_timeline", timeline, {"from": 3})


@pytest.mark.parametrize("query", [q for q in QUERIES if q.tool], ids=lambda q: q.tool)
def test_each_mcp_argument_is_described_for_the_agent(
    query: Query[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the server's language, from the key the CLI's help is said from."""
    from webnovel.mcp.tools import property_schema

    for arg in query.mcp_args:
        chinese, english = MESSAGES[arg.help]
        assert property_schema(arg)["description"] == chinese
        monkeypatch.setenv("WEBNOVEL_LANG", "en")
        assert property_schema(arg)["description"] == english
        monkeypatch.delenv("WEBNOVEL_LANG")


def test_a_status_that_is_no_word_of_the_vocabulary_is_refused_with_the_chinese() -> None:
    """MCP and /api/query: the refusal lists each status with its Chinese, as the CLI does."""
    threads = find_query(QUERIES, "list_threads")
    assert checked_arguments("list_threads", threads.args, {"status": "逾期"})["status"] == (
        "overdue"
    )
    with pytest.raises(InvalidInput) as refused:
        checked_arguments("list_threads", threads.args, {"status": "完了"})
    assert "应为 open（未回收）、resolved（已回收）、abandoned（已放弃）" in str(refused.value)
    ran = run_cli("threads", "--status", "完了")
    assert ran.returncode == 2
    assert "参数 --status：应为 open（未回收）" in ran.stderr and "实际是 完了" in ran.stderr
