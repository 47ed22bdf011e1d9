"""The facade's entry to extraction: settings, client and cache for one run over a range."""

from __future__ import annotations

import tomllib
from typing import TYPE_CHECKING, Any

from ..errors import InvalidConfig, InvalidInput
from .answer_cache import AnswerCache
from .chat_client import ChatClient
from .run import Extraction, Progress, plan
from .settings import LLMSettings, resolve_settings

if TYPE_CHECKING:
    from ..project import Project

ANSWERS_DB = "answers.db"
NO_MODEL = (
    "没有配置模型：设置环境变量 WEBNOVEL_LLM_BASE_URL（如 https://api.deepseek.com/v1）、"
    "WEBNOVEL_LLM_API_KEY 和 WEBNOVEL_LLM_MODEL，或在用户配置 "
    "$XDG_CONFIG_HOME/webnovel/config.toml 的 [llm] 中设置；--dry-run 不需要模型"
)


def book_llm_table(book: Project) -> dict[str, Any]:
    path = book.storage.config_path
    if not path.exists():
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("llm", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidConfig(f"{path}: cannot be parsed: {exc}") from exc
    if not isinstance(table, dict):
        raise InvalidConfig("config.toml: [llm] must be a table")
    return table


def llm_settings(book: Project) -> LLMSettings:
    return resolve_settings(book_llm_table(book))


def extract_chapters(
    book: Project,
    start: int | None,
    end: int | None,
    dry_run: bool,
    force: bool,
    concurrency: int | None,
    progress: Progress | None,
) -> dict[str, Any]:
    settings = llm_settings(book)
    if concurrency is not None and not 1 <= concurrency <= 64:
        raise InvalidInput(f"concurrency must be from 1 to 64, got {concurrency}")
    if not dry_run and (settings.endpoint is None or not settings.model):
        raise InvalidConfig(NO_MODEL)
    if start is not None and end is not None and start > end:
        raise InvalidInput(f"the range is empty: --from {start} is after --to {end}")
    items = plan(book, start, end, force)
    client = ChatClient(settings.endpoint) if settings.endpoint and not dry_run else None
    cache = AnswerCache(book.storage.config_path.parent / ANSWERS_DB)
    try:
        run = Extraction(book, settings, client, cache, concurrency or settings.max_concurrency)
        if dry_run:
            return run.estimate(items)
        try:
            return run.run(items, progress)
        finally:
            book.flush()
    finally:
        cache.close()
