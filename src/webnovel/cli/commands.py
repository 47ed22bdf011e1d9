"""One handler per command; each opens the book, calls one facade method and prints."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..book import (
    Project,
    holds_book,
    init_project,
    open_project,
    plan_upstream_import,
    recover_book,
)
from ..book.source_marks import source_name
from ..book.words import FIELD, chapter_named, printable
from ..book.writing import SEARCH_BEHIND_AT_MOST
from ..config import GENRE_LADDERS
from ..errors import (
    ExtractionFailed,
    InvalidChapterResult,
    InvalidInput,
    Surface,
    WebnovelError,
)
from ..ingest.json_keys import DuplicateKeys
from ..ingest.text_files import MAX_RESULT_BYTES, read_bounded, read_text, read_utf8
from ..messages import say
from ..untrusted import json_limits
from ..untrusted.safe_paths import refuse_link_below
from . import render
from .asking import confirmed
from .interrupting import interrupted_by_signals
from .progress import ProgressBar

if TYPE_CHECKING:
    from ..book.values import CommitReport


def open_book(args: argparse.Namespace) -> Project:
    book = open_project(args.project)
    book.on_wait(_say_waiting)
    return book


def _say_waiting(path: str) -> None:
    print(say("waiting_for_lock", path=path), file=sys.stderr)


def emit(args: argparse.Namespace, data: Any, text: Callable[[Any], str]) -> None:
    """The answer on stdout: JSON as it is (escaped by the encoder), text with control
    characters shown as escapes, so no stored value can clear or rewrite the author's screen."""
    out = render.to_json(data) if args.format == "json" else printable(text(data))
    sys.stdout.write(out + "\n")


def init(args: argparse.Namespace) -> int:
    path = args.path or args.project or Path.cwd()
    if (args.book or args.password_env) and not args.store:
        raise InvalidInput.of("store_options_alone")
    with init_project(
        path,
        title=args.title,
        genre=args.genre,
        store=args.store,
        book=args.book,
        password_env=args.password_env,
    ) as book:
        location = book.storage.location  # where the book lives: its own file, or a store
        emit(
            args,
            {
                "created": str(book.root / ".webnovel"),
                **book.book,
                "store": location.shown() if location else "sqlite",
                "ladders": GENRE_LADDERS.get(args.genre or "", {}),
            },
            lambda d: (
                say("book_created", title=d["title"], created=d["created"])
                + ("" if d["store"] == "sqlite" else say("book_created_store", store=d["store"]))
                + _genre_said(args.genre, d["ladders"])
            ),
        )
    return 0


def _genre_said(genre: str | None, ladders: dict[str, list[str]]) -> str:
    """What a genre gave the book: its ladders, or that it has none (and which genres do)."""
    if not genre:
        return ""
    if not ladders:
        known = say("argument_list_separator").join(GENRE_LADDERS)
        return "\n" + say("genre_without_ladder", genre=genre, known=known)
    shown = (
        say("genre_ladder", field=FIELD.get(k, k), values=" → ".join(v)) for k, v in ladders.items()
    )
    return "\n" + say("genre_ladders", genre=genre, ladders=say("argument_separator").join(shown))


def read_json_input(name: str) -> Any:
    """A chapter result: UTF-8 JSON from a file or standard input, with NaN, Infinity, absurd
    nesting and a key written twice in one object refused as errors that name the input (and
    the key's path)."""
    where = say("standard_input") if name == "-" else say("input_path", path=name)
    if name == "-":
        try:
            raw = read_bounded(sys.stdin.buffer, MAX_RESULT_BYTES).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInput.of("stdin_not_utf8", byte=exc.start) from exc
    else:
        raw = read_utf8(Path(name))
    raw = raw.removeprefix("\ufeff")
    duplicates = DuplicateKeys()
    try:
        value = json_limits.loads(
            raw,
            where.rstrip(),
            parse_constant=_no_constant,
            object_pairs_hook=duplicates.hook,
        )
    except json_limits.JsonTooBig:
        raise
    except json.JSONDecodeError as exc:
        raise InvalidInput.of(
            "json_input_invalid", where=where, why=json_limits.why_not_json(exc)
        ) from exc
    except ValueError as exc:  # NaN or Infinity
        raise InvalidInput.of("file_problem", path=where.rstrip(), why=str(exc)) from exc
    except RecursionError as exc:
        raise InvalidInput.of("json_input_too_deep", where=where) from exc
    twice = duplicates.paths(value)
    if twice:  # json keeps the last silently: one of the two would be lost without a word
        keys = say("argument_list_separator").join(twice)
        raise InvalidInput.of("json_key_twice", where=where, keys=keys, count=len(twice))
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(say("json_constant", name=name))


def read_text_file(path: Path) -> str:
    """A chapter text or outline in UTF-8, GB18030, Big5 or UTF-16 with a byte-order mark
    (said on stderr when not UTF-8)."""
    text, encoding = read_text(path)
    if encoding != "utf-8":
        print(say("text_read_as", encoding=encoding.upper(), path=path), file=sys.stderr)
    return text


def commit(args: argparse.Namespace) -> int:
    if len(args.file) > 1:
        return _commit_many(args)
    if args.text and args.text_dir:
        raise InvalidInput.of("text_and_text_dir")
    if args.text_dir and args.file[0] == "-":
        raise InvalidInput.of("text_dir_needs_a_name")
    result = read_json_input(args.file[0])
    text_path: Path | None = args.text
    if args.text_dir:
        text = _text_from_dir(args.text_dir, args.file[0]) if _texts_folder(args) else None
        text_path = args.text_dir / f"{Path(args.file[0]).stem}.md" if text is not None else None
    else:
        text = read_text_file(args.text) if args.text else None
    with open_book(args) as book:
        source = source_name(book, text_path) if text_path is not None else None
        report = book.commit(
            result,
            text=text,
            chapter=args.chapter,
            check=args.check,
            force=args.force,
            text_source=source,
            weigh=True,
        )
        _keep_search_in_step(book, bulk=False)
    emit(args, report.to_dict(), lambda _: render.commit_text(report))
    return 0


def _keep_search_in_step(book: Project, bulk: bool) -> None:
    """A bulk run (several files, an import) indexes what it wrote as it ends, with a progress
    bar; single commits do once the index is SEARCH_BEHIND_AT_MOST chapters behind (a long run
    of commits in one process does it by itself: Project._index_in_step). So the
    first search after thousands of commits never finds them all still to index."""
    if book.search_pending() >= (1 if bulk else SEARCH_BEHIND_AT_MOST):
        with ProgressBar("index") as bar:
            book.catch_up_search(progress=bar.update)
    # with an embedder named, vectors keep up in a detached child (no model loaded here)
    if book.embed_in_background() and bulk:
        print(say("embedding_in_background"), file=sys.stderr)


def retract(args: argparse.Namespace) -> int:
    with open_book(args) as book:
        if not args.yes and sys.stdin.isatty():
            title = next((c["title"] for c in book.chapters() if c["chapter"] == args.chapter), "")
            question = say("retract_question", named=chapter_named(args.chapter, title))
            if not confirmed(question):
                print(say("not_retracted"), file=sys.stderr)
                return 1
        report = book.retract(args.chapter, force=args.force)
    emit(args, report.to_dict(), lambda _: render.commit_text(report))
    return 0


def _commit_many(args: argparse.Namespace) -> int:
    """Import a run of chapters. Each commit is atomic; the first bad file stops the run, names
    itself, and leaves every earlier chapter committed."""
    if args.text or args.chapter is not None or "-" in args.file:
        raise InvalidInput.of("several_files")
    reports: list[CommitReport] = []
    with_texts = _texts_folder(args)
    with open_book(args) as book, ProgressBar("commit") as bar:
        for done, name in enumerate(args.file, start=1):
            try:
                report = _commit_one(book, args, name, with_texts)
            except WebnovelError:
                if reports:  # what the run did before it stopped, so that no one guesses
                    low, high = (
                        min(r.chapter for r in reports),
                        max(r.chapter for r in reports),
                    )
                    chapters = str(low) if low == high else f"{low}–{high}"
                    print(
                        say("run_stopped", done=len(reports), chapters=chapters, at=name),
                        file=sys.stderr,
                    )
                raise
            reports.append(report)
            bar.update(done, len(args.file))
        _keep_search_in_step(book, bulk=True)
    emit(
        args,
        [r.to_dict() for r in reports],
        lambda _: "\n".join(render.commit_text(r) for r in reports),
    )
    return 0


def _texts_folder(args: argparse.Namespace) -> bool:
    """Whether the chapters' texts are to be taken from `--text-dir`: it was given and it is a
    folder. A folder that is not there is said once, rather than once per chapter."""
    if args.text_dir is None:
        return False
    if not args.text_dir.is_dir():
        print(
            say("warning_prefix") + say("text_dir_missing", folder=args.text_dir), file=sys.stderr
        )
        return False
    return True


def _text_from_dir(folder: Path, name: str) -> str | None:
    """The text of result file `name` in `folder` (`<its name>.md`), or None, said on stderr,
    when there is none: a chapter stored without its text is not searchable by its prose."""
    path = folder / f"{Path(name).stem}.md"
    refuse_link_below(folder, path)  # found in a folder, not typed: it must not lead elsewhere
    if not path.is_file():
        print(say("warning_prefix") + say("text_missing", result=name, path=path), file=sys.stderr)
        return None
    return read_text_file(path)


def _commit_one(
    book: Project, args: argparse.Namespace, name: str, with_texts: bool
) -> CommitReport:
    """One file of a run, its refusal naming the file."""
    try:
        text = _text_from_dir(args.text_dir, name) if with_texts else None
        path = args.text_dir / f"{Path(name).stem}.md" if text is not None else None
        source = source_name(book, path) if path is not None else None
        result = read_json_input(name)
        return book.commit(
            result, text=text, check=args.check, force=args.force, text_source=source
        )
    except InvalidChapterResult as exc:  # say which file of the run was refused
        raise InvalidChapterResult(exc.problems, source=name) from exc
    except InvalidInput as exc:
        if str(exc).startswith(name):
            raise
        raise InvalidInput.of("file_problem", path=name, why=str(exc)) from exc


def import_book(args: argparse.Namespace) -> int:
    if args.kind == "upstream":
        return _import_upstream(args)
    from ..ingest.text_import import read_cast

    cast = read_cast(args.cast) if args.cast else None
    with open_book(args) as book, ProgressBar("import") as bar:
        report = book.import_text(
            args.path,
            start=args.start,
            cast=cast,
            dry_run=args.dry_run,
            progress=bar.update,
            keep_doubled=args.keep_doubled,
            append=args.append,
            force=args.force,
        )
        if not args.dry_run:
            _keep_search_in_step(book, bulk=True)
        if args.candidates:
            report = replace(report, candidate_names=book.candidate_names())
    for warning in report.warnings:
        print(say("warning_prefix") + warning, file=sys.stderr)
    emit(args, report.to_dict(), lambda _: render.import_text(report))
    return 0


def _import_upstream(args: argparse.Namespace) -> int:
    """A webnovel-writer project into a new book: the book is made in --project's folder with
    the project's title and genre, unless it exists (an interrupted import resumes)."""
    if args.start is not None or args.cast or args.candidates:
        raise InvalidInput.of("upstream_options")
    has_book = args.project is not None and holds_book(args.project / ".webnovel")
    if args.dry_run and not has_book:
        report = plan_upstream_import(args.path)
    else:
        if not has_book:
            if args.project is None:
                raise InvalidInput.of("upstream_needs_folder")
            plan = plan_upstream_import(args.path)
            init_project(args.project, title=plan.title, genre=plan.genre).close()
        with open_book(args) as book, ProgressBar("import") as bar:
            report = book.import_upstream(args.path, dry_run=args.dry_run, progress=bar.update)
            if not args.dry_run:
                _keep_search_in_step(book, bulk=True)
    for warning in report.warnings:
        print(say("warning_prefix") + warning, file=sys.stderr)
    emit(args, report.to_dict(), lambda _: render.upstream_text(report))
    return 0


def extract(args: argparse.Namespace) -> int:
    with open_book(args) as book, ProgressBar("extract") as bar:
        try:
            report = book.extract(
                args.start,
                args.end,
                dry_run=args.dry_run,
                force=args.force,
                concurrency=args.concurrency,
                progress=bar.update,
                chapter=args.chapter,
            )
        except ExtractionFailed as exc:
            if exc.report is not None:  # what was committed before the failure, then the error
                done = exc.report
                emit(args, done.to_dict(), lambda _: render.extract_text(done))
            raise
    emit(args, report.to_dict(), lambda _: render.extract_text(report))
    return 0


def summarize(args: argparse.Namespace) -> int:
    with open_book(args) as book, ProgressBar("summarize") as bar:
        report = book.summarize(progress=bar.update)
    emit(args, report.to_dict(), lambda _: render.summarized_text(report))
    return 0


def candidates(args: argparse.Namespace) -> int:
    with open_book(args) as book:
        if args.action is None:
            items = book.candidates(args.min_count, args.limit)
            emit(args, [c.to_dict() for c in items], lambda _: render.candidates_text(items))
            return 0
        if not args.name:
            raise InvalidInput.of("candidate_needs_name", action=args.action)
        # SIGTERM and SIGHUP as Ctrl-C: the one transaction is rolled back, said, rc 130
        with interrupted_by_signals():
            if args.action == "accept" and (args.id or args.yes):
                done = book.accept_candidate(args.name, args.entity_type, args.id, args.yes)
            else:
                done = book.settle_candidate(args.action, args.name, args.entity_type, args.into)
    emit(args, done.to_dict(), lambda _: render.candidate_done_text(done))
    return 0


def rename(args: argparse.Namespace) -> int:
    if not args.undo and args.new_name is None:
        args.usage_error(say("rename_needs_new_name"))
    if not args.undo and not args.new_name:
        raise InvalidInput.of("rename_name_text")
    with interrupted_by_signals(), open_book(args) as book:
        done = book.rename_entity(args.entity, args.new_name or "", args.from_chapter, args.undo)
    emit(args, done.to_dict(), lambda _: render.renamed_text(done))
    return 0


def prefill(args: argparse.Namespace) -> int:
    with open_book(args) as book:
        skeleton = book.prefill(args.chapter)
    emit(args, skeleton, render.to_json)
    return 0


def embed(args: argparse.Namespace) -> int:
    with open_book(args) as book, ProgressBar("embed") as bar:
        if args.background:  # started by commit and import: leaves if another one runs
            summary = _embed_in_background(book, bar, args.batch)
        else:
            if book.embedding_elsewhere():
                print(say("embedding_elsewhere"), file=sys.stderr)
            summary = book.embed(
                progress=bar.labelled("embed"),
                batch=args.batch,
                include_text=args.include_text,
                indexing=bar.labelled("index"),  # a machine new to the book cuts it first
            )
    emit(args, summary, render.mapping_text)
    return 0


def _embed_in_background(book: Project, bar: ProgressBar, batch: int) -> dict[str, Any]:
    """The detached child's run, its stderr being .webnovel/embed.log: a line as it starts and
    one as it ends, with what it did (progress alone shows only past two seconds)."""
    started = time.monotonic()
    print(say("embed_log_start", at=_now(), pid=os.getpid()), file=sys.stderr, flush=True)
    summary = book.keep_embedding(progress=bar.update, batch=batch)
    seconds = time.monotonic() - started
    done = say("embed_log_done", at=_now(), embedded=summary["embedded"], seconds=seconds)
    print(done, file=sys.stderr, flush=True)
    return summary


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def mcp(args: argparse.Namespace) -> int:
    try:
        # the SDK itself: anyio alone comes with the [dashboard] extra too, and our modules
        # import the SDK only when they serve
        import anyio
        import mcp.server.lowlevel  # noqa: F401
        import mcp.server.stdio  # noqa: F401

        from ..mcp import create_server
        from ..mcp.stdio import run_stdio
    except ImportError as exc:
        raise InvalidInput.of("mcp_extra") from exc
    try:
        book = open_book(args)
    except WebnovelError as exc:
        # said to the author here, and to the agent by every call (mcp/refused.py): a server
        # that exited before the handshake left the agent only "Connection closed"
        from ..mcp.refused import refused_server

        print(say("error_prefix") + exc.said(Surface.CLI), file=sys.stderr, flush=True)
        anyio.run(run_stdio, refused_server(exc))
        return exc.exit_code
    with book:
        from ..book.server_memory import settle_heap

        settle_heap(book)  # a server's process: what it holds from now on is not walked
        anyio.run(run_stdio, create_server(book))
    return 0


def _dashboard_module(name: str) -> Any:
    """A module of the dashboard package, which needs the [dashboard] extra."""
    import importlib

    try:
        return importlib.import_module(f"..dashboard.{name}", __package__)
    except ImportError as exc:
        raise InvalidInput.of("dashboard_extra") from exc


def dashboard(args: argparse.Namespace) -> int:
    server = _dashboard_module("server")
    server.serve(
        args.project,
        host=args.host,
        port=args.port,
        open_browser=args.open,
        tell=lambda line: print(line, file=sys.stderr, flush=True),
        allow_network=args.allow_network,
    )
    return 0


def wiki(args: argparse.Namespace) -> int:
    writer = _dashboard_module("wiki")
    with open_book(args) as book, ProgressBar("wiki") as bar:
        summary = writer.write_wiki(book, args.out, args.as_of, progress=bar.update)
    emit(
        args,
        summary,
        lambda d: say(
            "wiki_written",
            folder=d["folder"],
            as_of=d["as_of"],
            entities=d["entities"],
            events=d["events"],
        ),
    )
    return 0


def schema(args: argparse.Namespace) -> int:
    from ..book.values import chapter_result_schema

    sys.stdout.write(render.to_json(chapter_result_schema()) + "\n")
    return 0


def review(args: argparse.Namespace) -> int:
    draft = read_json_input(args.file)
    with open_book(args) as book:
        report = book.review(draft, chapter=args.chapter)
    emit(args, report.to_dict(), lambda _: render.review_text(report))
    return 0


def rebuild(args: argparse.Namespace) -> int:
    recovered = recover_book(args.project)  # a damaged or foreign file: made anew from its log
    with open_book(args) as book, ProgressBar("rebuild") as bar, ProgressBar("index") as index_bar:
        summary = book.rebuild(progress=bar.update, search_progress=index_bar.update)
    if recovered is not None:
        summary["recovered"] = recovered
    emit(args, summary, render.mapping_text)
    return 0
