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

from ..book import Project, holds_book, init_project, open_project, plan_upstream_import
from ..book.words import printable
from ..errors import (
    ExtractionFailed,
    InvalidChapterResult,
    InvalidInput,
    WebnovelError,
)
from ..ingest.text_files import MAX_RESULT_BYTES, read_bounded, read_text, read_utf8
from ..messages import say
from . import render
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
        raise InvalidInput(say("store_options_alone"))
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
            },
            lambda d: (
                say("book_created", title=d["title"], created=d["created"])
                + ("" if d["store"] == "sqlite" else f"（书库 {d['store']}）")
            ),
        )
    return 0


def read_json_input(name: str) -> Any:
    """A chapter result: UTF-8 JSON from a file or standard input, with NaN, Infinity and
    absurd nesting refused as errors that name the input."""
    where = say("standard_input") if name == "-" else f"{name} "  # a path, set apart
    if name == "-":
        try:
            raw = read_bounded(sys.stdin.buffer, MAX_RESULT_BYTES).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInput(say("stdin_not_utf8", byte=exc.start)) from exc
    else:
        raw = read_utf8(Path(name))
    raw = raw.removeprefix("\ufeff")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            say("json_input_invalid", where=where, line=exc.lineno, column=exc.colno, why=exc.msg)
        ) from exc
    except ValueError as exc:  # NaN or Infinity
        raise InvalidInput(f"{where.rstrip()}: {exc}") from exc
    except RecursionError as exc:
        raise InvalidInput(say("json_input_too_deep", where=where)) from exc


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
    result = read_json_input(args.file[0])
    text = read_text_file(args.text) if args.text else None
    with open_book(args) as book:
        report = book.commit(
            result, text=text, chapter=args.chapter, check=args.check, force=args.force
        )
        _keep_search_in_step(book, bulk=False)
    emit(args, report.to_dict(), lambda _: render.commit_text(report))
    return 0


SEARCH_BEHIND_AT_MOST = 200  # chapters single commits may leave the search index behind


def _keep_search_in_step(book: Project, bulk: bool) -> None:
    """A bulk run (several files, an import) indexes what it wrote as it ends, with a progress
    bar; single commits do once the index is SEARCH_BEHIND_AT_MOST chapters behind. So the
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
            question = say("retract_question", chapter=args.chapter, title=title or "")
            answer = input(f"{question} [y/N] ")
            if answer.strip().lower() not in ("y", "yes", "是"):
                print(say("not_retracted"), file=sys.stderr)
                return 1
        report = book.retract(args.chapter)
    emit(args, report.to_dict(), lambda _: render.commit_text(report))
    return 0


def _commit_many(args: argparse.Namespace) -> int:
    """Import a run of chapters. Each commit is atomic; the first bad file stops the run, names
    itself, and leaves every earlier chapter committed."""
    if args.text or args.chapter is not None or "-" in args.file:
        raise InvalidInput(say("several_files"))
    reports: list[CommitReport] = []
    with open_book(args) as book, ProgressBar("commit") as bar:
        for done, name in enumerate(args.file, start=1):
            try:
                report = _commit_one(book, args, name)
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


def _commit_one(book: Project, args: argparse.Namespace, name: str) -> CommitReport:
    """One file of a run, its refusal naming the file."""
    path = Path(name)
    text_path = args.text_dir / f"{path.stem}.md" if args.text_dir else None
    try:
        text = read_text_file(text_path) if text_path and text_path.exists() else None
        return book.commit(read_json_input(name), text=text, check=args.check, force=args.force)
    except InvalidChapterResult as exc:  # say which file of the run was refused
        raise InvalidChapterResult(exc.problems, source=name) from exc
    except InvalidInput as exc:
        if str(exc).startswith(name):
            raise
        raise InvalidInput(f"{name}: {exc}") from exc


def import_book(args: argparse.Namespace) -> int:
    if args.kind == "upstream":
        return _import_upstream(args)
    from ..ingest.text_import import read_cast

    cast = read_cast(args.cast) if args.cast else None
    with open_book(args) as book, ProgressBar("import") as bar:
        report = book.import_text(
            args.path, start=args.start, cast=cast, dry_run=args.dry_run, progress=bar.update
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
        raise InvalidInput(say("upstream_options"))
    has_book = args.project is not None and holds_book(args.project / ".webnovel")
    if args.dry_run and not has_book:
        report = plan_upstream_import(args.path)
    else:
        if not has_book:
            if args.project is None:
                raise InvalidInput(say("upstream_needs_folder"))
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
    start, end = args.start, args.end
    if args.chapter is not None:
        if start is not None or end is not None:
            raise InvalidInput(say("chapter_or_range"))
        start = end = args.chapter
    with open_book(args) as book, ProgressBar("extract") as bar:
        try:
            report = book.extract(
                start,
                end,
                dry_run=args.dry_run,
                force=args.force,
                concurrency=args.concurrency,
                progress=bar.update,
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
            raise InvalidInput(say("candidate_needs_name", action=args.action))
        if args.action == "accept" and (args.id or args.yes):
            done = book.accept_candidate(args.name, args.entity_type, args.id, args.yes)
        else:
            done = book.settle_candidate(args.action, args.name, args.entity_type, args.into)
    emit(args, done.to_dict(), lambda _: render.candidate_done_text(done))
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
        import anyio

        from ..mcp import create_server
        from ..mcp.stdio import run_stdio
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise InvalidInput(say("mcp_extra")) from exc
    with open_book(args) as book:
        from ..book.heap import settle_heap

        settle_heap(book)  # a server's process: what it holds from now on is not walked
        anyio.run(run_stdio, create_server(book))
    return 0


def _dashboard_module(name: str) -> Any:
    """A module of the dashboard package, which needs the [dashboard] extra."""
    import importlib

    try:
        return importlib.import_module(f"..dashboard.{name}", __package__)
    except ImportError as exc:
        raise InvalidInput(say("dashboard_extra")) from exc


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
        lambda d: (
            f"读者百科已写入 {d['folder']}（截至第{d['as_of']}章：{d['entities']} 个条目，"
            f"{d['events']} 件大事），打开 index.html 阅读"
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
    with open_book(args) as book, ProgressBar("rebuild") as bar, ProgressBar("index") as index_bar:
        summary = book.rebuild(progress=bar.update, search_progress=index_bar.update)
    emit(args, summary, render.mapping_text)
    return 0
