"""The OpenAI chat-completions protocol, which DeepSeek, Qwen, Kimi, GLM, OpenAI and local
Ollama, vLLM and llama.cpp servers all speak: one POST of JSON to `{base_url}/chat/completions`.

The client is the standard library's `urllib.request`, chosen over httpx on purpose: extraction
is part of the default install and must not need an extra; a request is one JSON POST whose
latency is the model's seconds, not the connection's milliseconds, so connection pooling buys
nothing measurable; and urllib honours the `HTTPS_PROXY` variables that users behind a proxy
rely on. Worker threads each make their own requests (urllib keeps no shared state).

The key travels only in the `Authorization: Bearer` header. It is never put in a message: any
text quoted from a response is scrubbed of it first.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import EndpointFailed
from ..messages import say
from ..untrusted import json_limits

RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
MODEL_JSON_DEPTH = 64  # as the commit's own hygiene allows (memory/write/json_hygiene.py)
MAX_WAIT_S = 60.0  # a Retry-After longer than this is capped: the run would look hung
QUOTE_CHARS = 300  # of a response body, in an error message
# An answer is at most MAX_OUTPUT_CAP tokens of JSON (a few hundred KB): a body past this is a
# server gone wrong (an endless stream), stopped rather than read into memory.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
MAX_ERROR_BYTES = 64 * 1024  # of a refusal's body: only its start is ever quoted
READ_CHUNK = 64 * 1024
# The ways of asking for JSON, most exact first; a server that refuses one gets the next.
RESPONSE_MODES = ("json_schema", "json_object", "none")


@dataclass(frozen=True)
class Usage:
    """Tokens as the server's `usage` counts them; `cached` is the part of the input that the
    provider's prefix cache served (OpenAI `prompt_tokens_details.cached_tokens`, DeepSeek
    `prompt_cache_hit_tokens`)."""

    input: int = 0
    cached: int = 0
    output: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input + other.input, self.cached + other.cached, self.output + other.output
        )

    @classmethod
    def from_response(cls, usage: Any) -> Usage:
        if not isinstance(usage, dict):
            return cls()
        details = usage.get("prompt_tokens_details") or {}
        cached = details.get("cached_tokens") if isinstance(details, dict) else None
        if cached is None:
            cached = usage.get("prompt_cache_hit_tokens", 0)
        return cls(
            _count(usage.get("prompt_tokens")),
            _count(cached),
            _count(usage.get("completion_tokens")),
        )

    def to_dict(self) -> dict[str, int]:
        return {"input": self.input, "cached": self.cached, "output": self.output}


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


@dataclass(frozen=True)
class Completion:
    content: str
    finish_reason: str | None
    usage: Usage
    attempts: int  # HTTP requests it took, retries included


@dataclass(frozen=True)
class ChatEndpoint:
    """Where requests go. The key is kept out of `repr` so that no traceback prints it."""

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    timeout_s: float = 120.0


class RequestsFailed(EndpointFailed):
    """The endpoint failed after `attempts` HTTP requests (each counted in the run's report)."""

    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


class ChatClient:
    def __init__(
        self,
        endpoint: ChatEndpoint,
        retries: int = 4,
        backoff_s: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.endpoint = endpoint
        self.retries = retries
        self.backoff_s = backoff_s
        self.sleep = sleep
        self._mode = 0  # index into RESPONSE_MODES, shared by the run's threads
        self._lock = threading.Lock()

    @property
    def response_mode(self) -> str:
        return RESPONSE_MODES[self._mode]

    def complete(
        self,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        max_tokens: int,
        schema_note: str = "",
    ) -> Completion:
        """One answer to `messages`, retrying what a retry can fix (429, 5xx, a timeout, a
        dropped connection) with backoff that honours Retry-After. The schema is sent once:
        in `response_format` (json_schema), or, for a server that does not take it, as
        `schema_note` at the end of the first (system) message."""
        attempts = 0
        while True:
            mode = self._mode
            body = {
                "model": self.endpoint.model,
                "messages": messages
                if RESPONSE_MODES[mode] == "json_schema"
                else _with_note(messages, schema_note),
                "temperature": 0,
                "max_tokens": max_tokens,
                **_response_format(RESPONSE_MODES[mode], schema),
            }
            attempts += 1
            try:
                data = self._post(body)
            except _Refused as exc:
                if (
                    exc.status == 400
                    and _about_response_format(exc.text)
                    and mode + 1 < len(RESPONSE_MODES)
                ):
                    with self._lock:
                        self._mode = max(self._mode, mode + 1)
                    continue
                if exc.status in RETRY_STATUSES and attempts <= self.retries:
                    self.sleep(exc.retry_after or self._backoff(attempts))
                    continue
                raise RequestsFailed(self._describe(exc), attempts) from None
            except _Unreachable as exc:
                if attempts <= self.retries:
                    self.sleep(self._backoff(attempts))
                    continue
                raise RequestsFailed(
                    say(
                        "model_unreachable",
                        url=self.endpoint.base_url,
                        retries=self.retries,
                        reason=exc.reason,
                    ),
                    attempts,
                ) from None
            except EndpointFailed as exc:  # an answer too large, too deep, not JSON
                raise RequestsFailed(str(exc), attempts) from None
            try:
                return _completion(data, attempts, self._scrub)
            except EndpointFailed as exc:
                raise RequestsFailed(str(exc), attempts) from None

    def _backoff(self, attempt: int) -> float:
        return min(MAX_WAIT_S, self.backoff_s * 2.0 ** (attempt - 1))

    def _post(self, body: dict[str, Any]) -> Any:
        url = self.endpoint.base_url.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.endpoint.api_key:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key}"
        # compact: the schema's whitespace would be a thousand characters of every request
        payload = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        request = urllib.request.Request(url, data=payload, headers=headers, method="POST")
        timeout = self.endpoint.timeout_s
        with _Deadline(timeout) as deadline:
            raw = self._exchange(request, deadline)
        text = raw.decode("utf-8", "replace")
        try:
            return json_limits.loads(text, self._scrub(url), max_depth=MODEL_JSON_DEPTH)
        except json_limits.JsonTooBig:
            raise EndpointFailed(say("model_answer_too_deep", depth=MODEL_JSON_DEPTH)) from None
        except json.JSONDecodeError:
            quoted = self._scrub(raw[:QUOTE_CHARS].decode("utf-8", "replace"))
            raise EndpointFailed(say("model_not_json", quoted=quoted)) from None

    def _exchange(self, request: urllib.request.Request, deadline: _Deadline) -> bytes:
        """The response body, within the deadline's time and `MAX_RESPONSE_BYTES`."""
        timeout = self.endpoint.timeout_s
        try:
            with _opener(deadline).open(request, timeout=timeout) as response:
                raw = _read_capped(response, MAX_RESPONSE_BYTES)
        except urllib.error.HTTPError as exc:
            try:
                text = _read_capped(exc, MAX_ERROR_BYTES, cut=True).decode("utf-8", "replace")
            except (http.client.HTTPException, OSError):
                text = ""
            raise _Refused(exc.code, text, _retry_after(exc.headers.get("Retry-After"))) from None
        except _TooLarge:
            raise EndpointFailed(say("model_answer_too_large", limit=MAX_RESPONSE_BYTES)) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
            if deadline.expired:  # the timer shut the socket: whatever the read then said
                raise _Unreachable(say("model_total_timed_out", seconds=timeout)) from None
            reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            if isinstance(reason, TimeoutError):
                raise _Unreachable(say("model_timed_out", seconds=timeout)) from None
            raise _Unreachable(self._scrub(str(reason))) from None
        if deadline.expired:  # cut short by the timer: a body without a length looks whole
            raise _Unreachable(say("model_total_timed_out", seconds=timeout))
        return raw

    def _describe(self, exc: _Refused) -> str:
        quoted = self._scrub(exc.text.strip())[:QUOTE_CHARS]
        if exc.status in (401, 403):
            return say(
                "model_key_refused", status=exc.status, model=self.endpoint.model, quoted=quoted
            )
        if exc.status in RETRY_STATUSES:
            return say(
                "model_still_failing", retries=self.retries, status=exc.status, quoted=quoted
            )
        return say("model_refused", status=exc.status, quoted=quoted)

    def _scrub(self, text: str) -> str:
        key = self.endpoint.api_key
        return text.replace(key, "***") if key else text


class _TooLarge(Exception):
    pass


def _read_capped(response: Any, limit: int, cut: bool = False) -> bytes:
    """The body, read a chunk at a time; past `limit` bytes, `_TooLarge` (or, with `cut`, the
    first `limit` bytes)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk: bytes = response.read(READ_CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            if cut:
                return bytes(b"".join(chunks) + chunk)[:limit]
            raise _TooLarge
        chunks.append(chunk)


class _Deadline:
    """The whole request's time: when it runs out, a timer thread shuts the request's socket
    down, which ends any read in progress. A socket's own timeout counts each read, so a server
    that drips a byte a second would otherwise hold a run for ever."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    # the plain socket's shutdown, also under TLS: SSLSocket.shutdown would unwrap the TLS
    # object under the reading thread's feet
    with contextlib.suppress(OSError):  # already closed: nothing left to end
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _opener(deadline: _Deadline) -> urllib.request.OpenerDirector:
    """urllib's usual opener (proxies from the environment included) whose connections tell
    `deadline` their socket as soon as they have one."""

    def watched(http_class: Any) -> Any:
        class Watched(http_class):  # type: ignore[misc]
            def connect(self) -> None:
                super().connect()
                deadline.watch(self.sock)

        return Watched

    class WatchedHTTP(urllib.request.HTTPHandler):
        def do_open(self, http_class: Any, req: Any, **kwargs: Any) -> Any:
            return super().do_open(watched(http_class), req, **kwargs)

    class WatchedHTTPS(urllib.request.HTTPSHandler):
        def do_open(self, http_class: Any, req: Any, **kwargs: Any) -> Any:
            return super().do_open(watched(http_class), req, **kwargs)

    return urllib.request.build_opener(WatchedHTTP, WatchedHTTPS)


class _Refused(Exception):
    def __init__(self, status: int, text: str, retry_after: float | None) -> None:
        self.status, self.text, self.retry_after = status, text, retry_after


class _Unreachable(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _response_format(mode: str, schema: dict[str, Any]) -> dict[str, Any]:
    if mode == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "chapter_result", "schema": schema, "strict": False},
            }
        }
    if mode == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def _with_note(messages: list[dict[str, str]], note: str) -> list[dict[str, str]]:
    if not note or not messages:
        return messages
    first = messages[0]
    return [{**first, "content": first["content"] + note}, *messages[1:]]


def _about_response_format(text: str) -> bool:
    lowered = text.lower()
    return "response_format" in lowered or "json_schema" in lowered or "json_object" in lowered


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds, or as an HTTP date; capped so that a run never looks hung."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, min(MAX_WAIT_S, seconds))


def _completion(data: Any, attempts: int, scrub: Callable[[str], str]) -> Completion:
    try:
        choice = data["choices"][0]
        message = choice.get("message") or {}
        content = message.get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        quoted = scrub(json.dumps(data, ensure_ascii=False))[:QUOTE_CHARS]
        raise EndpointFailed(say("model_no_message", quoted=quoted)) from None
    if not isinstance(content, str):
        content = ""
    usage = Usage.from_response(data.get("usage") if isinstance(data, dict) else None)
    return Completion(content, choice.get("finish_reason"), usage, attempts)
