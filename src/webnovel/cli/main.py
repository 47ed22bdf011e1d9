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

from ..errors import DamagedBook, InvalidInput, Surface, WebnovelError, is_sqlite_damage, one_line
from ..messages import say
from ..queries import QUERIES
from ..untrusted.json_limits import why_not_json
from . import commands
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
        description=say("help_webnovel"),
        epilog=EPILOG.format(examples=say("help_examples")),
    )
    parser.add_argument(
        "--project",
        type=Path,
        default=None,
        help="help_project",
    )
    parser.add_argument("--version", action=_Version, help="help_version")
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        parser_class=_Parser,
        title=say("help_commands"),
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
        "help_init",
        "webnovel init my-book --title 斗破苍穹 --genre 玄幻",
    )
    p.add_argument("path", nargs="?", type=Path, default=None, help="help_init_path")
    p.add_argument("--title", required=True, help="help_init_title")
    p.add_argument("--genre", default=None, help="help_init_genre")
    p.add_argument(
        "--store",
        default=None,
        help="help_init_store",
    )
    p.add_argument("--book", default=None, help="help_book")
    p.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="help_init_password_env",
    )

    p = _add(
        sub,
        "commit",
        commands.commit,
        "help_commit",
        "webnovel commit ch0128.json --text ch0128.md\n  webnovel commit results/*.json --text-dir chapters/",
    )
    p.add_argument("file", nargs="+", help="help_commit_file")
    p.add_argument(
        "--chapter",
        type=int,
        default=None,
        help="help_commit_chapter",
    )
    p.add_argument("--text", type=Path, default=None, help="help_commit_text")
    p.add_argument(
        "--text-dir",
        type=Path,
        default=None,
        help="help_commit_text_dir",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="help_commit_check",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="help_commit_force",
    )

    p = _add(
        sub,
        "retract",
        commands.retract,
        "help_retract",
        "webnovel retract 13 --yes",
    )
    p.add_argument("chapter", type=int, help="help_retract_chapter")
    p.add_argument("--yes", action="store_true", help="help_retract_yes")
    p.add_argument(
        "--force",
        action="store_true",
        help="help_retract_force",
    )


def _add_retrieval_commands(sub: Subcommands) -> None:
    """Dense vectors (search is a query: queries/table.py)."""
    p = _add(
        sub,
        "embed",
        commands.embed,
        "help_embed",
        "webnovel embed --batch 16",
    )
    p.add_argument("--batch", type=int, default=32, help="help_embed_batch")
    p.add_argument(
        "--include-text",
        action="store_true",
        help="help_embed_include_text",
    )
    p.add_argument(
        "--background",
        action="store_true",
        help="help_embed_background",
    )


def _add_review_commands(sub: Subcommands) -> None:
    """Review of drafts (the conflict ledger is a query: queries/table.py)."""
    p = _add(
        sub,
        "review",
        commands.review,
        "help_review",
        "webnovel review draft-0058.json --chapter 58",
    )
    p.add_argument("file", help="help_review_file")
    p.add_argument("--chapter", type=int, default=None, help="help_review_chapter")


def _add_rebuild_command(sub: Subcommands) -> None:
    """Rebuilding (the pack is a query: queries/table.py)."""
    _add(
        sub,
        "rebuild",
        commands.rebuild,
        "help_rebuild",
        "webnovel rebuild",
    )


def _add_import_commands(sub: Subcommands) -> None:
    """Bringing an existing book in."""
    p = _add(
        sub,
        "import",
        commands.import_book,
        "help_import",
        "webnovel import text 斗破苍穹.txt --cast cast.toml --dry-run\n"
        "  webnovel --project new-book import upstream ~/my-webnovel-project",
    )
    p.add_argument(
        "kind",
        choices=("text", "upstream"),
        help="help_import_kind",
    )
    p.add_argument("path", type=Path, help="help_import_path")
    p.add_argument("--dry-run", action="store_true", help="help_import_dry_run")
    p.add_argument("--start", type=int, default=None, help="help_import_start")
    p.add_argument("--cast", type=Path, default=None, help="help_import_cast")
    p.add_argument(
        "--candidates",
        action="store_true",
        help="help_import_candidates",
    )
    p.add_argument(
        "--keep-doubled",
        action="store_true",
        help="help_import_keep_doubled",
    )
    p.add_argument("--append", action="store_true", help="help_import_append")
    p.add_argument("--force", action="store_true", help="help_import_force")

    _add_model_free_commands(sub)
    _add_extract_command(sub)


def _add_extract_command(sub: Subcommands) -> None:
    """A model reads the stored chapters."""
    p = _add(
        sub,
        "extract",
        commands.extract,
        "help_extract",
        "webnovel extract --from 1 --to 200 --dry-run\n  webnovel extract --from 1 --to 200 --concurrency 8",
    )
    p.add_argument("chapter", nargs="?", type=int, default=None, help="help_extract_chapter")
    p.add_argument("--from", dest="start", type=int, default=None, help="help_extract_start")
    p.add_argument("--to", dest="end", type=int, default=None, help="help_extract_end")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="help_extract_dry_run",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="help_extract_force",
    )
    p.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="help_extract_concurrency",
    )


def _add_model_free_commands(sub: Subcommands) -> None:
    """What an imported book gets without a model: the candidate queue, summaries, skeletons."""
    p = _add(
        sub,
        "candidates",
        commands.candidates,
        "help_candidates",
        "webnovel candidates\n  webnovel candidates accept 匡超人 --type 角色\n"
        "  webnovel candidates merge 砚儿 --into 林砚\n  webnovel candidates reject 钱银子\n"
        "  webnovel candidates undo 砚儿",
    )
    p.add_argument("action", nargs="?", choices=("accept", "merge", "reject", "undo"), default=None)
    p.add_argument("name", nargs="?", default=None, help="help_candidates_name")
    p.add_argument("--type", dest="entity_type", default="角色", help="help_candidates_entity_type")
    p.add_argument("--id", default=None, help="help_candidates_id")
    p.add_argument("--into", default=None, help="help_candidates_into")
    p.add_argument(
        "--yes",
        action="store_true",
        help="help_candidates_yes",
    )
    p.add_argument("--min-count", type=int, default=3, help="help_candidates_min_count")
    p.add_argument("--limit", type=int, default=50, help="help_candidates_limit")

    p = _add(
        sub,
        "rename",
        commands.rename,
        "help_rename",
        "webnovel rename 岳爷 岳鹏举\n  webnovel rename 血衣堂主 厉沉 --from 30\n"
        "  webnovel rename 岳鹏举 --undo",
    )
    p.add_argument("entity", help="help_rename_entity")
    p.add_argument("new_name", nargs="?", default=None, help="help_rename_new_name")
    p.add_argument(
        "--from",
        dest="from_chapter",
        metavar="N",
        type=int,
        default=None,
        help="help_rename_from_chapter",
    )
    p.add_argument("--undo", action="store_true", help="help_rename_undo")
    # the new name is required unless --undo, which argparse cannot say: the command says it
    # as argparse says a missing argument, with the usage
    p.set_defaults(usage_error=p.error)

    _add(
        sub,
        "summarize",
        commands.summarize,
        "help_summarize",
        "webnovel summarize",
    )

    p = _add(
        sub,
        "prefill",
        commands.prefill,
        "help_prefill",
        "webnovel prefill 58",
    )
    p.add_argument("chapter", type=int, help="help_the_chapter")


def _add_admin_commands(sub: Subcommands) -> None:
    """Maintenance, adapters and the demo."""
    _add(
        sub,
        "mcp",
        commands.mcp,
        "help_mcp",
        "webnovel --project my-book mcp",
    )
    p = _add(
        sub,
        "dashboard",
        commands.dashboard,
        "help_dashboard",
        "webnovel --project my-book dashboard --open",
    )
    p.add_argument("--port", type=port_number, default=8765, help="help_dashboard_port")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="help_dashboard_host",
    )
    p.add_argument(
        "--allow-network",
        action="store_true",
        help="help_dashboard_allow_network",
    )
    p.add_argument("--open", action="store_true", help="help_dashboard_open")

    p = _add(
        sub,
        "wiki",
        commands.wiki,
        "help_wiki",
        "webnovel wiki reader-wiki --as-of 120",
    )
    p.add_argument("out", type=Path, help="help_wiki_out")
    p.add_argument(
        "--as-of",
        type=int,
        default=None,
        help="help_wiki_as_of",
    )

    p = _add(
        sub,
        "schema",
        commands.schema,
        "help_schema",
        "webnovel schema chapter-result",
    )
    p.add_argument("name", choices=("chapter-result",), help="help_schema_name")

    p = _add(
        sub,
        "demo",
        _demo,
        "help_demo",
        "webnovel demo ./demo-book",
    )
    p.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=Path("demo-book"),
        help="help_demo_folder",
    )


QUERY_COMMANDS = tuple(query.name for query in QUERIES)
# The subcommands, group by group, in the order `webnovel --help` lists them, each group with the
# names it adds (tests/test_cli_parser.py checks them against what each group builds).
COMMAND_GROUPS: tuple[tuple[tuple[str, ...], Callable[[Subcommands], None]], ...] = (
    (("init", "commit", "retract"), _add_write_commands),
    (QUERY_COMMANDS, add_query_commands),
    (("embed",), _add_retrieval_commands),
    (("review",), _add_review_commands),
    (("impact", "result", "restore", "publish"), add_revise_commands),
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
        return _fail(exc.said(Surface.CLI), exc.exit_code)
    except json.JSONDecodeError as exc:
        return _fail(str(InvalidInput.of("not_json_input", why=why_not_json(exc))), 2)
    except OSError as exc:
        return _fail(os_error_text(exc), 2)
    except Exception as exc:
        if is_sqlite_damage(exc):  # a page found damaged only when a query read it
            where = Path(args.project or ".") / ".webnovel"
            damage = say("schema_not_database", error=one_line(exc))
            return _fail(DamagedBook(where, damage, recoverable=True).said(Surface.CLI), 1)
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
    return say("file_problem", path=exc.filename, why=why) if exc.filename else why


if __name__ == "__main__":
    raise SystemExit(main())
