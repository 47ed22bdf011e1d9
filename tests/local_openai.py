"""A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings protocol, scripted per test.

No model is reachable from the tests, and patching the client would test nothing: this server
records every request (path, headers, body) and answers `/embeddings` with a vector per input
derived from the text, or with whatever a test scripts (`reply`), so tests can see exactly what
left the program.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: bytes


def text_vector(text: str, dim: int = 8) -> list[float]:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [b / 255 - 0.5 for b in digest[:dim]]


def embeddings_reply(body: dict[str, Any], dim: int = 8) -> tuple[int, bytes]:
    inputs = body.get("input", [])
    data = [{"index": i, "embedding": text_vector(t, dim)} for i, t in enumerate(inputs)]
    return 200, json.dumps({"data": data, "model": body.get("model")}).encode()


@dataclass
class LocalOpenAI:
    url: str
    requests: list[Seen] = field(default_factory=list)
    # (request body as JSON) -> (status, reply bytes); the default embeds every input
    reply: Callable[[dict[str, Any]], tuple[int, bytes]] = embeddings_reply

    def carried(self, secret: str) -> bool:
        """Whether any request carried `secret` anywhere: path, a header or the body."""
        needle = secret.encode()
        return any(
            needle in r.path.encode()
            or needle in r.body
            or any(secret in v for v in r.headers.values())
            for r in self.requests
        )


@contextmanager
def local_openai() -> Iterator[LocalOpenAI]:
    server_box: list[LocalOpenAI] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server spelling)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            state = server_box[0]
            state.requests.append(Seen(self.path, dict(self.headers.items()), body))
            try:
                status, payload = state.reply(json.loads(body or b"{}"))
            except ValueError:
                status, payload = 400, b'{"error": "bad json"}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server_box.append(LocalOpenAI(f"http://127.0.0.1:{server.server_address[1]}/v1"))
    # serve_forever looks for shutdown() every poll_interval (0.5 s by default): each test's
    # teardown waited for it
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    try:
        yield server_box[0]
    finally:
        server.shutdown()
        server.server_close()
