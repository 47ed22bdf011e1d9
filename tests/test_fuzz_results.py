"""Fuzzing chapter results: valid sample results, mutated at random (huge and non-finite numbers,
broken Unicode, control characters, deep nesting, wrong types, cycles, non-JSON objects). Each case
either commits, or is refused with `InvalidChapterResult` (the CLI: exit 2 and one line) and
stores nothing. Nothing else may happen: no other exception, no traceback, no poisoned book."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import webnovel
from webnovel.cli.main import main
from webnovel.ingest.sample_book import sample_chapters

SAMPLES = [c.result for c in sample_chapters()]


def _deep(levels: int) -> Any:
    value: Any = "底"
    for _ in range(levels):
        value = [value]
    return value


class _Opaque:
    pass


POISON = st.sampled_from(
    [
        2**63,
        -(2**63) - 1,
        10**4400,
        9223372036854775807,
        -1,
        0,
        1_000_001,
        math.nan,
        math.inf,
        -math.inf,
        "\ud800",
        "林\udfff砚",
        "\x1b[2J",
        "名\x00字",
        "\u202e反转",
        "",
        " ",
        None,
        True,
        3.5,
        [],
        {},
        [1, "a"],
        {"x": {"y": "z"}},
        _deep(200),
        {1, 2},
        b"bytes",
        _Opaque(),
    ]
)


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _paths(child, (*path, i))


def _set(root: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return root


@st.composite
def mutated_results(draw: st.DrawFn) -> Any:
    result = copy.deepcopy(draw(st.sampled_from(SAMPLES)))
    result["chapter"] = 13
    cycle = False
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(result))
        path = draw(st.sampled_from(paths[1:] or [()]))
        what = draw(st.sampled_from(["poison", "delete", "cycle", "key"]))
        if what == "poison":
            result = _set(result, path, copy.deepcopy(draw(POISON)))  # the pool stays as is
        elif what == "delete" and path:
            parent = result
            for step in path[:-1]:
                parent = parent[step]
            del parent[path[-1]]
        elif what == "cycle":
            cycle = True
        elif what == "key" and isinstance(result, dict):
            result[draw(st.sampled_from([1, "\ud800", "未知键"]))] = "x"
    if cycle and isinstance(result, dict):  # last: nothing walks it before the engine does
        result["loop"] = result
    return result


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webnovel.Project]:
    project = webnovel.init_project(tmp_path_factory.mktemp("fuzz") / "b", title="t", genre="仙侠")
    for result in SAMPLES:
        project.commit(result)
    yield project
    project.close()


def _log_size(book: webnovel.Project) -> int:
    return int(book.storage.conn.execute("SELECT COUNT(*) FROM commits").fetchone()[0])


def fuzz_settings(examples: int) -> Any:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


# The README's test command tries 160 mutations; .ci/run 480 more (marked slow).
@fuzz_settings(160)
@given(result=mutated_results())
def test_a_mutated_result_commits_or_is_refused_cleanly(
    book: webnovel.Project, result: Any
) -> None:
    commit_or_refuse_cleanly(book, result)


@pytest.mark.slow
@fuzz_settings(480)
@given(result=mutated_results())
def test_a_mutated_result_commits_or_is_refused_cleanly_thoroughly(
    book: webnovel.Project, result: Any
) -> None:
    commit_or_refuse_cleanly(book, result)


def commit_or_refuse_cleanly(book: webnovel.Project, result: Any) -> None:
    before = _log_size(book)
    try:
        report = book.commit(result)
    except webnovel.InvalidChapterResult as exc:
        assert exc.problems and all(":" in p for p in exc.problems)
        assert _log_size(book) == before  # a refused commit writes nothing
        return
    assert report.status in ("committed", "unchanged")
    book.flush()  # the projections must take whatever was stored
    assert book.stats().latest_chapter >= 12
    book.search("林砚")
    if report.status == "committed":
        book.retract(report.chapter)


# 30 in the README's test command, 90 more in .ci/run.
@settings(max_examples=30, deadline=None)
@given(result=mutated_results())
def test_the_cli_refuses_with_exit_2_and_one_line(
    tmp_path_factory: pytest.TempPathFactory, result: Any
) -> None:
    cli_refuses_in_one_line(tmp_path_factory, result)


@pytest.mark.slow
@settings(max_examples=90, deadline=None)
@given(result=mutated_results())
def test_the_cli_refuses_with_exit_2_and_one_line_thoroughly(
    tmp_path_factory: pytest.TempPathFactory, result: Any
) -> None:
    cli_refuses_in_one_line(tmp_path_factory, result)


def cli_refuses_in_one_line(tmp_path_factory: pytest.TempPathFactory, result: Any) -> None:
    try:
        raw = json.dumps(result, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return  # not JSON at all: only the Python API can be handed it
    folder = tmp_path_factory.mktemp("cli")
    with webnovel.init_project(folder / "b", title="t"):
        pass
    path = folder / "r.json"
    try:
        path.write_text(raw, encoding="utf-8")
    except UnicodeEncodeError:
        path.write_bytes(raw.encode("utf-8", "surrogatepass"))
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(["--project", str(folder / "b"), "commit", str(path), "--format", "json"])
    message = err.getvalue()
    assert code in (0, 2), message
    if code == 2:
        assert message.startswith("错误：") and message.count("\n") == 1, message
