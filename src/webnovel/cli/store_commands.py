"""Commands about where books live: `books` (the books of a PostgreSQL store, and deleting one)
and `copy` (a book into a new folder, SQLite or PostgreSQL). `init --store` is in main.py."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..book.stores import copy_book, delete_book, list_books
from ..errors import InvalidInput, UnknownBook
from ..messages import say
from . import render
from .asking import confirmed
from .commands import emit, open_book
from .interrupting import interrupted_by_signals
from .parsing import add_command
from .progress import ProgressBar


def add_store_commands(sub: Any) -> None:
    p = add_command(
        sub,
        "books",
        books,
        "help_books",
        "webnovel books --store postgresql://writer@db.lan/novels\n"
        "  webnovel books --store postgresql://writer@db.lan/novels --delete 旧稿 --yes",
    )
    p.add_argument("--store", required=True, help="help_store_url")
    p.add_argument("--delete", default=None, metavar="BOOK", help="help_books_delete")
    p.add_argument(
        "--yes",
        action="store_true",
        help="help_books_yes",
    )
    p = add_command(
        sub,
        "copy",
        copy,
        "help_copy",
        "webnovel --project my-book copy shared-book --store postgresql://writer@db.lan/novels",
    )
    p.add_argument("dest", type=Path, help="help_copy_dest")
    p.add_argument("--store", default=None, help="help_store_url")
    p.add_argument("--book", default=None, help="help_book")
    p.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="help_copy_password_env",
    )
    p.add_argument(
        "--replay",
        action="store_true",
        help="help_copy_replay",
    )


def books(args: argparse.Namespace) -> int:
    if args.delete is not None:
        if not args.yes:
            found = list_books(args.store, only=args.delete)
            if not found:
                raise UnknownBook(args.delete)
            book = found[0]
            what = say(
                "delete_book_question",
                title=book["title"],
                book=args.delete,
                commits=book["commits"],
                chapter=book["latest_chapter"] or 0,
            )
            if not sys.stdin.isatty():
                # an agent's shell answers nothing: a whole book goes only when told to
                raise InvalidInput.of("delete_needs_yes", question=what)
            if not confirmed(what):
                print(say("not_deleted"), file=sys.stderr)
                return 1
        if not delete_book(args.store, args.delete):
            raise UnknownBook(args.delete)
        emit(args, {"deleted": args.delete}, lambda d: say("book_deleted", book=d["deleted"]))
        return 0
    emit(args, list_books(args.store), books_text)
    return 0


def books_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return say("books_none")
    # the store's name for a book, then its title (`init --title`, 书名 everywhere else)
    rows = [
        [
            say("column_book"),
            say("column_book_title"),
            say("column_latest_chapter"),
            say("column_commits"),
            say("column_size"),
            say("column_created"),
        ]
    ]
    for b in items:
        rows.append(
            [
                b["book"],
                b["title"],
                say("book_unreadable")
                if not b["readable"]
                else "—"
                if b["latest_chapter"] is None
                else say("chapter_n", n=b["latest_chapter"]),
                "—" if b["commits"] is None else str(b["commits"]),
                f"{b['size_bytes'] / 1e6:.1f} MB",
                b["created_at"][:10],
            ]
        )
    return render.table(rows)


def copy(args: argparse.Namespace) -> int:
    if (args.book is not None or args.password_env is not None) and args.store is None:
        raise InvalidInput.of("store_options_not_sqlite")
    with interrupted_by_signals(), open_book(args) as book, ProgressBar("copy") as bar:
        report = copy_book(
            book,
            args.dest,
            store=args.store,
            book=args.book,
            progress=bar.update,
            replay=args.replay,
            password_env=args.password_env,
        )
    emit(
        args,
        report,
        lambda d: say(
            "book_copied",
            commits=d["commits"],
            chapters=d["chapters"],
            dest=d["dest"],
            store=d["store"],
            vectors=say("book_copied_vectors", vectors=d["vectors"]) if d.get("vectors") else "",
        ),
    )
    return 0
