"""How a query is declared: its arguments once, with their type, default and help, and the
query itself (name, tool name, the facade call, JSON and text renderers, help and example).

The CLI's subcommands (cli/query_commands.py) and the MCP server's tools (mcp/server.py) are
both made from these declarations, so a query's arguments cannot drift apart between the two.
This module imports nothing heavy: `webnovel fact` loads it on every call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from ..messages import say

if TYPE_CHECKING:
    from ..book.project import Project

ArgType = Literal["int", "str", "bool", "object"]
Json = Any  # what json.dumps takes: the contract's shapes (docs/contract.md)
Answer = TypeVar("Answer")


class Words(Protocol):
    """A vocabulary an argument's choices are also written in (a Chinese label, a synonym):
    `find` gives the choice a written word means, `labels` each choice's Chinese."""

    def find(self, written: str) -> str | None: ...

    @property
    def labels(self) -> Mapping[str, str]: ...


@dataclass(frozen=True, kw_only=True)
class Arg:
    """One argument of a query, as the facade, the CLI and MCP clients name it.

    `name` is the Python and MCP name (`as_of`); the CLI spells it `--as-of` unless `flag` says
    otherwise (`--from` for `start`), or takes it by position when `positional`."""

    name: str
    type: ArgType
    help: str  # a catalogue key (messages/queryhelp.py): the CLI's help, the MCP description
    default: Any = None
    required: bool = False  # MCP: must be given; CLI: a required option or positional
    positional: bool = False
    cli_optional: bool = False  # a positional the CLI lets one leave out (nargs="?")
    flag: str | None = None
    choices: tuple[str, ...] | None = None
    words: Words | None = None  # `choices` written in other words too: 逾期 is overdue
    metavar: str | None = None
    cli: bool = True  # offered on the command line
    mcp: bool = True  # offered to MCP clients
    schema: Mapping[str, Any] | None = None  # a full JSON Schema instead of the type's
    cli_reads: Literal["text", "json"] | None = None  # the CLI takes a file and passes its text
    cli_words: bool = False  # a positional the CLI takes as all its words, as a search box does
    # the longest string an MCP client or a URL may give: a name, a field or a question is short,
    # and a 20 MB query once took 50 s and 4.9 GB to answer (an outline or a text say more)
    max_chars: int = 2_000

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    def choices_shown(self) -> str:
        """The choices as a refusal lists them, each with its Chinese: open（未回收）."""
        labels = self.words.labels if self.words is not None else {}
        shown = (
            say("vocab_choice", value=c, label=labels[c]) if labels.get(c, c) != c else c
            for c in self.choices or ()
        )
        return say("argument_list_separator").join(shown)

    def with_help(self, help: str) -> Arg:  # noqa: A002 - argparse's own word; a key
        return replace(self, help=help)


# -- the arguments many queries share, declared once ------------------------------------------

AS_OF = Arg(name="as_of", type="int", help="help_as_of")
SUBJECT = Arg(name="subject", type="str", help="help_subject", required=True, positional=True)
CHAPTER = Arg(name="chapter", type="int", help="help_the_chapter", required=True, positional=True)
TOP_K = Arg(name="top_k", type="int", default=10, help="help_search_top_k")
LIMIT = Arg(name="limit", type="int", default=20, help="help_cooccurrence_limit")


@dataclass(frozen=True, kw_only=True)
class Query(Generic[Answer]):
    """One as-of question to memory, declared once.

    `answer(book, **arguments)` calls the facade and returns a typed answer; `to_json` gives the
    contract's JSON shape of it and `text` the author's reading of it. `tool` is the MCP tool's
    name (None: the CLI only)."""

    name: str
    help: str  # the catalogue key of the command's help (messages/queryhelp.py)
    example: str  # runs on `webnovel demo`'s book (a test runs the first line of each)
    args: tuple[Arg, ...]
    answer: Callable[..., Answer]
    to_json: Callable[[Answer], Json]
    text: Callable[[Answer], str]
    tool: str | None = None
    tool_help: str = ""  # the catalogue key of the MCP tool's description, said when served
    indexes_first: bool = False  # the CLI brings the search index up to date, with a bar
    # it searches, which may take long: the dashboard and the MCP server answer it in a worker
    # thread on a second handle (book/long_reads.py), and answer other requests meanwhile
    long: bool = False
    formats: Mapping[str, Callable[[Answer], str]] = field(default_factory=dict)  # e.g. prompt
    # the dashboard's page that shows this answer, where there is one: a path whose `{name}`s are
    # the query's arguments (`/characters/{subject}`); the chapter asked about is added as
    # `as_of` (`page_url`). /api/query links to it; tests/test_query_table.py opens each.
    page: str | None = None

    @property
    def cli_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.cli)

    @property
    def mcp_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.mcp)

    def page_url(self, arguments: Mapping[str, Any]) -> str | None:
        """The dashboard's page of this answer for these arguments (None: it has none, or an
        argument its path names was not given)."""
        if self.page is None:
            return None
        from string import Formatter
        from urllib.parse import quote

        named = [name for _, name, _, _ in Formatter().parse(self.page) if name]
        if any(arguments.get(name) is None for name in named):
            return None
        url = self.page.format(**{name: quote(str(arguments[name]), safe="") for name in named})
        if arguments.get("as_of") is not None:
            url += f"{'&' if '?' in url else '?'}as_of={int(arguments['as_of'])}"
        return url

    def run(self, book: Project, arguments: Mapping[str, Any]) -> Answer:
        return self.answer(book, **{a.name: arguments.get(a.name, a.default) for a in self.args})


def find_query(queries: Sequence[Query[Any]], name: str) -> Query[Any]:
    """The query with this CLI name or MCP tool name."""
    for query in queries:
        if name in (query.name, query.tool):
            return query
    raise KeyError(name)
