"""How libpq reads a store URL: whether its driver is here, the servers a URL reaches and the
connection service it uses. Shared by the location (location.py) and the trust rules
(url_trust.py), which must read a URL exactly as libpq will."""

from __future__ import annotations

import os

from ...errors import InvalidConfig


def require_driver() -> None:
    """PostgreSQL's driver is an extra: without it, the author is told what to install."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise InvalidConfig.of("store_needs_driver") from exc


def connection_service(url: str) -> str | None:
    """The libpq connection service a URL uses (`?service=`, else PGSERVICE), if any."""
    require_driver()
    from psycopg.conninfo import conninfo_to_dict

    return str(conninfo_to_dict(url).get("service") or os.environ.get("PGSERVICE") or "") or None


def store_targets(url: str) -> list[str]:
    """Where a connection to `url` goes, as `host:port` for each server it names, read as
    libpq reads it (`?host=` and `?hostaddr=` override the URL's host). A local socket is
    its folder (`/var/run/postgresql`), an abstract one `@name`; no host at all is the user's
    own default (PGHOST, else libpq's socket folder), `localhost`. No port is the user's
    (PGPORT), else PostgreSQL's 5432."""
    require_driver()
    from psycopg.conninfo import conninfo_to_dict  # only on the way to a store

    given = conninfo_to_dict(url)
    hosts = str(given.get("hostaddr") or given.get("host") or "").split(",")
    ports = str(given.get("port") or "").split(",")
    targets = []
    for n, host in enumerate(hosts):
        port = (ports[n] if n < len(ports) else ports[-1]) or os.environ.get("PGPORT") or "5432"
        if host.startswith("/"):  # a socket's folder: one a book names may be anyone's
            host = host.rstrip("/") or "/"
        targets.append(f"{host or 'localhost'}:{port}")
    return targets
