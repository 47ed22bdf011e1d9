"""The command line's parser: argparse speaking the reader's language (Chinese unless
WEBNOVEL_LANG=en). Every help is a catalogue key, said when the parser is built
(`messages/help.py`, `messages/queryhelp.py`); argparse's own words and refusals are said from
the catalogue too, by overriding the methods that make them. And how one subcommand with its
shared `--format` option is declared."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeAlias

from ..messages import say

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
            usage, actions, groups, say("help_usage_prefix") if prefix is None else prefix
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
    """argparse speaking the reader's language: each `help=` is a catalogue key, said as the
    argument is added, and argparse's own words and refusals come from the catalogue, through
    the methods below that make them."""

    commands: frozenset[str] = frozenset()  # the subcommands' names, set by build_parser
    help_key = ""  # a subcommand's: the catalogue key of its help (cli/command_table.py reads it)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        add_help = kwargs.get("add_help", True)
        # a refusal comes back to parse_known_args as ArgumentError, to be said in our words
        kwargs.update(exit_on_error=False, add_help=False)
        super().__init__(*args, **kwargs)
        self._positionals.title = say("help_positionals")
        self._optionals.title = say("help_options")
        if add_help:  # argparse's own -h, with its help from the catalogue
            self.add_argument(
                "-h", "--help", action="help", default=argparse.SUPPRESS, help="help_show_help"
            )

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        """An argument whose `help` is a catalogue key, said now (KeyError: no such key)."""
        if isinstance(kwargs.get("help"), str) and kwargs["help"] != argparse.SUPPRESS:
            kwargs["help"] = say(kwargs["help"])
        return super().add_argument(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        try:
            return super().parse_known_args(args, namespace)
        except argparse.ArgumentError as refused:
            if refused.argument_name is None:
                self.error(refused.message)
            self.error(
                say("argparse_argument", name=refused.argument_name, problem=refused.message)
            )

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, left = self.parse_known_args(args, namespace)
        if left:
            said = say("argparse_unrecognized", words=" ".join(left))
            self.error(said + _global_option_hint(left))
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        meant = _meant(str(value), [str(c) for c in action.choices])
        if isinstance(action, argparse._SubParsersAction):  # 35 commands listed would bury it
            self.error(say("unknown_command", name=value, hint=meant))
        choices = ", ".join(map(repr, action.choices))
        said = say("argparse_invalid_choice", value=repr(value), choices=choices)
        raise argparse.ArgumentError(action, said + meant)

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        """The value converted by the argument's type: a refusal of ours (ArgumentTypeError) is
        said as written, argparse's own (TypeError, ValueError) from the catalogue."""
        convert = self._registry_get("type", action.type, action.type)
        try:
            return convert(arg_string)
        except argparse.ArgumentTypeError as refused:
            raise argparse.ArgumentError(action, str(refused)) from None
        except (TypeError, ValueError):
            name = getattr(action.type, "__name__", repr(action.type))
            if name == "int":
                said = say("argparse_invalid_int", value=repr(arg_string))
            else:
                said = say("argparse_invalid_value", type=name, value=repr(arg_string))
            raise argparse.ArgumentError(action, said) from None

    def _match_argument(self, action: argparse.Action, arg_strings_pattern: str) -> int:
        try:
            return int(super()._match_argument(action, arg_strings_pattern))
        except argparse.ArgumentError:
            expected: dict[int | str | None, str] = {
                None: say("argparse_expected_one"),
                argparse.OPTIONAL: say("argparse_expected_at_most_one"),
                argparse.ONE_OR_MORE: say("argparse_expected_at_least_one"),
            }
            said = expected.get(action.nargs) or say("argparse_expected_n", count=action.nargs)
            raise argparse.ArgumentError(action, said) from None

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise SystemExit(fail(f"{self.prog}: {_own_sentence(message)}", 2))


# The two sentences argparse says through `error` alone, with no method of its own to override
# (they are made inside `_parse_known_args` and `_parse_optional`): read back from its English.
_REQUIRED = re.compile(r"^the following arguments are required: (.+)$")
_AMBIGUOUS = re.compile(r"^ambiguous option: (\S+) could match (.+)$")
GLOBAL_OPTIONS = ("--project",)


def _own_sentence(message: str) -> str:
    if found := _REQUIRED.match(message):
        return say("argparse_required", names=found.group(1))
    if found := _AMBIGUOUS.match(message):
        return say("argparse_ambiguous", option=found.group(1), matches=found.group(2))
    return message


def _meant(written: str, choices: list[str]) -> str:
    """The hint naming the choice probably meant (`fatc` → fact), or nothing."""
    import difflib

    meant = difflib.get_close_matches(written, choices, n=1, cutoff=0.6)
    return say("argument_meant", meant=meant[0]) if meant else ""


def _global_option_hint(words: list[str]) -> str:
    """That an option of the whole command line (`--project`) goes before the command."""
    given = next((o for o in GLOBAL_OPTIONS for w in words if w.split("=")[0] == o), None)
    return say("global_option_first", option=given) if given is not None else ""


def fail(message: str, code: int) -> int:
    print(f"{say('error_prefix')}{message}", file=sys.stderr)
    return code


# What `add_subparsers` returns: the subcommands, each made as a Parser.
Subcommands: TypeAlias = "argparse._SubParsersAction[Parser]"
Handler = Callable[[argparse.Namespace], int]


FORMAT_HELP = "help_format"
FORMAT_HELP_WITH_PROMPT = "help_format_prompt"


def add_command(
    sub: Subcommands,
    name: str,
    handler: Handler,
    help_key: str,
    example: str,
    formats: tuple[str, ...] = ("json", "text"),
) -> Parser:
    """A subcommand with its help (a catalogue key) and example, and `--format` in the formats
    it has (only the pack has a `prompt` rendering)."""
    shown = say(help_key)
    parser = sub.add_parser(
        name,
        help=shown,
        description=shown,
        epilog=f"{say('help_example')}:\n  {example}",
    )
    parser.add_argument(
        "--format",
        choices=formats,
        default=None,
        help=FORMAT_HELP_WITH_PROMPT if "prompt" in formats else FORMAT_HELP,
    )
    parser.set_defaults(handler=handler)
    parser.help_key = help_key
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
