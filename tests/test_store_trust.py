"""A received book folder's `[store]` may name any server. The user's password from the
environment (PGPASSWORD, or the variable `password_env` names) goes only to a server the user
chose: this machine, one whose URL the user typed, or one in the user config's `[stores]
trusted`. Refused before any connection is tried; no server is needed for these tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import webnovel
from webnovel.errors import InvalidConfig, StoreUnavailable

from cli_runner import run_cli

STRANGER = "db.example.invalid"  # resolves nowhere, at once


def _received(tmp_path: Path, url: str, password_env: str | None = None) -> Path:
    folder = tmp_path / "received"
    (folder / ".webnovel").mkdir(parents=True)
    extra = f'password_env = "{password_env}"\n' if password_env else ""
    (folder / ".webnovel" / "config.toml").write_text(
        f'[store]\nurl = "{url}"\nbook = "青云志"\n{extra}', encoding="utf-8"
    )
    return folder


@pytest.mark.parametrize(
    ("url", "where"),
    [
        (f"postgresql://writer@{STRANGER}/novels", f"{STRANGER}:5432"),
        (f"postgresql://writer@{STRANGER}:6001/novels", f"{STRANGER}:6001"),
        # a loopback port other than PostgreSQL's own: anyone on the machine may listen there
        ("postgresql://writer@127.0.0.1:6001/novels", "127.0.0.1:6001"),
        # libpq asks DNS for a subdomain of localhost, which a hostile network answers
        ("postgresql://writer@evil.localhost/novels", "evil.localhost:5432"),
        # a socket in a folder the book names is anyone's too
        ("postgresql://writer@%2Ftmp%2Fsomeone/novels", "/tmp/someone:5432"),
    ],
)
def test_the_environment_s_password_never_goes_to_a_book_s_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, where: str
) -> None:
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    with pytest.raises(InvalidConfig, match="PGPASSWORD") as refused:
        webnovel.open_project(_received(tmp_path, url))
    assert where in str(refused.value) and "s3cret" not in str(refused.value)
    assert "webnovel books --store" in str(refused.value)


def test_nor_the_variable_the_book_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOVELS_DB_PASSWORD", "s3cret")
    folder = _received(tmp_path, f"postgresql://w@{STRANGER}/db", "NOVELS_DB_PASSWORD")
    with pytest.raises(InvalidConfig, match="NOVELS_DB_PASSWORD"):
        webnovel.open_project(folder)


def test_nor_a_connection_service_s_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service's entry in pg_service.conf may hold a password; the URL's host overrides its.
    A book may not name one (`?service=`: test_store_url_trust.py); the user's PGSERVICE
    goes to no host of a book's either."""
    monkeypatch.setenv("PGSERVICE", "prod")
    with pytest.raises(InvalidConfig, match="pg_service.conf"):
        webnovel.open_project(_received(tmp_path / "env", f"postgresql://w@{STRANGER}/db"))


def test_a_server_the_user_chose_is_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"postgresql://writer@{STRANGER}/novels"
    folder = _received(tmp_path, url)
    with pytest.raises(StoreUnavailable):  # no password in the environment: nothing to guard
        webnovel.open_project(folder)
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    with pytest.raises(InvalidConfig):
        webnovel.open_project(folder)
    typed = run_cli("books", "--store", url)  # the user typed it: their password may go there
    assert typed.returncode == 1 and "连不上书库" in typed.stderr
    with pytest.raises(StoreUnavailable):
        webnovel.open_project(folder)


def test_a_server_in_the_user_config_or_this_machine_is_tried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    monkeypatch.setenv("PGPORT", "1")  # the user's own port: refused at once, on this machine
    with pytest.raises(StoreUnavailable):
        webnovel.open_project(_received(tmp_path / "local", "postgresql://w@127.0.0.1/db"))
    with pytest.raises(StoreUnavailable):
        webnovel.open_project(_received(tmp_path / "named", "postgresql://w@localhost:1/db"))
    user_config = Path(os.environ["XDG_CONFIG_HOME"]) / "webnovel" / "config.toml"
    user_config.parent.mkdir(parents=True, exist_ok=True)
    user_config.write_text(f'[stores]\ntrusted = ["{STRANGER}"]\n', encoding="utf-8")
    with pytest.raises(StoreUnavailable):
        webnovel.open_project(_received(tmp_path, f"postgresql://w@{STRANGER}/db"))


def test_without_the_postgresql_extra_the_author_is_told_what_to_install(tmp_path: Path) -> None:
    """psycopg is an extra: a process without it gets the pip line, not a traceback."""
    code = (
        "import sys; sys.modules['psycopg'] = None\n"  # as if the extra were not installed
        "from webnovel.cli.main import main\n"
        f"raise SystemExit(main(['--project', {str(_received(tmp_path, 'postgresql://w@h/db'))!r},"
        " 'fact', 'x', 'realm']))"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "webnovel-memory[postgresql]" in ran.stderr


@pytest.mark.parametrize(
    "written", [f'"{STRANGER}:5432"', "[5432]", f'["{STRANGER}", 5432]', "{ host = 1 }"]
)
def test_a_trusted_list_written_wrongly_is_named_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    """Ignored, it would lead to the refusal that tells the user to add the host to `[stores]
    trusted`, which they did."""
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    user_config = Path(os.environ["XDG_CONFIG_HOME"]) / "webnovel" / "config.toml"
    user_config.parent.mkdir(parents=True, exist_ok=True)
    user_config.write_text(f"[stores]\ntrusted = {written}\n", encoding="utf-8")
    folder = _received(tmp_path, f"postgresql://w@{STRANGER}/db")
    with pytest.raises(InvalidConfig) as refused:
        webnovel.open_project(folder)
    said = str(refused.value)
    assert str(user_config) in said and '"主机:端口" 字符串的列表' in said
    assert "你还没有选用过它" not in said and "s3cret" not in said
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with pytest.raises(InvalidConfig, match='trusted must be a list of "host:port" strings'):
        webnovel.open_project(folder)
