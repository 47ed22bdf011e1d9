"""A run of one command builds only that command's parser (cli/main.py `build_parser(command)`);
what the author reads must not change by it: every subcommand's help, usage and errors, in
Chinese and in English, are the same as the whole parser's, and the arguments parse the same."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from webnovel.cli.main import COMMAND_GROUPS, COMMANDS, QUERY_COMMANDS, build_parser, main
from webnovel.queries import QUERIES

LANGUAGES = ("zh", "en")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _printed(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as end:
        main(list(words))
    out = capsys.readouterr()
    return int(end.value.code or 0), out.out, out.err


def test_each_group_names_exactly_the_commands_it_builds() -> None:
    built: list[str] = []
    for names, add in COMMAND_GROUPS:
        scratch = build_parser()
        sub = next(a for a in scratch._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices.clear()
        add(sub)
        assert tuple(sub.choices) == names
        built += names
    assert built == list(_subcommands(build_parser()))  # the order `webnovel --help` lists
    assert frozenset(built) == COMMANDS


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_command_alone_has_the_help_it_has_among_all(
    language: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", language)
    monkeypatch.setenv("COLUMNS", "100")
    top = build_parser()  # built once: a whole parser costs tens of milliseconds
    whole = _subcommands(top)
    assert sorted(whole) == sorted(COMMANDS)
    projects = (("--project", "somewhere"), ("--project=somewhere",))
    for n, (name, parser) in enumerate(whole.items()):
        alone = build_parser(name)
        group = next(names for names, _ in COMMAND_GROUPS if name in names)
        assert list(_subcommands(alone)) == ([name] if name in QUERY_COMMANDS else list(group))
        assert alone.format_usage() == top.format_usage()
        assert _subcommands(alone)[name].format_help() == parser.format_help(), name
        # what `webnovel [--project DIR] NAME --help` prints, through the lean path: alone,
        # and after --project written one way or the other (the commands take turns)
        for before in ((), projects[n % 2]):
            code, out, _ = _printed(capsys, *before, name, "--help")
            assert (code, out) == (0, parser.format_help()), (name, before)


@pytest.mark.parametrize("language", LANGUAGES)
def test_mistakes_read_the_same(
    language: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", language)
    monkeypatch.setenv("COLUMNS", "100")
    whole = build_parser()  # once: parsing leaves a parser as it was
    for name in COMMANDS:
        words = ["--project", "somewhere", name, "--no-such-option"]
        lean = _printed(capsys, *words)
        with pytest.raises(SystemExit) as end:
            whole.parse_args(words)
        assert lean == (end.value.code, "", capsys.readouterr().err), name
        assert lean[0] == 2 and lean[2].strip(), name
    # the top level is the whole parser's: help lists every command, a wrong one is named
    code, out, _ = _printed(capsys, "--help")
    assert code == 0 and all(f"    {name}" in out for name in COMMANDS)
    code, _, err = _printed(capsys, "--project", "x", "fcat", "林砚")
    assert code == 2 and "fcat" in err and "fact" in err
    assert main(["--format", "json", "fact", "林砚"]) == 2
    assert "--format" in capsys.readouterr().err


# argparse's own refusals, each said from the catalogue: (the words, the Chinese, the English)
REFUSALS = [
    (["fact"], "缺少必填参数：subject", "the following arguments are required: subject"),
    (["fact", "a", "b", "c"], "无法识别的参数：c", "unrecognized arguments: c"),
    (
        ["fact", "a", "--as-of", "x"],
        "参数 --as-of：应为整数，实际是 'x'",
        "argument --as-of: invalid int value: 'x'",
    ),
    (
        ["fact", "a", "--as-of"],
        "参数 --as-of：需要一个值",
        "argument --as-of: expected one argument",
    ),
    (
        ["schema", "x"],
        "参数 name：无效选项 'x'（可选：'chapter-result'）",
        "argument name: invalid choice: 'x' (choose from 'chapter-result')",
    ),
    (
        ["import", "text", "a", "--ca", "x"],
        "选项 --ca 不明确，可能是 --cast, --candidates",
        "ambiguous option: --ca could match --cast, --candidates",
    ),
    (["fatc"], "没有命令 fatc（是否指 fact？）", "no command 'fatc' (did you mean 'fact'?)"),
]


@pytest.mark.parametrize(("words", "chinese", "english"), REFUSALS, ids=lambda w: str(w))
def test_argparse_refusals_are_said_in_the_language_asked_for(
    words: list[str],
    chinese: str,
    english: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for language, said, usage in (("zh", chinese, "用法："), ("en", english, "usage: ")):
        monkeypatch.setenv("WEBNOVEL_LANG", language)
        code, _, err = _printed(capsys, *words)
        assert code == 2 and err.startswith(usage), err
        assert said in err, (language, err)


def _plain(namespace: argparse.Namespace) -> dict[str, Any]:
    handler = namespace.handler
    shown = getattr(handler, "func", handler).__name__, getattr(handler, "args", ())
    return {**vars(namespace), "handler": shown}


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_a_query_parses_alone_as_among_all(query: Any) -> None:
    words = query.example.splitlines()[0].split()[1:]
    alone = build_parser(query.name).parse_args(["--project", "b", *words])
    assert _plain(alone) == _plain(build_parser().parse_args(["--project", "b", *words]))


def _columns(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def test_the_wrapper_breaks_between_chinese_characters_never_inside_a_word() -> None:
    from webnovel.cli.parsing import wrap

    text = "端点与密钥来自 WEBNOVEL_LLM_BASE_URL、WEBNOVEL_LLM_MODEL 或用户配置）；回答存在书中，再跑一遍"
    for columns in range(24, 60):  # wider than its longest word
        lines = wrap(text, columns)
        assert all(_columns(line) <= columns + 4 for line in lines)  # closing marks may hang
        assert not any(line[0] in "，。、；：）" for line in lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost
        words = " ".join(lines)
        assert "WEBNOVEL_LLM_BASE_URL" in words and "WEBNOVEL_LLM_MODEL" in words


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_help_fits_the_terminal(
    columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every line of help (a command's summary, its description, an option's help) fits the
    terminal's width in columns, a Chinese character taking two; usage lines and example
    commands are argparse's and ours as written."""
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    monkeypatch.setenv("COLUMNS", str(columns))
    for command in ("", "import", "extract", "copy", "embed", "threads"):
        _, out, _ = _printed(capsys, *([command] if command else []), "--help")
        written = [line for line in out.splitlines() if not line.startswith(("用法", "  webnovel"))]
        usage = [line for line in written if line.lstrip().startswith("[")]
        assert [line for line in written if _columns(line) > columns and line not in usage] == []
    _, out, _ = _printed(capsys, "--help")
    assert "WEBNOVEL_LLM_MODEL" in out  # once split as WEBNOVEL_LLM_M / ODEL
