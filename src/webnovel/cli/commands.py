"""One handler per command; each opens the book, calls one facade method and prints."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..context import ContextManager
from ..errors import (
    ExtractionFailed,
    InvalidChapterResult,
    InvalidInput,
)
from ..memory.schema import missing_fact
from ..memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA
from ..memory.write.json_hygiene import printable
from ..messages import say
from ..project import Project, init_project, open_project, plan_upstream_import
from ..text_files import MAX_RESULT_BYTES, read_bounded, read_text, read_utf8
from . import render
from .chapter_text import chapter_text
from .progress import ProgressBar


def _open(args: argparse.Namespace) -> Project:
    book = open_project(args.project)
    book.on_wait(_say_waiting)
    return book


def _say_waiting(path: str) -> None:
    print(f"等待另一个进程（提交、重建或检索索引）释放 {path} 的写锁……", file=sys.stderr)


def emit(args: argparse.Namespace, data: Any, text: Callable[[Any], str]) -> None:
    """The answer on stdout: JSON as it is (escaped by the encoder), text with control
    characters shown as escapes, so no stored value can clear or rewrite the author's screen."""
    out = render.to_json(data) if args.format == "json" else printable(text(data))
    sys.stdout.write(out + "\n")


def init(args: argparse.Namespace) -> int:
    path = args.path or args.project or Path.cwd()
    if (args.book or args.password_env) and not args.store:
        raise InvalidInput("--book 与 --password-env 只用于 --store")
    with init_project(
        path,
        title=args.title,
        genre=args.genre,
        store=args.store,
        book=args.book,
        password_env=args.password_env,
    ) as book:
        emit(
            args,
            {"created": str(book.root / ".webnovel"), **book.book},
            lambda d: f"created {d['created']} for 《{d['title']}》",
        )
    return 0


def _read_input(name: str) -> Any:
    """A chapter result: UTF-8 JSON from a file or standard input, with NaN, Infinity and
    absurd nesting refused as errors that name the input."""
    where = "standard input" if name == "-" else name
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
            f"{where} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    except ValueError as exc:  # NaN or Infinity
        raise InvalidInput(f"{where}: {exc}") from exc
    except RecursionError as exc:
        raise InvalidInput(f"{where} is nested too deeply to be a chapter result") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _read_text(path: Path) -> str:
    """A chapter text or outline in UTF-8, GB18030, Big5 or UTF-16 with a byte-order mark
    (said on stderr when not UTF-8)."""
    text, encoding = read_text(path)
    if encoding != "utf-8":
        print(say("text_read_as", encoding=encoding.upper(), path=path), file=sys.stderr)
    return text


def commit(args: argparse.Namespace) -> int:
    if len(args.file) > 1:
        return _commit_many(args)
    result = _read_input(args.file[0])
    text = _read_text(args.text) if args.text else None
    with _open(args) as book:
        report = book.commit(
            result, text=text, chapter=args.chapter, check=args.check, force=args.force
        )
        _keep_search_in_step(book, bulk=False)
    emit(args, report.to_dict(), render.commit_text)
    return 0


SEARCH_BEHIND_AT_MOST = 200  # chapters single commits may leave the search index behind


def _keep_search_in_step(book: Project, bulk: bool) -> None:
    """A bulk run (several files, an import) indexes what it wrote as it ends, with a progress
    bar; single commits do once the index is SEARCH_BEHIND_AT_MOST chapters behind. So the
    first search after thousands of commits never finds them all still to index."""
    if book.search_pending() < (1 if bulk else SEARCH_BEHIND_AT_MOST):
        return
    with ProgressBar("index") as bar:
        book.catch_up_search(progress=bar.update)


def retract(args: argparse.Namespace) -> int:
    with _open(args) as book:
        if not args.yes and sys.stdin.isatty():
            title = next((c["title"] for c in book.chapters() if c["chapter"] == args.chapter), "")
            answer = input(
                f"撤回第{args.chapter}章《{title or ''}》？记忆将当作此章从未提交 [y/N] "
            )
            if answer.strip().lower() not in ("y", "yes", "是"):
                print("未撤回", file=sys.stderr)
                return 1
        report = book.retract(args.chapter)
    emit(args, report.to_dict(), render.commit_text)
    return 0


def _commit_many(args: argparse.Namespace) -> int:
    """Import a run of chapters. Each commit is atomic; the first bad file stops the run, names
    itself, and leaves every earlier chapter committed."""
    if args.text or args.chapter is not None or "-" in args.file:
        raise InvalidInput(say("several_files"))
    reports = []
    with _open(args) as book, ProgressBar("commit") as bar:
        for done, name in enumerate(args.file, start=1):
            path = Path(name)
            text_path = args.text_dir / f"{path.stem}.md" if args.text_dir else None
            try:
                text = _read_text(text_path) if text_path and text_path.exists() else None
                report = book.commit(
                    _read_input(name), text=text, check=args.check, force=args.force
                )
            except InvalidChapterResult as exc:  # say which file of the run was refused
                raise InvalidChapterResult(exc.problems, source=name) from exc
            except InvalidInput as exc:
                if str(exc).startswith(name):
                    raise
                raise InvalidInput(f"{name}: {exc}") from exc
            reports.append(report.to_dict())
            bar.update(done, len(args.file))
        _keep_search_in_step(book, bulk=True)
    emit(args, reports, lambda items: "\n".join(render.commit_text(r) for r in items))
    return 0


def import_book(args: argparse.Namespace) -> int:
    if args.kind == "upstream":
        return _import_upstream(args)
    from ..text_import import read_cast

    cast = read_cast(args.cast) if args.cast else None
    with _open(args) as book, ProgressBar("import") as bar:
        report = book.import_text(
            args.path, start=args.start, cast=cast, dry_run=args.dry_run, progress=bar.update
        )
        if not args.dry_run:
            _keep_search_in_step(book, bulk=True)
        if args.candidates:
            report["candidate_names"] = [c.to_dict() for c in book.candidate_names()]
    for warning in report["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    emit(args, report, render.import_text)
    return 0


def _import_upstream(args: argparse.Namespace) -> int:
    """A webnovel-writer project into a new book: the book is made in --project's folder with
    the project's title and genre, unless it exists (an interrupted import resumes)."""
    if args.start is not None or args.cast or args.candidates:
        raise InvalidInput("--start, --cast and --candidates are for `webnovel import text`")
    has_book = args.project is not None and (args.project / ".webnovel" / "index.db").exists()
    if args.dry_run and not has_book:
        report = plan_upstream_import(args.path)
    else:
        if not has_book:
            if args.project is None:
                raise InvalidInput(
                    "name the new book's folder: webnovel --project NEW-BOOK import upstream PATH"
                )
            plan = plan_upstream_import(args.path)
            init_project(args.project, title=plan["title"], genre=plan["genre"]).close()
        with _open(args) as book, ProgressBar("import") as bar:
            report = book.import_upstream(args.path, dry_run=args.dry_run, progress=bar.update)
            if not args.dry_run:
                _keep_search_in_step(book, bulk=True)
    for warning in report["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    emit(args, report, render.upstream_text)
    return 0


def extract(args: argparse.Namespace) -> int:
    start, end = args.start, args.end
    if args.chapter is not None:
        if start is not None or end is not None:
            raise InvalidInput(say("chapter_or_range"))
        start = end = args.chapter
    with _open(args) as book, ProgressBar("extract") as bar:
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
            if exc.report:  # what was committed before the failure, then the error
                emit(args, exc.report, render.extract_text)
            raise
    emit(args, report, render.extract_text)
    return 0


def summarize(args: argparse.Namespace) -> int:
    with _open(args) as book, ProgressBar("summarize") as bar:
        report = book.summarize(progress=bar.update)
    emit(
        args,
        report,
        lambda d: (
            f"{d['chapters']} 章：新写摘要 {d['summarized']} 章，未变化 {d['unchanged']} 章，"
            f"跳过 {d['skipped']} 章（模型或代理写的结果、没有正文的章）"
        ),
    )
    return 0


def candidates(args: argparse.Namespace) -> int:
    with _open(args) as book:
        if args.action is None:
            items = [c.to_dict() for c in book.candidates(args.min_count, args.limit)]
            emit(args, items, render.candidates_text)
            return 0
        if not args.name:
            raise InvalidInput(say("candidate_needs_name", action=args.action))
        if args.action == "accept" and args.id:
            done = book.accept_candidate(args.name, args.entity_type, args.id)
        else:
            done = book.settle_candidate(args.action, args.name, args.entity_type, args.into)
    emit(args, done, render.candidate_done_text)
    return 0


def cooccurrence(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = book.cooccurrence(args.subject, args.as_of, args.limit)
    emit(args, items, render.cooccurrence_text)
    return 0


def prefill(args: argparse.Namespace) -> int:
    with _open(args) as book:
        skeleton = book.prefill(args.chapter)
    emit(args, skeleton, render.to_json)
    return 0


def entities(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [e.to_dict() for e in book.entities(args.as_of, args.entity_type)]
    emit(args, items, render.entities_text)
    return 0


HOLDER_FIELDS = ("holder", "持有者", "持有人")


def fact(args: argparse.Namespace) -> int:
    with _open(args) as book:
        entity = book.entity(args.subject)
        if args.field is None or args.field in HOLDER_FIELDS:
            if entity.type != "物品" and args.field is None:
                raise InvalidInput(
                    f"「{entity.name}」不是物品：请给出字段，如 fact {args.subject} 境界"
                )
            holders = book.holders(entity.id, as_of=args.as_of)
            names = book.names(holders, args.as_of)
            data = {
                "entity_id": entity.id,
                "entity_name": book.names([entity.id], args.as_of)[entity.id],
                "field": "holder",
                "field_label": "持有者",
                "value": [names[h] for h in holders],
                "holder_ids": holders,
                "found": bool(holders),
            }
            emit(args, data, render.fact_text)
            return 0
        key = book.field_key(args.field)
        item = book.fact(entity.id, key, as_of=args.as_of)
        if item:
            data = item.to_dict()
        else:  # say which fields it does have: 「境界」 asked of a book that keys it otherwise
            data = missing_fact(entity.id, key)
            data["entity_name"] = book.names([entity.id], args.as_of)[entity.id]
            data["known_fields"] = [
                book.fields.label(f.field) for f in book.facts(entity.id, as_of=args.as_of)
            ]
        data["field_label"] = book.fields.label(key)
    emit(args, data, render.fact_text)
    return 0


def fields(args: argparse.Namespace) -> int:
    with _open(args) as book:
        used = book.field_use()
        terms = book.fields
        declared = {t.value: t for t in terms}
        keys = list(dict.fromkeys([*used, *declared]))
        items = [
            {
                "field": key,
                "label": terms.label(key),
                "entities": used.get(key, 0),
                "synonyms": list(declared[key].synonyms) if key in declared else [],
            }
            for key in keys
        ]
    emit(args, items, render.fields_text)
    return 0


def history(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [
            {**i.to_dict(), "field_label": book.fields.label(i.field)}
            for i in book.history(args.subject, args.field, as_of=args.as_of)
        ]
    emit(args, items, render.history_text)
    return 0


def relations(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [r.to_dict() for r in book.relations(args.subject, as_of=args.as_of)]
    emit(args, items, render.relations_text)
    return 0


def threads(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [t.to_dict() for t in book.threads(status=args.status, as_of=args.as_of)]
    emit(args, items, render.threads_text)
    return 0


def rules(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [r.to_dict() for r in book.rules(as_of=args.as_of, domain=args.domain)]
    emit(args, items, render.rules_text)
    return 0


def knows(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [k.to_dict() for k in book.knows(args.subject, as_of=args.as_of)]
    emit(args, items, render.knows_text)
    return 0


def chapter(args: argparse.Namespace) -> int:
    with _open(args) as book:
        report = book.chapter(args.chapter).to_dict()
    emit(args, report, chapter_text)
    return 0


def secrets(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [s.to_dict() for s in book.secrets(as_of=args.as_of)]
    emit(args, items, render.secrets_text)
    return 0


def timeline(args: argparse.Namespace) -> int:
    with _open(args) as book:
        items = [
            e.to_dict() for e in book.timeline(args.start, args.end, args.entity, as_of=args.as_of)
        ]
    emit(args, items, render.timeline_text)
    return 0


def conflicts(args: argparse.Namespace) -> int:
    with _open(args) as book:
        if args.action == "resolve":
            if not args.conflict_id:
                raise InvalidInput(say("resolve_needs_id"))
            settled = book.resolve_conflict(args.conflict_id, args.intentional, args.note)
            emit(args, settled.to_dict(), lambda d: f"{d['id']}: {d['status']}")
            return 0
        items = [c.to_dict() for c in book.conflicts(include_settled=args.all, as_of=args.as_of)]
    emit(args, items, render.conflicts_text)
    return 0


def search(args: argparse.Namespace) -> int:
    with _open(args) as book, ProgressBar("index") as bar:
        book.catch_up_search(progress=bar.update)
        hits = [h.to_dict() for h in book.search(args.text, args.top_k, args.as_of)]
    emit(args, hits, render.search_text)
    return 0


def embed(args: argparse.Namespace) -> int:
    with _open(args) as book, ProgressBar("embed") as bar:
        summary = book.embed(progress=bar.update, batch=args.batch, include_text=args.include_text)
    emit(args, summary, render.mapping_text)
    return 0


def mcp(args: argparse.Namespace) -> int:
    try:
        import anyio

        from ..mcp import create_server
        from ..mcp.stdio import run_stdio
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise InvalidInput(
            "the MCP server needs the [mcp] extra: pip install 'webnovel-memory[mcp]'"
        ) from exc
    with _open(args) as book:
        anyio.run(run_stdio, create_server(book))
    return 0


def _dashboard_module(name: str) -> Any:
    """A module of the dashboard package, which needs the [dashboard] extra."""
    import importlib

    from ..dashboard import EXTRA_HINT

    try:
        return importlib.import_module(f"..dashboard.{name}", __package__)
    except ImportError as exc:
        raise InvalidInput(EXTRA_HINT) from exc


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
    with _open(args) as book, ProgressBar("wiki") as bar:
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
    sys.stdout.write(render.to_json(CHAPTER_RESULT_SCHEMA) + "\n")
    return 0


def review(args: argparse.Namespace) -> int:
    draft = _read_input(args.file)
    with _open(args) as book:
        report = book.review(draft, chapter=args.chapter)
    emit(args, report.to_dict(), render.review_text)
    return 0


def pack(args: argparse.Namespace) -> int:
    outline = _read_text(args.outline) if args.outline else None
    draft = _read_input(str(args.draft)) if args.draft else None
    with _open(args) as book:
        memory_pack = ContextManager(book).pack(
            args.chapter,
            args.task,
            template=args.template,
            outline=outline,
            query=args.query,
            budget_tokens=args.budget,
            draft=draft,
        )
    sys.stdout.write(memory_pack.render(args.format))
    return 0


def resume(args: argparse.Namespace) -> int:
    with _open(args) as book:
        data = book.resume()
    emit(args, data, render.resume_text)
    return 0


def rebuild(args: argparse.Namespace) -> int:
    with _open(args) as book, ProgressBar("rebuild") as bar, ProgressBar("index") as index_bar:
        summary = book.rebuild(progress=bar.update, search_progress=index_bar.update)
    emit(args, summary, render.mapping_text)
    return 0


def stats(args: argparse.Namespace) -> int:
    with _open(args) as book:
        data = book.stats()
    emit(args, data, render.mapping_text)
    return 0
