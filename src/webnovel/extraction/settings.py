"""Which model extraction asks, where, and at what price.

Where the key goes is the user's choice, never the book's: the endpoint and the key come from
the user's environment (`WEBNOVEL_LLM_BASE_URL`, `WEBNOVEL_LLM_API_KEY`) or the user-level config;
a book's `[llm]` table may pick only the model, the concurrency, the timeout, the batch and the
prices. The key goes over https only, with plain http allowed on this machine (a local Ollama,
vLLM or llama.cpp server).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import InvalidConfig
from .chat_client import Endpoint

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
DEFAULT_CONCURRENCY = 4
DEFAULT_BATCH = 4
DEFAULT_MAX_OUTPUT_TOKENS = 8192
DEFAULT_TIMEOUT_S = 180.0
BOOK_KEYS = frozenset(
    {"model", "max_concurrency", "timeout_s", "batch", "max_output_tokens", "prices"}
)


@dataclass(frozen=True)
class Prices:
    """Per million tokens, in the provider's currency."""

    input: float
    cached: float
    output: float

    def cost(self, input_tokens: int, cached_tokens: int, output_tokens: int) -> float:
        fresh = max(0, input_tokens - cached_tokens)
        total = fresh * self.input + cached_tokens * self.cached + output_tokens * self.output
        return round(total / 1_000_000, 6)

    def to_dict(self) -> dict[str, float]:
        return {"input": self.input, "cached": self.cached, "output": self.output}


@dataclass(frozen=True)
class LLMSettings:
    endpoint: Endpoint | None  # None: no model configured (a dry run still estimates)
    model: str
    max_concurrency: int = DEFAULT_CONCURRENCY
    batch: int = DEFAULT_BATCH
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS
    prices: Prices | None = None


def checked_base_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS:
        return url
    raise InvalidConfig(
        f"模型地址 {url!r} 必须是 https（明文 http 只允许本机：localhost、127.0.0.1）"
    )


def resolve_settings(
    book_llm: dict[str, Any], environ: dict[str, str] | None = None
) -> LLMSettings:
    """Settings from the user's environment and the book's `[llm]` table."""
    env = os.environ if environ is None else environ
    unknown = sorted(set(book_llm) - BOOK_KEYS)
    if unknown:
        raise InvalidConfig(
            f"config.toml: [llm] 不能设置 {', '.join(unknown)}：模型地址和密钥只能来自用户自己的"
            "配置或环境变量（WEBNOVEL_LLM_BASE_URL、WEBNOVEL_LLM_API_KEY）"
        )
    model = env.get("WEBNOVEL_LLM_MODEL") or _text(book_llm, "model") or ""
    base_url = env.get("WEBNOVEL_LLM_BASE_URL") or ""
    endpoint = None
    if base_url:
        endpoint = Endpoint(
            checked_base_url(base_url),
            model,
            env.get("WEBNOVEL_LLM_API_KEY", ""),
            _number(book_llm, "timeout_s", DEFAULT_TIMEOUT_S, 0.01, 3600),
        )
    return LLMSettings(
        endpoint=endpoint,
        model=model,
        max_concurrency=int(_number(book_llm, "max_concurrency", DEFAULT_CONCURRENCY, 1, 64)),
        batch=int(_number(book_llm, "batch", DEFAULT_BATCH, 1, 64)),
        max_output_tokens=int(
            _number(book_llm, "max_output_tokens", DEFAULT_MAX_OUTPUT_TOKENS, 256, 131072)
        ),
        prices=_prices(book_llm.get("prices")),
    )


def _text(table: dict[str, Any], key: str) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidConfig(f"config.toml: llm.{key} must be a string")
    return value


def _number(table: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise InvalidConfig(f"config.toml: llm.{key} must be a number from {low:g} to {high:g}")
    return float(value)


def _prices(value: Any) -> Prices | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not {"input", "output"} <= set(value):
        raise InvalidConfig(
            "config.toml: llm.prices must be a table with input, output (and cached), "
            "per million tokens"
        )
    numbers = {k: _number(value, k, 0.0, 0, 1e6) for k in ("input", "cached", "output")}
    if "cached" not in value:
        numbers["cached"] = numbers["input"]
    return Prices(numbers["input"], numbers["cached"], numbers["output"])
