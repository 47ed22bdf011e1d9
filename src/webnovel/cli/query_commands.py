"""The query commands, made from the table of queries: one argparse subcommand per entry, and
one handler for them all (open the book, ask, print JSON or the entry's text)."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

from ..book.words import printable
from ..messages import say
from ..queries import QUERIES, Arg, Query
from ..queries.beyond import beyond_end, with_note
from . import render
from .commands import open_book, read_json_input, read_text_file
from .parsing import Subcommands, add_command
from .progress import ProgressBar

_TYPES: dict[str, type] = {"int": int, "str": str}


def add_query_commands(sub: Subcommands, queries: tuple[Query[Any], ...] = QUERIES) -> None:
    for query in queries:
        formats = ("json", "text", "prompt") if "prompt" in query.formats else ("json", "text")
        parser = add_command(
            sub, query.name, partial(run_query, query), query.help, query.example, formats
        )
        for arg in query.cli_args:
            _add_argument(parser, arg)


def _add_argument(parser: argparse.ArgumentParser, arg: Arg) -> None:
    options: dict[str, Any] = {"help": arg.help}
    if arg.type == "bool":
        parser.add_argument(arg.cli_flag, dest=arg.name, action="store_true", **options)
        return
    options["type"] = Path if arg.cli_reads else _TYPES[arg.type]
    if arg.words is not None:  # 逾期 is overdue; a word that is none of them says which are
        options["type"] = partial(_word, arg)
    if arg.choices is not None:
        options["choices"] = arg.choices
    if arg.metavar is not None:
        options["metavar"] = arg.metavar
    if arg.positional:
        if arg.cli_optional:  # several words, or none (conflicts resolve ID ID …)
            options.update(nargs="*" if arg.cli_words else "?", default=arg.default)
        elif arg.cli_words:
            options.update(nargs="+")
        parser.add_argument(arg.name, **options)
        return
    options["default"] = arg.default
    if arg.required:
        options["required"] = True
    parser.add_argument(arg.cli_flag, dest=arg.name, **options)


def _word(arg: Arg, written: str) -> str:
    assert arg.words is not None
    meant = arg.words.find(written) or written
    if arg.choices is not None and meant not in arg.choices:
        shown = say("argument_not_choice", choices=arg.choices_shown(), got=written)
        raise argparse.ArgumentTypeError(shown)
    return meant


def run_query(query: Query[Any], args: argparse.Namespace) -> int:
    arguments = {arg.name: _given(arg, getattr(args, arg.name)) for arg in query.cli_args}
    with open_book(args) as book:
        if query.indexes_first:
            with ProgressBar("index") as bar:
                book.catch_up_search(progress=bar.update)
        answer = query.run(book, arguments)
        beyond = beyond_end(book, query, arguments)
    if beyond is not None:  # said on stderr in either format: stdout stays the answer
        print(f"{say('warning_prefix')}{beyond.note()}", file=sys.stderr)
    if args.format == "json":
        out = render.to_json(with_note(query.to_json(answer), beyond))
    else:  # control characters shown as escapes: no stored value can rewrite the screen
        out = printable(query.formats.get(args.format, query.text)(answer).rstrip("\n"))
    sys.stdout.write(out + "\n")
    return 0


def _given(arg: Arg, value: Any) -> Any:
    """An argument's value as the query takes it: a file named on the command line is read,
    and the words of a search are one question."""
    if isinstance(value, list):
        return " ".join(value)
    if value is None or arg.cli_reads is None:
        return value
    return read_text_file(value) if arg.cli_reads == "text" else read_json_input(str(value))
