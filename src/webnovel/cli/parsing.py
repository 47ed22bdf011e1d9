"""The command line's parser: argparse speaking the reader's language (help texts and its own
words through `help_words`, Chinese unless WEBNOVEL_LANG=en), and how one subcommand with its
shared `--format` option is declared."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from ..messages import say
from . import help_words

# A help text's pieces for wrapping: a space, one wide character (Chinese breaks between any
# two), or a run of anything else (an English word, a flag, WEBNOVEL_LLM_MODEL: never split).
_PIECES = re.compile(
    r" |[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^ \u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+"
)
# what may not begin a line (kept at the end of the one before, a column past if need be)
_NO_LINE_START = frozenset("，。、；：？！）」』》】…,.;:?!)")


def wrap(text: str, columns: int) -> list[str]:
    """`text` in lines of at most `columns` terminal columns (a Chinese character takes two),
    broken at spaces or between Chinese characters, never inside a word or before a closing
    mark. argparse's own wrapper counts characters and breaks a long run of Chinese anywhere,
    a variable's name included."""
    from ..queries.text import width

    lines: list[str] = []
    line = ""
    for piece in _PIECES.findall(" ".join(text.split())):
        if piece == " ":
            line += " " if line else ""
            continue
        if line.strip() and width(line + piece) > columns and piece not in _NO_LINE_START:
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


class Formatter(argparse.RawDescriptionHelpFormatter):
    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(
            usage, actions, groups, help_words.word("usage: ") if prefix is None else prefix
        )

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """A description or epilog: each line wrapped to the terminal, its own breaks kept;
        an indented line (an example command) is kept as written."""
        lines = []
        for line in text.splitlines():
            kept = not line.strip() or line[0].isspace()
            lines += [line] if kept else [indent + part for part in wrap(line, width)]
        return "\n".join(lines)


class Parser(argparse.ArgumentParser):
    """argparse speaking the reader's language: help texts and its own words through
    `help_words` (Chinese unless WEBNOVEL_LANG=en)."""

    commands: frozenset[str] = frozenset()  # the subcommands' names, set by build_parser

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = help_words.word("positional arguments")
        self._optionals.title = help_words.word("options")

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        if isinstance(kwargs.get("help"), str):
            kwargs["help"] = help_words.help_text(kwargs["help"])
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        if found := _INVALID_COMMAND.match(message):  # 35 commands listed would bury the hint
            said = say("unknown_command", name=found.group(1), hint=_hint(message))
        else:
            said = f"{help_words.error_text(message)}{_hint(message)}"
        raise SystemExit(fail(f"{self.prog}: {said}", 2))


# What argparse refuses, read back to add the hint a person needs: the choice probably meant
# (`fatc` → fact), or that an option of the whole command line goes before the command.
_INVALID_CHOICE = re.compile(r"^argument \S+: invalid choice: '(.+?)' \(choose from (.+)\)$")
_INVALID_COMMAND = re.compile(r"^argument COMMAND: invalid choice: '(.+?)' ")
_UNRECOGNIZED = re.compile(r"^unrecognized arguments: (.+)$")
GLOBAL_OPTIONS = ("--project",)


def _hint(message: str) -> str:
    import difflib

    if found := _INVALID_CHOICE.match(message):
        choices = [c.strip().strip("'") for c in found.group(2).split(",")]
        meant = difflib.get_close_matches(found.group(1), choices, n=1, cutoff=0.6)
        return say("argument_meant", meant=meant[0]) if meant else ""
    if found := _UNRECOGNIZED.match(message):
        words = found.group(1).split()
        given = next((o for o in GLOBAL_OPTIONS for w in words if w.split("=")[0] == o), None)
        if given is not None:
            return say("global_option_first", option=given)
    return ""


def fail(message: str, code: int) -> int:
    print(f"{say('error_prefix')}{message}", file=sys.stderr)
    return code


# What `add_subparsers` returns: the subcommands, each made as a Parser.
Subcommands: TypeAlias = "argparse._SubParsersAction[Parser]"
Handler = Callable[[argparse.Namespace], int]


FORMAT_HELP = "output format (default: text on a terminal, json otherwise)"
FORMAT_HELP_WITH_PROMPT = "output format (default: text on a terminal, json otherwise; prompt: the text an agent is given)"


def add_command(
    sub: Subcommands,
    name: str,
    handler: Handler,
    help_text: str,
    example: str,
    formats: tuple[str, ...] = ("json", "text"),
) -> Parser:
    """A subcommand with its Chinese help and example, and `--format` in the formats it has
    (only the pack has a `prompt` rendering)."""
    shown = help_words.help_text(help_text)
    parser = sub.add_parser(
        name,
        help=shown,
        description=shown,
        epilog=f"{help_words.help_text('example')}:\n  {example}",
    )
    parser.add_argument(
        "--format",
        choices=formats,
        default=None,
        help=FORMAT_HELP_WITH_PROMPT if "prompt" in formats else FORMAT_HELP,
    )
    parser.set_defaults(handler=handler)
    return parser


def port_number(written: str) -> int:
    """A TCP port to listen on, refused in Chinese before the server tries to bind it."""
    try:
        port = int(written)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:  # 0: any free port, said when the server starts
        raise argparse.ArgumentTypeError(say("bad_port", got=written))
    return port


class Version(argparse.Action):
    """--version, with the version read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        import webnovel

        sys.stdout.write(f"webnovel-memory {webnovel.__version__}\n")
        parser.exit()
