"""Where a book's memory lives: the embedded SQLite file (the default), or a book in a shared
PostgreSQL store, named by the `[store]` table of `.webnovel/config.toml`:

    [store]
    url = "postgresql://writer@db.studio.lan:5432/novels?sslmode=verify-full"
    book = "青云志"
    password_env = "NOVELS_DB_PASSWORD"   # optional; else PGPASSWORD or ~/.pgpass

The config is meant to be shared (a team keeps it in git), so it never holds a password: a URL
with one is refused, and the password comes the ways libpq knows (PGPASSWORD, .pgpass, client
certificates through sslmode) or from the environment variable `password_env` names. A book's
config may come from anyone: what its URL may make libpq do is url_trust's to say.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ...errors import InvalidConfig
from ...messages import say

SCHEMES = ("postgresql", "postgres")
_BOOK_NAME = re.compile(r"^[^\x00-\x1f/\\]{1,60}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class StoreLocation:
    """A book in a PostgreSQL store: the server's URL (no password), the book's name there."""

    url: str
    book: str
    password_env: str | None = None
    # the book's config.toml the URL was read from; None: the user typed it (url_trust)
    config: Path | None = None

    def shown(self) -> str:
        """The URL as it may be printed: it never holds a password (see `parse_store_url`)."""
        return f"{self.url}#{self.book}"

    def connect_options(self) -> dict[str, Any]:
        """psycopg.connect's arguments: the URL, the password `password_env` names, and what
        keeps a book's choice of URL from the user's files and secrets (url_trust)."""
        from .url_trust import connection_options

        return connection_options(self.url, self.password_env, self.config)


def parse_store_url(url: str, where: str = "--store") -> str:
    """Check a PostgreSQL URL: the scheme, a host or socket, and no password in it."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise InvalidConfig.of(
            "store_url_invalid", where=where, url=_without_password(url), error=exc
        ) from exc
    if parts.scheme not in SCHEMES:
        raise InvalidConfig.of("store_url_scheme", where=where, url=_without_password(url))
    # libpq reads the query after the first `?`, even past a `#` Python takes for a fragment
    if parts.password is not None or _query_password(url.partition("?")[2]):
        raise InvalidConfig.of("store_url_password", where=where)
    return url


def _query_password(query: str) -> bool:
    """Whether a URL's parameters carry a password (libpq reads `?password=` too)."""
    return any(key.strip().lower() == "password" for key, _ in parse_qsl(query, True))


def _without_password(url: str) -> str:
    try:
        parts = urlsplit(url)
        if parts.password is not None:
            netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
            parts = parts._replace(netloc=netloc)
        if _query_password(parts.query):
            shown = [
                (key, "***" if key.strip().lower() == "password" else value)
                for key, value in parse_qsl(parts.query, True)
            ]
            parts = parts._replace(query=urlencode(shown, safe="*"))
        return urlunsplit(parts)
    except ValueError:
        return say("store_url_unparsable")


def check_book_name(book: str, where: str = "--book") -> str:
    if not isinstance(book, str) or not _BOOK_NAME.match(book):
        raise InvalidConfig.of("store_book_name", where=where, book=book)
    return book


def parse_store_section(
    section: Any, where: str = "config.toml [store]", config: Path | None = None
) -> StoreLocation | None:
    """The `[store]` table as a location; None when the book is the embedded SQLite file.
    `config`: the book's config.toml it was read from (None: the user typed it)."""
    if section is None:
        return None
    if not isinstance(section, dict):
        raise InvalidConfig.of("store_table", where=where)
    unknown = sorted(set(section) - {"url", "book", "password_env"})
    if unknown:
        raise InvalidConfig.of("store_unknown_keys", where=where, keys=", ".join(unknown))
    url = section.get("url")
    if url is None:
        raise InvalidConfig.of("store_no_url", where=where)
    for key in ("url", "book"):
        if key in section and not isinstance(section[key], str):
            raise InvalidConfig.of("store_key_string", where=where, key=key)
    password_env = section.get("password_env")
    if password_env is not None and (
        not isinstance(password_env, str) or not _ENV_NAME.match(password_env)
    ):
        raise InvalidConfig.of("store_password_env_name", where=where, name=password_env)
    if password_env is not None and not password_env.upper().endswith("PASSWORD"):
        # A book folder comes from anyone: it must not send the user's API key
        # (OPENAI_API_KEY…) to the host its url names as if it were the store's password.
        raise InvalidConfig.of("store_password_env_kind", where=where, name=password_env)
    return StoreLocation(
        parse_store_url(url, f"{where} url"),
        check_book_name(section.get("book", ""), f"{where} book"),
        password_env,
        config,
    )


def render_store_section(location: StoreLocation) -> str:
    """The `[store]` table `init --store` appends to config.toml."""
    lines = [
        "",
        "[store]                                   # this book lives in a shared PostgreSQL store",
        f"url = {_toml_string(location.url)}",
        f"book = {_toml_string(location.book)}",
    ]
    if location.password_env:
        lines.append(f"password_env = {_toml_string(location.password_env)}")
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def find_store_location(config_path: Path) -> StoreLocation | None:
    """The location `config.toml` names (None: the embedded SQLite file, or no config). Read
    after `load_config` has vouched for the file's TOML."""
    try:
        data = tomllib.loads(config_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return parse_store_section(data.get("store"), config=config_path)
