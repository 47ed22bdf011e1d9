"""Who may read the dashboard: this machine only, or whoever holds the login token.

On loopback (the default) every request must name a loopback Host, in any spelling (`127.1`,
`127.0.0.2`, `LOCALHOST`, `[::1]`): a page on another site whose name was rebound to 127.0.0.1
still sends its own name, and is refused. Listening beyond this machine (`--host` elsewhere,
with `--allow-network`) has no such check, since people reach it by any name; instead every
request needs the login token that the printed URL carries once (`?login=…`), after which a
cookie for this server holds it.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from ..messages import say
from ..user.loopback import is_loopback_host

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOGIN_PARAM = "login"
LOGIN_COOKIE = "webnovel_login"


def new_login_token() -> str:
    return secrets.token_urlsafe(24)


# One host as RFC 9110 writes it, and nothing else: a name or IPv4 address (letters, digits,
# `.`, `-`, `_`, `~`; 0x7f.1 too) or a bracketed IPv6 address, then at most a port. A list
# (`127.0.0.1:8765, evil.com`), a space, a tab or any other character makes it no host at all:
# read loosely, the part before the comma or the tab passed for loopback.
_ONE_HOST = re.compile(
    r"(?:\[(?P<v6>[0-9A-Fa-f:.]+(?:%(?:25)?[A-Za-z0-9._~-]+)?)\]|(?P<name>[A-Za-z0-9._~-]+))"
    r"(?::[0-9]{1,5})?"
)


def host_name(host_header: str) -> str:
    """The name in a Host header, without its port: `[::1]:8765` → `::1`, `a:80` → `a`; ""
    for a header that is not exactly one host."""
    found = _ONE_HOST.fullmatch(host_header)
    if found is None:
        return ""
    return found.group("v6") or found.group("name")


class AccessGuard:
    """ASGI middleware: a loopback Host (when `login_token` is None) or the login token."""

    def __init__(self, app: ASGIApp, login_token: str | None = None) -> None:
        self.app = app
        self.login_token = login_token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # the dashboard has none
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if self.login_token is None:
            if not is_loopback_host(host_name(headers.get("host", ""))):
                await _answer(send, 400, say("dashboard_host_not_local"))
                return
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        pairs = parse_qsl(query, keep_blank_values=True)
        offered = next((v for k, v in pairs if k == LOGIN_PARAM), None)
        if offered is not None and self._valid(offered):
            rest = urlencode([(k, v) for k, v in pairs if k != LOGIN_PARAM])
            cookie = f"{LOGIN_COOKIE}={self.login_token}; Path=/; HttpOnly; SameSite=Strict"
            location = quote(scope.get("path", "/")) + (f"?{rest}" if rest else "")
            await _answer(send, 303, "", [("location", location), ("set-cookie", cookie)])
            return
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is just no login
            jar = SimpleCookie()
        held = jar.get(LOGIN_COOKIE)
        if held is None or not self._valid(held.value):
            await _answer(send, 401, say("dashboard_login_needed"))
            return
        await self.app(scope, receive, send)

    def _valid(self, offered: str) -> bool:
        assert self.login_token is not None
        return hmac.compare_digest(offered.encode(), self.login_token.encode())


async def _answer(
    send: Send, status: int, message: str, extra: list[tuple[str, str]] | None = None
) -> None:
    body = message.encode("utf-8")
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        *((k.encode("latin-1"), v.encode("latin-1")) for k, v in extra or ()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
