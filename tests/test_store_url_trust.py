"""A received book's `[store] url` is handed to libpq, which reads much more than an address
from it: files to read (`passfile`, `sslcert`, `servicefile` …), a file to write
(`sslkeylogfile`), another host, a weaker TLS. From a book only harmless parameters pass; the
user's own URL (typed, or listed whole in their config) keeps the rest. A password — from the
environment or `~/.pgpass` — goes to no server the user did not choose, and never in clear on
a book's URL (docs/security.md). A hostile server on a loopback port (pg_listener.py) stands in
for whoever listens there, and records each connection and password."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidConfig, StoreUnavailable

from cli_runner import run_cli
from pg_listener import HostileServer
from stores import NO_POSTGRES, POSTGRES_URL, book_name, init_book

pytest.importorskip("psycopg")


@pytest.fixture(autouse=True)
def _no_postgresql_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PGPASSWORD", "PGPASSFILE", "PGPORT", "PGHOST", "PGSERVICE", "PGSSLMODE"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[HostileServer]:
    with HostileServer() as listening:
        yield listening


def _received(tmp_path: Path, url: str) -> Path:
    folder = tmp_path / "received"
    (folder / ".webnovel").mkdir(parents=True)
    (folder / ".webnovel" / "config.toml").write_text(
        f'[store]\nurl = "{url}"\nbook = "青云志"\n', encoding="utf-8"
    )
    return folder


def _user_config(text: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "webnovel" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "parameter",
    [
        "passfile={other}",
        "sslkeylogfile={written}",
        "sslcert={other}",
        "sslkey={other}",
        "sslrootcert={other}",
        "sslcrl={other}",
        "servicefile={other}",
        "service=prod",
        "host=192.0.2.7",
        "hostaddr=192.0.2.7",
        "sslmode=disable",
        "sslmode=allow",
        "channel_binding=disable",
        "require_auth=password",
        "gssdelegation=1",
        "oauth_issuer=https://192.0.2.7",
        "requirepeer=postgres",
        "nonsense=1",  # no parameter of libpq's: named, not a traceback
    ],
)
def test_a_book_s_url_may_not_name_files_hosts_or_weaker_security(
    tmp_path: Path, server: HostileServer, parameter: str
) -> None:
    other = tmp_path / "other-pgpass"
    other.write_text("*:*:*:*:SECRET-FROM-OTHER-FILE\n", encoding="utf-8")
    other.chmod(0o600)
    written = tmp_path / "keylog.txt"
    given = parameter.format(other=other, written=written)
    # libpq reads a query after a `#` too, where Python's URL parser sees a fragment
    for n, query in enumerate([f"?{given}", f"#?{given}", f"?application_name=x&{given}"]):
        url = f"postgresql://u@127.0.0.1:{server.port}/db{query}"
        folder = _received(tmp_path / str(n), url)
        refused = run_cli("--project", str(folder), "status")
        assert refused.returncode == 2, refused.stderr
        assert given in refused.stderr and "已拒绝，没有连接任何服务器" in refused.stderr
        assert str(folder / ".webnovel" / "config.toml") in refused.stderr
        assert server.connections == 0 and not written.exists()


def test_the_user_s_own_url_keeps_its_parameters(tmp_path: Path, server: HostileServer) -> None:
    """Typed once (`books --store`) or listed whole in `[stores] trusted`, the URL is the
    user's: a book's config holding it exactly opens with it."""
    harmless = (
        f"postgresql://u@127.0.0.1:{server.port}/db?sslmode=verify-full&sslrootcert=system"
        "&application_name=webnovel&connect_timeout=5&target_session_attrs=any"
    )
    with pytest.raises(StoreUnavailable):  # a book may say these: it is tried
        webnovel.open_project(_received(tmp_path / "harmless", harmless))
    assert server.connections == 1 and server.passwords == []
    url = f"postgresql://u@127.0.0.1:{server.port}/db?sslmode=disable&keepalives=1"
    folder = _received(tmp_path, url)
    with pytest.raises(InvalidConfig, match="sslmode=disable"):
        webnovel.open_project(folder)
    assert server.connections == 1
    typed = run_cli("books", "--store", url)
    assert typed.returncode == 1 and "连不上书库" in typed.stderr
    with pytest.raises(StoreUnavailable):
        webnovel.open_project(folder)
    listed = url.replace("keepalives=1", "keepalives=0")
    other = _received(tmp_path / "listed", listed)
    with pytest.raises(InvalidConfig, match="sslmode=disable"):
        webnovel.open_project(other)
    _user_config(f'[stores]\ntrusted = ["{listed}"]\n')
    with pytest.raises(StoreUnavailable):
        webnovel.open_project(other)


def test_pgpass_is_not_read_for_a_server_the_user_did_not_choose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `*` line in the user's password file matches every host: libpq would answer the
    book's server with it (here, one that asks for its md5 hash)."""
    with HostileServer(ask="md5") as server:
        _pgpass_stays_home(tmp_path, monkeypatch, server)


def _pgpass_stays_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: HostileServer
) -> None:
    pgpass = tmp_path / "pgpass"
    pgpass.write_text("*:*:*:*:SECRET-USERS-PGPASS\n", encoding="utf-8")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))  # what ~/.pgpass is, named where a test can
    folder = _received(tmp_path, f"postgresql://u@127.0.0.1:{server.port}/db")
    opened = run_cli("--project", str(folder), "status")
    assert opened.returncode == 1 and "你还没有选用过这台服务器" in opened.stderr
    assert server.connections >= 1 and server.passwords == []
    typed = run_cli("books", "--store", f"postgresql://u@127.0.0.1:{server.port}/db")
    assert typed.returncode == 1  # the user chose it: their password file is theirs to use
    secret = hashlib.md5(b"SECRET-USERS-PGPASSu").hexdigest()
    assert server.passwords == ["md5" + hashlib.md5(secret.encode() + b"salt").hexdigest()]


def test_a_password_never_goes_in_clear_on_a_book_s_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: HostileServer
) -> None:
    """The user's own port (PGPORT) on this machine may have their PGPASSWORD; a server there
    asking for it in clear on a book's URL gets nothing."""
    monkeypatch.setenv("PGPASSWORD", "SECRET-PGPASSWORD")
    monkeypatch.setenv("PGPORT", str(server.port))
    folder = _received(tmp_path, "postgresql://u@127.0.0.1/db")
    opened = run_cli("--project", str(folder), "status")
    assert opened.returncode == 1 and "服务器要求以明文发送密码，已拒绝" in opened.stderr
    assert server.connections >= 1 and server.passwords == []
    assert "SECRET" not in opened.stderr


def test_the_environment_s_password_goes_to_no_other_local_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: HostileServer
) -> None:
    """On a shared machine anyone may listen on a high local port: a book naming one gets no
    connection while PGPASSWORD is set, until the user names the port themselves."""
    monkeypatch.setenv("PGPASSWORD", "SECRET-PGPASSWORD")
    url = f"postgresql://u@127.0.0.1:{server.port}/db"
    refused = run_cli("--project", str(_received(tmp_path, url)), "status")
    assert refused.returncode == 2 and f"127.0.0.1:{server.port}" in refused.stderr
    assert "你还没有选用过它" in refused.stderr and server.connections == 0
    _user_config(f'[stores]\ntrusted = ["localhost:{server.port}"]\n')  # any spelling of here
    tried = run_cli("--project", str(_received(tmp_path / "again", url)), "status")
    assert tried.returncode == 1 and server.connections >= 1


@pytest.mark.skipif(POSTGRES_URL is None, reason=NO_POSTGRES)
def test_a_received_book_on_a_real_server_opens_with_its_guards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A book made by someone else (the user never typed its URL): libpq is told to read no
    password file, send no certificate and refuse a password in clear, and a server that
    needs none of them still serves it."""
    assert POSTGRES_URL is not None
    with init_book("postgresql", tmp_path / "book", book=book_name()) as made:
        made.commit({"chapter": 1, "summary": "林砚下山。"})
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "another-user"))
    with webnovel.open_project(tmp_path / "book") as received:
        assert received.latest_chapter() == 1
