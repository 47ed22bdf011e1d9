"""The README's table of commands, written from the command line's parser and the table of
queries: one row per command, in `webnovel --help`'s order, its usage made from the parser's
arguments, a query's MCP tool and dashboard page from its declaration. What a command does is
the README's own words where it has a row (kept as written), else the command's English help.

`python -m webnovel.cli.command_table README.md` writes the table again in place;
tests/test_cli.py checks that the README's table is the one written.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ..messages import MESSAGES
from ..queries import QUERIES
from .main import build_parser

HEADER = "| command | does |\n| --- | --- |\n"
# a row: `| `webnovel NAME …` | what it does |`, its cells split at a `|` not written `\|`
_ROW = re.compile(r"^\| `webnovel (?:--project \S+ )?([\w-]+)[^\n]*\|[^\n]*$", re.M)
_CELLS = re.compile(r"(?<!\\)\|")


def usage(parser: argparse.ArgumentParser, name: str) -> str:
    """`webnovel NAME POSITIONAL [OPTIONAL] [--option VALUE] …` as `--help` names them (without
    -h, and --format unless it has more than json and text)."""
    words = [f"webnovel {name}"]
    for action in parser._actions:
        if action.option_strings:
            continue
        shown = _value(action)
        words.append(
            f"[{shown}]"
            if action.nargs == "?"
            else f"{shown} [{shown} …]"
            if action.nargs == "+"
            else f"[{shown} …]"
            if action.nargs == "*"
            else shown
        )
    formats = [a for a in parser._actions if "--format" in a.option_strings]
    others = [a for a in parser._actions if a not in formats]
    for action in others + formats:  # --format last, as the examples write it
        flag = action.option_strings[-1] if action.option_strings else None
        if flag is None or isinstance(action, argparse._HelpAction):
            continue
        if flag == "--format" and set(action.choices or ()) <= {"json", "text"}:
            continue
        shown = flag if action.nargs == 0 else f"{flag} {_value(action)}"
        words.append(shown if action.required else f"[{shown}]")
    return " ".join(words)


def _value(action: argparse.Action) -> str:
    if action.choices is not None:
        return r"\|".join(str(c) for c in action.choices)
    metavar = action.metavar if isinstance(action.metavar, str) else None
    return metavar or action.dest.upper()


def _query_links(name: str) -> str:
    """What a query's row adds from its declaration: its MCP tool and dashboard page."""
    query = next((q for q in QUERIES if q.name == name), None)
    if query is None:
        return ""
    said = [f"MCP `{query.tool}`"] if query.tool else []
    if query.page is not None:
        said.append(f"dashboard `{query.page}`")
    return f" ({'; '.join(said)})" if said else ""


def described(readme: str) -> dict[str, str]:
    """What each command does in the README's table, without what the table of queries adds
    (several rows of one command joined)."""
    found: dict[str, list[str]] = {}
    for row in _ROW.finditer(readme):
        does = _CELLS.split(row.group(0))[2].strip()
        links = _query_links(row.group(1))
        if links and does.endswith(links):
            does = does[: -len(links)]
        found.setdefault(row.group(1), []).append(does)
    return {name: "; ".join(parts) for name, parts in found.items()}


def command_table(readme: str = "") -> str:
    """The table, with what each command does as `readme`'s table says it."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    kept = described(readme)
    rows = [HEADER]
    for name, sub in commands.choices.items():
        does = kept.get(name) or MESSAGES[sub.help_key][1]
        rows.append(f"| `{usage(sub, name)}` | {does}{_query_links(name)} |\n")
    return "".join(rows)


def rewritten(readme: str) -> str:
    """`readme` with its table of commands written again."""
    start = readme.index(HEADER)
    end = readme.index("\n\n", start) + 1
    return readme[:start] + command_table(readme) + readme[end:]


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    path.write_text(rewritten(path.read_text(encoding="utf-8")), encoding="utf-8")
