"""Serving the dashboard: bind the port first (so a taken port is a clear error, and port 0
picks a free one), then run uvicorn on that socket until Ctrl+C."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from ..book import open_project
from ..book.server_memory import settle_heap
from ..errors import InvalidInput
from ..messages import say
from ..user.loopback import is_loopback_host
from .access import LOGIN_PARAM, new_login_token
from .app import create_app


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise InvalidInput.of(
            "dashboard_port_taken", host=host, port=port, error=exc.strerror
        ) from exc
    sock.listen(64)
    return sock


def serve(
    root: str | Path | None,
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = False,
    tell: Callable[[str], None] = print,
    allow_network: bool = False,
) -> None:
    """Serve the dashboard until Ctrl+C. Beyond loopback only with `allow_network`, and then
    every visitor needs the login token the printed URL carries."""
    import uvicorn

    loopback = is_loopback_host(host)
    if not loopback and not allow_network:
        raise InvalidInput.of("dashboard_not_loopback", host=host)
    sock = bind(host, port)
    bound_port = sock.getsockname()[1]
    shown_host = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
    url = f"http://{shown_host}:{bound_port}/"
    login_token = None if loopback else new_login_token()
    with open_project(root) as book:
        if login_token is not None:
            url += f"?{LOGIN_PARAM}={login_token}"
            tell(say("dashboard_on_network", host=host))
        app = create_app(book, login_token)
        settle_heap(book)  # a server's process: what it holds from now on is not walked
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
        server = uvicorn.Server(config)
        tell(say("dashboard_at", title=book.book["title"], url=url))
        if open_browser:
            threading.Timer(0.8, webbrowser.open, (url,)).start()
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: a normal end
            tell(say("dashboard_stopped"))
