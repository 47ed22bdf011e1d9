"""Which model extraction asks, where, and at what price.

Where the key goes is the user's choice, never the book's (`user_config.resolve_endpoint`: the
user config or the `WEBNOVEL_LLM_*` variables; a book may only *name* one of the user's
endpoints). A book's `[llm]` table may pick the model, the concurrency, the timeout, the batch,
the output limit, the wait before a retry and the prices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidConfig
from ..messages import say
from ..user.config import check_book_section, first_use_notice, resolve_endpoint
from .chat_client import ChatEndpoint

DEFAULT_CONCURRENCY = 1
DEFAULT_BATCH = 1
DEFAULT_MAX_OUTPUT_TOKENS = 8192
DEFAULT_TIMEOUT_S = 180.0
# The first wait before a retry (a 5xx, a timeout, a dropped connection), doubled each retry; a
# server's Retry-After wins. 0 retries at once (a local server, the tests).
DEFAULT_RETRY_BACKOFF_S = 1.0
BOOK_KEYS = frozenset(
    {
        "endpoint",
        "model",
        "max_concurrency",
        "timeout_s",
        "retry_backoff_s",
        "batch",
        "max_output_tokens",
        "prices",
    }
)


@dataclass(frozen=True)
class Prices:
    """Per million tokens, in the provider's currency (`currency`, as the author writes it:
    元, ¥, USD; "" when not said)."""

    input: float
    cached: float
    output: float
    currency: str = ""

    def cost(self, input_tokens: int, cached_tokens: int, output_tokens: int) -> float:
        fresh = max(0, input_tokens - cached_tokens)
        total = fresh * self.input + cached_tokens * self.cached + output_tokens * self.output
        return round(total / 1_000_000, 6)

    def to_dict(self) -> dict[str, float | str]:
        prices: dict[str, float | str] = {
            "input": self.input,
            "cached": self.cached,
            "output": self.output,
        }
        return {**prices, "currency": self.currency} if self.currency else prices


@dataclass(frozen=True)
class LLMSettings:
    endpoint: ChatEndpoint | None  # None: no model configured (a dry run still estimates)
    model: str
    max_concurrency: int = DEFAULT_CONCURRENCY
    batch: int = DEFAULT_BATCH
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS
    retry_backoff_s: float = DEFAULT_RETRY_BACKOFF_S
    prices: Prices | None = None
    notice: str | None = None  # where text goes, said the first time this user sends any there


def resolve_settings(book_llm: dict[str, Any], need_endpoint: bool = True) -> LLMSettings:
    """Settings from the user's side (endpoint, key) and the book's `[llm]` table (the rest).
    Without `need_endpoint` (a dry run), a missing endpoint is no error."""
    check_book_section("llm", book_llm)
    unknown = sorted(set(book_llm) - BOOK_KEYS)
    if unknown:
        known = ", ".join(sorted(BOOK_KEYS))
        raise InvalidConfig(say("llm_unknown_keys", keys=", ".join(unknown), known=known))
    timeout = _number(book_llm, "timeout_s", DEFAULT_TIMEOUT_S, 0.01, 3600)
    endpoint, model, notice = None, str(book_llm.get("model") or ""), None
    try:
        chosen = resolve_endpoint("llm", book_llm)
    except InvalidConfig:
        if need_endpoint:
            raise
    else:
        model = chosen.model or ""
        if need_endpoint and not model:
            raise InvalidConfig(say("llm_no_model", endpoint=chosen.describe()))
        endpoint = ChatEndpoint(chosen.base_url, model, chosen.api_key() or "", timeout)
        notice = first_use_notice(chosen) if need_endpoint else None
    return LLMSettings(
        endpoint=endpoint,
        model=model,
        max_concurrency=int(_number(book_llm, "max_concurrency", DEFAULT_CONCURRENCY, 1, 64)),
        batch=int(_number(book_llm, "batch", DEFAULT_BATCH, 1, 64)),
        max_output_tokens=int(
            _number(book_llm, "max_output_tokens", DEFAULT_MAX_OUTPUT_TOKENS, 256, 131072)
        ),
        retry_backoff_s=_number(book_llm, "retry_backoff_s", DEFAULT_RETRY_BACKOFF_S, 0, 60),
        prices=_prices(book_llm.get("prices")),
        notice=notice,
    )


def _number(
    table: dict[str, Any], key: str, default: float, low: float, high: float, within: str = "llm"
) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        # written out (1000000, not 1e+06): an author copies the bound into the config
        bounds = {"low": f"{low:.15g}", "high": f"{high:.15g}"}
        raise InvalidConfig(say("llm_number", where=f"{within}.{key}", **bounds))
    return float(value)


def _prices(value: Any) -> Prices | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not {"input", "output"} <= set(value):
        raise InvalidConfig(say("llm_prices"))
    numbers = {
        k: _number(value, k, 0.0, 0, 1e6, "llm.prices") for k in ("input", "cached", "output")
    }
    if "cached" not in value:
        numbers["cached"] = numbers["input"]
    currency = value.get("currency", "")
    if not isinstance(currency, str) or len(currency) > 8 or not currency.isprintable():
        raise InvalidConfig(say("llm_currency"))
    return Prices(numbers["input"], numbers["cached"], numbers["output"], currency.strip())
