"""The facade's entry to extraction: settings, client and cache for one run over a range."""

from __future__ import annotations

import tomllib
import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import InvalidConfig, InvalidInput
from ..messages import say
from ..untrusted.toml_errors import toml_problem
from .answer_cache import AnswerCache
from .chat_client import ChatClient
from .report import ExtractionReport
from .run import Extraction, Planned, Progress, plan
from .run_lock import extraction_lock
from .settings import LLMSettings, resolve_settings
from .skipped import skipped_chapters

if TYPE_CHECKING:
    from .handle import Extracting

ANSWERS_DB = "answers.db"


def book_llm_table(book: Extracting) -> dict[str, Any]:
    path = book.storage.config_path
    if not path.exists():
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("llm", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidConfig(say("config_unparsable", path=path, error=toml_problem(exc))) from exc
    if not isinstance(table, dict):
        raise InvalidConfig(say("llm_table"))
    return table


def llm_settings(book: Extracting, need_endpoint: bool = True) -> LLMSettings:
    return resolve_settings(book_llm_table(book), need_endpoint)


def propose_results(book: Extracting, chapters: list[int]) -> dict[int, dict[str, Any]]:
    """A model's reading of these stored chapters (their texts as stored), committed nowhere:
    chapter → the result a run would commit. Answers are kept in the book as a run's are, so
    asking again sends nothing."""
    settings = llm_settings(book)
    if settings.notice:
        warnings.warn(settings.notice, stacklevel=2)
    if settings.endpoint is None:  # resolve_settings has said why already; never reached
        raise InvalidInput.of("no_model")
    client = ChatClient(settings.endpoint, backoff_s=settings.retry_backoff_s)
    cache = AnswerCache(book.storage.config_path.parent / ANSWERS_DB)
    try:
        run = Extraction(book, settings, client, cache, 1)
        return {
            item.chapter: run.propose(item)
            for number in chapters
            for item in plan(book, number, number, force=True)
        }
    finally:
        cache.close()


def extract_chapters(
    book: Extracting,
    start: int | None,
    end: int | None,
    dry_run: bool,
    force: bool,
    concurrency: int | None,
    progress: Progress | None,
) -> ExtractionReport:
    settings, no_endpoint = _settings_for_run(book, dry_run)
    if concurrency is not None and not 1 <= concurrency <= 64:
        raise InvalidInput.of("concurrency_range", got=concurrency)
    if settings.notice:
        warnings.warn(settings.notice, stacklevel=2)
    if start is not None and end is not None and start > end:
        raise InvalidInput.of("empty_range", start=start, end=end)
    memory_dir = book.storage.config_path.parent
    run = _Run(settings, no_endpoint, dry_run, force, concurrency, progress)
    if dry_run:
        return _extract(book, run, start, end)
    # planned only once the lock is ours: what another run extracted meanwhile is not planned
    with extraction_lock(memory_dir, _say_waiting):
        return _extract(book, run, start, end)


def _settings_for_run(book: Extracting, dry_run: bool) -> tuple[LLMSettings, str | None]:
    """The run's settings, and why no model can be asked, if none can: a run whose answers
    are all kept in the book (a re-run, nothing left to extract) needs no endpoint."""
    if dry_run:
        return llm_settings(book, need_endpoint=False), None
    try:
        return llm_settings(book), None
    except InvalidConfig as exc:
        return llm_settings(book, need_endpoint=False), str(exc)


@dataclass(frozen=True)
class _Run:
    settings: LLMSettings
    no_endpoint: str | None
    dry_run: bool
    force: bool
    concurrency: int | None
    progress: Progress | None


def _say_waiting(pid: str) -> None:
    warnings.warn(say("extract_waiting", pid=pid), stacklevel=4)


def _extract(book: Extracting, run: _Run, start: int | None, end: int | None) -> ExtractionReport:
    report = _read(book, run, items := plan(book, start, end, run.force))
    if items and not (start is not None and start == end):
        return report  # what was read is the answer; the rest of a long book is not listed
    planned = {item.chapter for item in items}
    return replace(report, skipped=skipped_chapters(book, start, end, planned, run.no_endpoint))


def _read(book: Extracting, run: _Run, items: list[Planned]) -> ExtractionReport:
    settings = run.settings
    client = (
        ChatClient(settings.endpoint, backoff_s=settings.retry_backoff_s)
        if settings.endpoint and not run.dry_run
        else None
    )
    cache = AnswerCache(book.storage.config_path.parent / ANSWERS_DB)
    try:
        extraction = Extraction(
            book,
            settings,
            client,
            cache,
            run.concurrency or settings.max_concurrency,
            run.no_endpoint,
        )
        if run.dry_run:
            return extraction.estimate(items)
        try:
            return extraction.run(items, run.progress)
        finally:
            book.flush()
    finally:
        cache.close()
