"""A store that cannot be reached is explained in the author's language first, with libpq's
own English after it, in parentheses, for the DBA: a real closed port, a real host name that
resolves nowhere, and (with a server) a database and a user that are not there."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit, urlunsplit

import pytest

from webnovel.memory.store.pg.pg_unreachable import why_unreachable

from cli_runner import run_cli
from stores import NO_POSTGRES, POSTGRES_URL


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the block ends: refused


def test_a_closed_port_is_said_to_refuse_in_chinese_then_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"postgresql://writer@127.0.0.1:{_closed_port()}/novels"
    ran = run_cli("books", "--store", url)
    assert ran.returncode == 1
    said = ran.stderr.strip()
    assert said.startswith(f"错误：连不上书库 {url}：连接被拒绝：服务器没有运行，或端口不对（")
    assert "Connection refused" in said and said.endswith("）") and "\n" not in said
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    english = run_cli("books", "--store", url).stderr
    assert "connection refused: the server is not running, or the port is wrong (" in english


def test_a_host_that_resolves_nowhere_is_named_so() -> None:
    ran = run_cli("books", "--store", "postgresql://writer@nohost.invalid/novels")
    assert ran.returncode == 1
    assert "：无法解析主机名：主机名写错了，或本机连不上 DNS（" in ran.stderr
    assert "nohost.invalid" in ran.stderr


@pytest.mark.skipif(POSTGRES_URL is None, reason=NO_POSTGRES)
def test_a_database_or_a_user_the_server_lacks_is_named_so() -> None:
    parts = urlsplit(POSTGRES_URL or "")
    no_database = urlunsplit(parts._replace(path="/no_such_database"))
    no_user = urlunsplit(parts._replace(netloc="no_such_user@" + parts.netloc.split("@")[-1]))
    database = run_cli("books", "--store", no_database).stderr
    assert "服务器上没有这个数据库" in database and '"no_such_database" does not exist' in database
    user = run_cli("books", "--store", no_user).stderr
    assert "服务器上没有这个用户" in user and '"no_such_user" does not exist' in user


@pytest.mark.parametrize(
    ("said", "reason"),
    [  # what libpq 15 writes when the server asks for a password, or answers too late
        (
            'connection failed: connection to server at "10.0.0.5", port 5432 failed: FATAL:  '
            'password authentication failed for user "writer"',
            "密码验证失败：用户名或密码不对",
        ),
        (
            'connection failed: connection to server at "10.0.0.5", port 5432 failed: '
            "fe_sendauth: no password supplied",
            "服务器要求密码，但没有提供",
        ),
        ("connection timeout expired", "连接超时"),
        (
            'connection failed: connection to server at "10.0.0.5", port 5432 failed: FATAL:  '
            'no pg_hba.conf entry for host "10.0.0.9", user "writer", database "novels", no '
            "encryption",
            "pg_hba.conf 里没有相应条目",
        ),
    ],
)
def test_each_reason_comes_first_and_libpq_s_words_after_it(said: str, reason: str) -> None:
    shown, one_line = why_unreachable(said), " ".join(said.split())
    assert shown.endswith("（" + one_line + "）")
    assert reason in shown.removesuffix("（" + one_line + "）")


def test_words_of_libpq_the_table_does_not_know_are_shown_as_they_are() -> None:
    assert why_unreachable("SSL error: \n\tcertificate verify failed") == (
        "SSL error: certificate verify failed"
    )
