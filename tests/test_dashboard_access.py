"""Who may read the dashboard, against the real server the CLI starts: every spelling of loopback
keeps the Host allow-list (no DNS rebinding), and listening beyond this machine takes an
explicit flag and then a login token."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from cli_runner import run_cli  # noqa: E402
from dashboard_server import Answer, Running, build_sample_book  # noqa: E402


@pytest.fixture(scope="module")
def sample_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_book(tmp_path_factory.mktemp("access") / "book")


@contextmanager
def dashboard_process(root: Path, *args: str) -> Iterator[tuple[str, str]]:
    """`webnovel dashboard ARGS --port 0` as a process; yields (printed URL, stderr so far).
    On leaving, the process is stopped and its whole stderr must hold no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "webnovel", "--project", str(root), "dashboard", "--port", "0"]
        + list(args),
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    try:
        said = ""
        assert proc.stderr is not None
        while "记忆面板" not in said:
            line = proc.stderr.readline()
            assert line, f"the dashboard stopped: {said}"
            said += line
        found = re.search(r"(http://\S+?)（", said)
        assert found is not None, said
        yield found.group(1), said
    finally:
        proc.terminate()
        _, rest = proc.communicate(timeout=10)
    assert "Traceback" not in rest, rest


def fetch(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> Answer:
    """One request to a full URL, redirects not followed."""
    return Running("", Path()).request(method, url, headers=headers)


@pytest.mark.parametrize("host", ["127.1", "127.0.0.2", "LOCALHOST"])
def test_every_loopback_spelling_keeps_the_host_allow_list(sample_root: Path, host: str) -> None:
    with dashboard_process(sample_root, "--host", host) as (url, _):
        port = url.rsplit(":", 1)[1].strip("/")
        assert fetch(url).status == 200
        rebound = {"Host": f"rebind.attacker.example:{port}"}
        assert fetch(url, rebound).status == 400
        assert fetch(url + "api/seq", rebound).status == 400
        resolve = url + "conflicts/x/resolve"
        posted = {**rebound, "Origin": "http://rebind.attacker.example"}
        assert fetch(resolve, posted, "POST").status == 400
        assert fetch(url, {"Host": f"127.0.0.1:{port}"}).status == 200


def test_another_address_needs_an_explicit_flag() -> None:
    ran = run_cli("dashboard", "--host", "0.0.0.0", "--port", "0")
    assert ran.returncode == 2
    assert "--allow-network" in ran.stderr and "0.0.0.0" in ran.stderr


def test_beyond_this_machine_every_visitor_needs_the_login_token(sample_root: Path) -> None:
    with dashboard_process(sample_root, "--host", "0.0.0.0", "--allow-network") as (url, said):
        assert "登录令牌" in said
        token = re.search(r"\?login=([\w-]+)", url)
        assert token is not None
        port = url.split(":")[2].split("/")[0]
        here = f"http://127.0.0.1:{port}/"
        assert fetch(here).status == 401
        assert fetch(here + "api/seq").status == 401
        assert fetch(here + "?login=wrong").status == 401
        assert fetch(here, {"Cookie": "webnovel_login=wrong"}).status == 401
        entered = fetch(here + "characters?login=" + token.group(1) + "&as_of=3")
        assert entered.status == 303
        assert entered.headers["location"] == "/characters?as_of=3"
        cookie = entered.headers["set-cookie"].split(";")[0]
        assert "HttpOnly" in entered.headers["set-cookie"]
        assert fetch(here + "characters?as_of=3", {"Cookie": cookie}).status == 200
        assert fetch(here + "api/seq", {"Cookie": cookie, "Host": "any.name:1"}).status == 200


ODD_IDS = ["a/b", "x?y=1", "h#1", "../up", "百分%20号", "sp ace"]


def test_links_to_ids_holding_url_syntax_open_their_pages(tmp_path: Path) -> None:
    import html
    import urllib.parse

    import webnovel

    from dashboard_server import running_dashboard

    root = tmp_path / "odd"
    with webnovel.init_project(root, title="怪名") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [{"id": i, "name": f"人{n}"} for n, i in enumerate(ODD_IDS)],
                "plot_threads": [
                    {"id": i, "content": f"线{n}", "action": "plant", "due_chapter": 1}
                    for n, i in enumerate(ODD_IDS)
                ],
            }
        )
        book.commit({"chapter": 3, "summary": "过了两章。"})
    with running_dashboard(root) as board:
        for listing, kind, label in (
            ("/characters", "characters", "人"),
            ("/threads", "threads", "线"),
            ("/chapters/1", "threads", "线"),  # the threads a chapter touched
        ):
            page = board.get(listing).body
            links = sorted({html.unescape(h) for h in re.findall(rf'href="(/{kind}/[^"]+)"', page)})
            assert len(links) == len(ODD_IDS), links
            for link in links:
                opened = board.get(link)
                assert opened.status == 200, (link, opened.body[:300])
                ident = urllib.parse.unquote(link.split("/", 2)[2].split("?")[0])
                assert f"{label}{ODD_IDS.index(ident)}" in opened.body


def test_a_visitor_leaving_mid_post_leaves_no_traceback(sample_root: Path) -> None:
    import socket

    with dashboard_process(sample_root) as (url, _):
        port = int(url.rsplit(":", 1)[1].strip("/"))
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.sendall(
                    f"POST /conflicts/c-1/resolve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\n"
                    "Content-Length: 5000\r\n\r\ntoken=abc&note=".encode()
                )
        huge = fetch(url + "conflicts/c-1/resolve", {"Content-Type": "text/plain"}, "POST")
        assert huge.status in (403, 404)  # a bad token, an unknown conflict: answered
        assert fetch(url).status == 200


@pytest.mark.parametrize(
    ("language", "token", "host", "said"),
    [
        ("zh", None, "evil.example", "Host 不是本机"),
        ("en", None, "evil.example", "the Host is not this machine"),
        ("zh", "t0ken", "127.0.0.1", "需要登录"),
        ("en", "t0ken", "127.0.0.1", "login needed"),
    ],
)
def test_the_door_refuses_in_the_language_asked_for(
    monkeypatch: pytest.MonkeyPatch, language: str, token: str | None, host: str, said: str
) -> None:
    """The guard's refusals come from the catalogue, said per request."""
    import asyncio

    from webnovel.dashboard.access import AccessGuard

    async def never(scope: object, receive: object, send: object) -> None:
        raise AssertionError("a refused request reached the page")

    sent: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b""}

    monkeypatch.setenv("WEBNOVEL_LANG", language)
    scope = {
        "type": "http",
        "path": "/",
        "query_string": b"",
        "headers": [(b"host", host.encode())],
    }
    asyncio.run(AccessGuard(never, login_token=token)(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == (401 if token else 400)
    body = sent[1]["body"]
    assert isinstance(body, bytes) and said in body.decode("utf-8")
