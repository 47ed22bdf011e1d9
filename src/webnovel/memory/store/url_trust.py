"""What a store URL may make libpq do, by who chose it (docs/security.md).

libpq reads much more than a server's address from a URL: `passfile=` reads any file of the
user's and sends the password in it to the URL's host, `sslkeylogfile=` writes TLS secrets into
any file the user can write, `sslcert`, `sslkey`, `sslrootcert`, `sslcrl`, `servicefile` and
`service` read files, `sslmode=disable` lets a server ask for the password in clear. A book
folder's `[store] url` comes from whoever sent the book, so:

- its parameters are an allow-list (`BOOK_PARAMETERS`): the connection's name, timeouts,
  keepalives, session attributes, and TLS only made stricter. Anything else is refused before a
  connection is tried, naming the parameter and the config file. A URL the user typed
  (`init --store`, `copy --store`, `books --store`, remembered in their state folder) or listed
  whole in their config (`[stores] trusted`) is theirs: any parameter but a password.
- a password from the environment, a connection service or `~/.pgpass` goes only to servers
  the user chose: typed or listed, or this machine at PostgreSQL's own port (5432, PGPORT, or a
  local port the user typed) and its usual socket folders. On a shared machine any user may
  listen on another local port. For any other server libpq is told to read no password file
  (`passfile`) and send no client certificate (`sslcertmode`).
- a password never goes in clear on a URL the user did not type: libpq refuses a server asking
  for one (`require_auth=!password`, libpq 16 and later).
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from ...errors import InvalidConfig, StoreUnavailable
from ...messages import say
from .libpq_reading import connection_service, store_targets

# URL parameters a book may set: none names a file, a host, a password or a weaker TLS.
BOOK_PARAMETERS = frozenset(
    {
        "dbname",
        "user",
        "port",
        "application_name",
        "fallback_application_name",
        "connect_timeout",
        "client_encoding",
        "options",  # session settings for the server (-c search_path=…)
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "tcp_user_timeout",
        "target_session_attrs",
        "load_balance_hosts",
        "sslmode",  # only STRICT_SSLMODES
        "sslnegotiation",
        "sslcompression",
        "sslsni",
        "ssl_min_protocol_version",
        "ssl_max_protocol_version",
        "min_protocol_version",
        "max_protocol_version",
        "channel_binding",  # not "disable"
        "sslrootcert",  # only "system": the machine's CA store, no file the book names
    }
)
STRICT_SSLMODES = ("prefer", "require", "verify-ca", "verify-full")
_ONLY = {
    "sslmode": STRICT_SSLMODES,
    "channel_binding": ("prefer", "require"),
    "sslrootcert": ("system",),
}
# A file that cannot exist (a path under /dev/null): libpq then reads no password file at all,
# silently (a missing file is skipped; /dev/null itself would draw a warning on stderr).
NO_PASSWORD_FILE = "/dev/null/webnovel-reads-no-pgpass"
POSTGRESQL_PORT = "5432"
SOCKET_FOLDERS = ("/var/run/postgresql", "/run/postgresql", "/tmp")  # a local server's own


def connection_options(url: str, password_env: str | None, config: Path | None) -> dict[str, Any]:
    """psycopg.connect's arguments for a store's `url` (read from the book's `config`, or None:
    typed by the user just now, theirs whole): the URL, the password `password_env` names, and
    what keeps a book's choice from reaching the user's files and secrets."""
    from ...user.config import stores_chosen

    servers, urls = stores_chosen() if config is not None else (set(), set())
    url_is_the_users = config is None or url in urls
    if not url_is_the_users:
        assert config is not None
        # before libpq reads the URL for its servers: a parameter it does not know is named
        refuse_book_parameters(url, config)
    unchosen = [] if config is None else unchosen_servers(url, servers, urls)
    refuse_a_password_to_a_book_s_host(unchosen, password_env, connection_service(url))
    options: dict[str, Any] = {"conninfo": url}
    if password_env:
        password = os.environ.get(password_env)
        if password is None:
            raise StoreUnavailable.of("store_password_unset", url=url, name=password_env)
        options["password"] = password
    recent = _libpq_version() >= 160000  # sslcertmode and require_auth came in libpq 16
    if unchosen:
        options["passfile"] = NO_PASSWORD_FILE
        if recent:
            options["sslcertmode"] = "disable"
    if not url_is_the_users and recent:
        options["require_auth"] = "!password"
    return options


def unchosen_servers(url: str, servers: set[str], urls: set[str]) -> list[str]:
    """The servers `url` reaches (`host:port`) that the user did not choose: not typed or
    listed by them (`servers`, and those of the URLs they listed), and not this machine at a
    port of theirs (5432, PGPORT, or a local port they typed or listed)."""
    import psycopg

    chosen = set(servers)
    for listed in urls:
        with suppress(psycopg.Error, InvalidConfig):  # a URL libpq cannot read names no server
            chosen |= set(store_targets(listed))
    local_ports = {POSTGRESQL_PORT, os.environ.get("PGPORT") or POSTGRESQL_PORT}
    for server in chosen:
        host, _, port = server.rpartition(":")
        if port.isdigit() and _is_local(host):
            local_ports.add(port)
    return [target for target in store_targets(url) if not _chosen(target, chosen, local_ports)]


def _chosen(target: str, servers: set[str], local_ports: set[str]) -> bool:
    host, _, port = target.rpartition(":")
    if target in servers or host in servers or host.strip("[]") in servers:
        return True
    return _is_local(host) and port in local_ports


def _is_local(host: str) -> bool:
    """This machine: a loopback address or `localhost` (also a socket in libpq's default
    folder, `store_targets`), or a socket in a local server's own folder. Not a socket in a
    folder the book names, which anyone may have made."""
    from ...user.loopback import is_loopback_host

    return bool(host) and (is_loopback_host(host) or host in SOCKET_FOLDERS)


def refuse_book_parameters(url: str, config: Path) -> None:
    """Refuse a book's URL whose parameters are not all on the allow-list, naming each one and
    the config file; nothing is connected to."""
    refused = [
        f"{key}={'***' if key == 'password' else value}"  # never printed, even a book's
        for key, value in _parameters_libpq_reads(url, config)
        if not (key in BOOK_PARAMETERS and value in _ONLY.get(key, (value,)))
    ]
    if refused:
        allowed_list = ", ".join(
            f"{key}({'/'.join(_ONLY[key])})" if key in _ONLY else key
            for key in sorted(BOOK_PARAMETERS)
        )
        raise InvalidConfig.of(
            "store_book_parameter",
            config=config,
            parameters=say("argument_list_separator").join(refused),
            allowed=allowed_list,
            path=_user_config_path(),
        )


def _parameters_libpq_reads(url: str, config: Path) -> list[tuple[str, str]]:
    """The parameters libpq takes from the URL's query, read as libpq reads them: everything
    after the first `?`, a `#` included (Python's URL parser would take `db#?passfile=…` for a
    fragment and see no query at all). A parameter libpq does not know is named too."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    query = url.split("?", 1)[1] if "?" in url else ""
    try:
        given = conninfo_to_dict(url)
        address = conninfo_to_dict(url.split("?", 1)[0])  # host, port, user, database
    except psycopg.ProgrammingError as exc:  # an unknown or malformed parameter
        listed = parse_qsl(query, keep_blank_values=True)
        if any(key not in BOOK_PARAMETERS for key, _ in listed):
            return listed
        raise InvalidConfig.of(
            "store_url_invalid", where=f"{config} [store] url", url=url, error=exc
        ) from exc
    return [(key, str(value)) for key, value in given.items() if address.get(key) != value]


def refuse_a_password_to_a_book_s_host(
    unchosen: list[str], password_env: str | None, service: str | None = None
) -> None:
    """A password from the environment (PGPASSWORD, or the variable `password_env` names) or
    from a connection service's file (pg_service.conf, which the URL's host overrides) goes
    only to servers the user chose; a book naming another (`unchosen`, from
    `unchosen_servers`) is refused, naming it and where the password would have come from."""
    if not unchosen:
        return
    if password_env and os.environ.get(password_env) is not None:
        source = say("environment_variable", name=password_env)
    elif os.environ.get("PGPASSWORD") is not None:
        source = say("environment_variable", name="PGPASSWORD")
    elif service:
        source = say("service_file", service=service)
    else:
        return
    raise InvalidConfig.of(
        "store_not_chosen", target=unchosen[0], source=source, path=_user_config_path()
    )


def _user_config_path() -> Path:
    from ...user.config import user_config_path

    return user_config_path()


def _libpq_version() -> int:
    import psycopg

    return int(psycopg.pq.version())
