"""A real chat-completions server on 127.0.0.1 for the extraction tests, scripted per test.

It answers `POST /v1/chat/completions` as an OpenAI-compatible server does. By default it
answers each chapter with the sample serial's gold result; a test hands it a `script`, a function
of (request number, request body) that returns a `Reply` or None for the default. It records
every request (body and headers) and the usage it reported, so a test can compare the engine's
figures with the server's.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from webnovel.ingest.sample_book import sample_chapters

CHAPTER_ASKED = re.compile(r"请输出第(\d+)章的章节结果")


@dataclass
class Reply:
    content: str | None = None
    status: int = 200
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    raw: bytes | None = None  # a body sent as is (for a status other than 200)
    # writes the whole body itself, after a 200 without Content-Length (a server that streams
    # for ever, or drips): the connection closes when it returns
    writer: Callable[[Any], None] | None = None


@dataclass
class Seen:
    body: dict[str, Any]
    headers: dict[str, str]
    usage: dict[str, int] | None = None

    @property
    def chapter(self) -> int | None:
        for message in self.body.get("messages", []):
            if message.get("role") == "user" and (m := CHAPTER_ASKED.search(message["content"])):
                return int(m.group(1))
        return None

    @property
    def user_text(self) -> str:
        return "\n".join(m["content"] for m in self.body["messages"] if m["role"] == "user")


Script = Callable[[int, dict[str, Any]], Reply | None]


def gold_results() -> dict[int, dict[str, Any]]:
    return {c.number: c.result for c in sample_chapters()}


class ChatServer:
    def __init__(self, script: Script | None = None, answers: dict[int, Any] | None = None):
        self.script = script
        self.answers = answers if answers is not None else gold_results()
        self.seen: list[Seen] = []
        self.lock = threading.Lock()
        self.prefixes: set[str] = set()
        self.delay_s = 0.0  # before every answer, besides a Reply's own delay
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length).decode("utf-8"))
                server.handle(self, body)

            def log_message(self, *args: Any) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def handle(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        seen = Seen(body, dict(handler.headers))
        with self.lock:
            number = len(self.seen)
            self.seen.append(seen)
        reply = (self.script(number, body) if self.script else None) or self.default(seen)
        time.sleep(self.delay_s)
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.writer is not None:
            try:
                handler.send_response(200)
                handler.send_header("Content-Type", "application/json")
                handler.send_header("Connection", "close")
                handler.end_headers()
                reply.writer(handler.wfile)
            except (BrokenPipeError, ConnectionResetError):  # the client stopped reading
                pass
            handler.close_connection = True
            return
        if reply.status != 200:
            payload = reply.raw or json.dumps({"error": {"message": "scripted"}}).encode()
            self._send(handler, reply.status, payload, reply.headers)
            return
        content = reply.content or ""
        usage = self.usage(body, content)
        seen.usage = usage
        answer = {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "model": body.get("model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": usage,
        }
        self._send(handler, 200, json.dumps(answer, ensure_ascii=False).encode(), reply.headers)

    def usage(self, body: dict[str, Any], content: str) -> dict[str, Any]:
        """Deterministic counts: a character a token; the system prompt counts as cached from
        its second sight on, as a provider's prefix cache would."""
        messages = body.get("messages", [])
        prompt = sum(len(m.get("content", "")) for m in messages)
        system = messages[0].get("content", "") if messages else ""
        with self.lock:
            cached = len(system) if system in self.prefixes else 0
            self.prefixes.add(system)
        return {
            "prompt_tokens": prompt,
            "completion_tokens": len(content),
            "total_tokens": prompt + len(content),
            "prompt_tokens_details": {"cached_tokens": cached},
        }

    def default(self, seen: Seen) -> Reply:
        chapter = seen.chapter
        answer = self.answers.get(chapter or 0, {"chapter": chapter, "summary": "无"})
        return Reply(json.dumps(answer, ensure_ascii=False))

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler, status: int, payload: bytes, headers: dict[str, str]
    ) -> None:
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    # -- figures a test compares with the engine's ------------------------------------------------

    def answered(self) -> list[Seen]:
        return [s for s in self.seen if s.usage is not None]

    def total_usage(self) -> dict[str, int]:
        answered = self.answered()
        return {
            "input": sum(s.usage["prompt_tokens"] for s in answered if s.usage),
            "cached": sum(
                s.usage["prompt_tokens_details"]["cached_tokens"] for s in answered if s.usage
            ),
            "output": sum(s.usage["completion_tokens"] for s in answered if s.usage),
        }


@contextmanager
def chat_server(
    script: Script | None = None, answers: dict[int, Any] | None = None
) -> Iterator[ChatServer]:
    server = ChatServer(script, answers)
    # serve_forever looks for shutdown() every poll_interval (0.5 s by default): each test's
    # teardown waited for it
    thread = threading.Thread(
        target=server.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
        thread.join(timeout=5)
