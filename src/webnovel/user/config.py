"""Where text and keys may go is the user's decision, never a book's.

A book folder may come from a stranger, so its `.webnovel/config.toml` may choose a model, prices,
concurrency, and *name* one of the user's endpoints; it may not name a URL or the environment
variable a key is read from. Those live only with the user:

- the user config, `$XDG_CONFIG_HOME/webnovel/config.toml` (default
  `~/.config/webnovel/config.toml`)::

      [endpoints.deepseek]                  # any name; a book refers to it by this name
      base_url = "https://api.deepseek.com/v1"
      api_key_env = "DEEPSEEK_API_KEY"      # the variable that holds the key (never the key)
      model = "deepseek-chat"               # optional default model

      [llm]                                 # defaults per purpose: "llm", "embed"
      endpoint = "deepseek"

- or the environment: `WEBNOVEL_LLM_BASE_URL`, `WEBNOVEL_LLM_API_KEY`, `WEBNOVEL_LLM_MODEL`, and
  the same with `EMBED` for embeddings.

Use from any code that calls a model::

    endpoint = resolve_endpoint("llm", book_section)   # book_section: the book's [llm] table
    httpx.post(endpoint.base_url + "/chat/completions", headers=endpoint.auth_headers(),
               json={"model": endpoint.model, ...}, follow_redirects=False)
    notice = first_use_notice(endpoint)                 # print it on stderr when not None

`resolve_endpoint` raises `InvalidConfig` (a Chinese message saying how to fix it) when the book
section names a URL or key variable, names an endpoint the user has not defined, or when nothing
is configured. Which endpoint wins: the `WEBNOVEL_<PURPOSE>_BASE_URL` variable, else the endpoint
the book names, else the user config's `[<purpose>] endpoint`. The model: `WEBNOVEL_<PURPOSE>_MODEL`,
else the book's `model`, else the user config's `[<purpose>] model`, else the endpoint's `model`.

A key only travels over https; plain http is allowed only to this machine (loopback), where
local servers run. Nothing here runs at import time; the environment and the files are read on
each call.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from ..errors import InvalidConfig
from ..messages import say
from ..untrusted import json_limits
from ..untrusted.toml_errors import toml_problem
from .loopback import is_loopback_host

Purpose = Literal["llm", "embed"]

PURPOSES: tuple[Purpose, ...] = ("llm", "embed")
MAX_USER_CONFIG_BYTES = 1_000_000

# Keys that would let a book decide where text goes or which secret travels with it.
BOOK_FORBIDDEN_KEYS = frozenset(
    {
        "base_url",
        "url",
        "api_base",
        "api_url",
        "endpoint_url",
        "host",
        "api_key",
        "api_key_env",
        "key_env",
        "key_variable",
        "headers",
    }
)

_BOOK_SECTION = {"llm": "[llm]", "embed": "[retrieval]"}


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible endpoint the user chose for one purpose.

    `base_url` is checked (https, or http on loopback). The key itself is never held here: it is
    read from the environment variable `key_variable` when a request is made (`auth_headers`),
    so printing or logging an Endpoint never shows it.
    """

    purpose: Purpose
    name: str  # the user's name for it, or "env" when it comes from WEBNOVEL_* variables
    base_url: str
    model: str | None
    key_variable: str | None  # None: the endpoint takes no key (a local server)
    source: str  # where the user configured it, for messages

    def api_key(self) -> str | None:
        """The key, read now from `key_variable`; None when the endpoint takes none."""
        if self.key_variable is None:
            return None
        value = os.environ.get(self.key_variable, "")
        if not value:
            raise InvalidConfig.of(
                "endpoint_key_unset",
                name=self.name,
                source=self.source,
                variable=self.key_variable,
            )
        return value

    def auth_headers(self) -> dict[str, str]:
        """`Authorization: Bearer …` when the endpoint takes a key, else nothing."""
        key = self.api_key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def describe(self) -> str:
        """One phrase naming the endpoint and where its key comes from (never the key)."""
        key = (
            say("endpoint_key_from", variable=self.key_variable)
            if self.key_variable
            else say("endpoint_keyless")
        )
        return say(
            "endpoint_described", name=self.name, url=self.base_url, key=key, source=self.source
        )


# -- paths -------------------------------------------------------------------------------------


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "webnovel"


def user_config_path() -> Path:
    """`$XDG_CONFIG_HOME/webnovel/config.toml`, default `~/.config/webnovel/config.toml`."""
    return user_config_dir() / "config.toml"


def user_state_dir() -> Path:
    """`$XDG_STATE_HOME/webnovel`, default `~/.local/state/webnovel`: per-user decisions."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "webnovel"


# -- the rule for URLs -------------------------------------------------------------------------


def checked_base_url(url: str, where: str) -> str:
    """`url` when text and a key may go there: https, or plain http to this machine only."""
    parts = urlsplit(url) if isinstance(url, str) else None
    if parts is not None and parts.hostname:
        if parts.scheme == "https":
            return url
        if parts.scheme == "http" and is_loopback_host(parts.hostname):
            return url
    raise InvalidConfig.of("base_url_not_https", where=where, url=url)


# -- what a book may say -----------------------------------------------------------------------


def book_refusal(purpose: Purpose, key: str, value: object) -> InvalidConfig:
    """The refusal of a book config key that would choose where text or a key goes."""
    section = _BOOK_SECTION[purpose]
    upper = purpose.upper()
    fix = say("book_fix_embedder") if key == "embedder" else say("book_fix_key", key=key)
    return InvalidConfig.of(
        "book_names_endpoint",
        section=section,
        key=key,
        value=value,
        path=user_config_path(),
        fix=fix,
        upper=upper,
    )


def check_book_section(purpose: Purpose, book_section: Mapping[str, Any] | None) -> str | None:
    """Refuse a book section that names a URL or a key variable; return the endpoint name it
    refers to (`endpoint = "NAME"`), or None."""
    if not book_section:
        return None
    for key, value in book_section.items():
        if key in BOOK_FORBIDDEN_KEYS:
            raise book_refusal(purpose, key, value)
        if isinstance(value, str) and "://" in value:
            raise book_refusal(purpose, key, value)
    name = book_section.get("endpoint")
    if name is None:
        return None
    if not isinstance(name, str) or not _is_endpoint_name(name):
        raise book_refusal(purpose, "endpoint", name)
    return name


def _is_endpoint_name(name: str) -> bool:
    return 0 < len(name) <= 64 and all(c.isalnum() or c in "-_." for c in name)


def refuse_a_model_shipped_with_the_book(spec: str | None, book_root: Path) -> None:
    """A local model (`st:PATH`) is code and weights the user installed; one inside the book's
    own folder arrived with the book, from whoever sent it, and is not loaded. Nor is a
    relative path (`st:../evil-model`): it is read from wherever the command runs, which is
    often the book's folder, and so names a model unpacked beside the book from its archive."""
    if not spec or not spec.startswith("st:"):
        return
    written = Path(spec[len("st:") :]).expanduser()
    if not written.is_absolute():
        raise InvalidConfig.of("model_path_relative", spec=spec)
    where = written.resolve()
    if where.is_relative_to(book_root.resolve()):
        raise InvalidConfig.of("model_in_book_folder", spec=spec)


# -- the user's side ---------------------------------------------------------------------------


def load_user_config() -> dict[str, Any]:
    """The user config as parsed TOML; an empty dict when there is none."""
    path = user_config_path()
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_USER_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InvalidConfig.of("user_config_unreadable", path=path, error=exc.strerror) from exc
    if len(raw) > MAX_USER_CONFIG_BYTES:
        raise InvalidConfig.of("user_config_too_big", path=path, limit=MAX_USER_CONFIG_BYTES)
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise InvalidConfig.of(
            "user_config_unparsable", path=path, error=toml_problem(exc)
        ) from exc


def _user_table(data: Mapping[str, Any], *names: str) -> dict[str, Any]:
    value: Any = data
    for name in names:
        value = value.get(name, {}) if isinstance(value, dict) else None
    if not isinstance(value, dict):
        raise InvalidConfig.of("user_config_table", path=user_config_path(), name=".".join(names))
    return value


def _optional_str(table: Mapping[str, Any], key: str, where: str) -> str | None:
    value = table.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidConfig.of("user_config_string", path=user_config_path(), key=f"{where}.{key}")
    return value


def _named_endpoint(
    purpose: Purpose, data: Mapping[str, Any], name: str, wanted_by: str
) -> tuple[str, str | None, str | None, str]:
    endpoints = _user_table(data, "endpoints")
    if name not in endpoints:
        raise InvalidConfig.of(
            "endpoint_undefined", wanted_by=wanted_by, name=name, path=user_config_path()
        )
    table = _user_table(data, "endpoints", name)
    where = f"[endpoints.{name}]"
    source = f"{user_config_path()} {where}"
    base_url = _optional_str(table, "base_url", where)
    if base_url is None:
        raise InvalidConfig.of("user_config_no_base_url", path=user_config_path(), where=where)
    key_variable = _optional_str(table, "api_key_env", where)
    if key_variable is not None and not key_variable.isidentifier():
        raise InvalidConfig.of("user_config_key_env", path=user_config_path(), where=where)
    model = _optional_str(table, "model", where)
    return checked_base_url(base_url, source), key_variable, model, source


def resolve_endpoint(purpose: Purpose, book_section: Mapping[str, Any] | None = None) -> Endpoint:
    """The endpoint to use for `purpose` ("llm" or "embed") in a book whose config section for
    it (`[llm]`, or `[retrieval]` for "embed") is `book_section` (may be None or empty).

    The book section may hold `endpoint = "NAME"` (one of the user's `[endpoints.NAME]`),
    `model`, and any keys of the caller's own (prices, concurrency); a URL or a key variable in
    it is refused with `InvalidConfig`. See the module docstring for which choice wins.
    """
    if purpose not in PURPOSES:
        raise ValueError(f"unknown purpose {purpose!r}")
    book_endpoint = check_book_section(purpose, book_section)
    book_model = (book_section or {}).get("model")
    if book_model is not None and not isinstance(book_model, str):
        raise InvalidConfig.of("book_model_string", section=_BOOK_SECTION[purpose])
    upper = purpose.upper()
    env_url = os.environ.get(f"WEBNOVEL_{upper}_BASE_URL")
    env_model = os.environ.get(f"WEBNOVEL_{upper}_MODEL") or None
    data = load_user_config()
    defaults = _user_table(data, purpose)
    default_model = _optional_str(defaults, "model", f"[{purpose}]")
    if env_url:
        source = say("environment_variable", name=f"WEBNOVEL_{upper}_BASE_URL")
        key_var = f"WEBNOVEL_{upper}_API_KEY"
        has_key = bool(os.environ.get(key_var))
        return Endpoint(
            purpose,
            "env",
            checked_base_url(env_url, source),
            env_model or book_model or default_model,
            key_var if has_key else None,
            source,
        )
    name = book_endpoint
    wanted_by = say("wanted_by_book")
    if name is None:
        name = _optional_str(defaults, "endpoint", f"[{purpose}]")
        wanted_by = say("wanted_by_user", purpose=purpose)
    if name is None:
        what = say("purpose_llm" if purpose == "llm" else "purpose_embed")
        raise InvalidConfig.of(
            "no_endpoint", what=what, path=user_config_path(), purpose=purpose, upper=upper
        )
    base_url, key_var_named, endpoint_model, source = _named_endpoint(
        purpose, data, name, wanted_by
    )
    model = env_model or book_model or default_model or endpoint_model
    return Endpoint(purpose, name, base_url, model, key_var_named, source)


# -- per-user decisions ------------------------------------------------------------------------


def first_use_notice(endpoint: Endpoint) -> str | None:
    """The notice to show the first time this user sends text to `endpoint` (then None).

    Recorded in the user's state folder, never in a book, so a book cannot arrive marked as
    already announced. When the state cannot be written, the notice is shown every time.
    """
    path = user_state_dir() / "notices.json"
    key = f"{endpoint.purpose} {endpoint.base_url}"
    if key in _read_seen(path):
        return None
    _remember(path, [key])
    what = say("first_use_chapters" if endpoint.purpose == "llm" else "first_use_embed")
    return say("first_use", what=what, endpoint=endpoint.describe())


def _remember(path: Path, items: list[str]) -> None:
    """Add `items` to the user's record at `path` (a JSON list); a record that cannot be
    written is left as it was (then what it would remember is asked or said again)."""
    seen = _read_seen(path)
    if set(items) <= seen:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(sorted({*seen, *items}), ensure_ascii=False), "utf-8")
        os.replace(temporary, path)
    except OSError:
        pass


def _read_seen(path: Path) -> set[str]:
    try:
        data = json_limits.loads(
            path.read_text(encoding="utf-8")[:MAX_USER_CONFIG_BYTES], str(path)
        )
    except (OSError, ValueError):
        return set()
    return {item for item in data if isinstance(item, str)} if isinstance(data, list) else set()


# -- shared stores -----------------------------------------------------------------------------


def trust_store(targets: list[str], url: str | None = None) -> None:
    """Record that the user chose these store servers (`host:port`; they typed the URL:
    `init --store`, `copy --store`, `books --store`) and the URL itself: a book naming one of
    the servers may have the user's password sent there, and a book's config holding the very
    URL keeps its parameters (memory/store/url_trust.py). Kept in the user's state folder,
    never in a book."""
    _remember(user_state_dir() / "stores.json", targets)
    if url is not None:
        _remember(user_state_dir() / "store_urls.json", [url])


def stores_chosen() -> tuple[set[str], set[str]]:
    """The servers (`host:port` or `host`) and the store URLs the user chose: typed (`trust_store`)
    or listed in the user config's `[stores] trusted`, where an entry holding `://` is a URL."""
    listed = _trusted_in_user_config()
    urls = {item for item in listed if "://" in item}
    servers = _read_seen(user_state_dir() / "stores.json") | (listed - urls)
    return servers, urls | _read_seen(user_state_dir() / "store_urls.json")


def _trusted_in_user_config() -> set[str]:
    """`[stores] trusted` of the user config: a list of "host:port" (or "host", or a whole
    postgresql:// URL) strings. Written otherwise it is refused, never ignored: the refusal it
    would lead to tells the user to add the host there, which they did."""
    listed = _user_table(load_user_config(), "stores").get("trusted", [])
    if not isinstance(listed, list) or not all(isinstance(item, str) for item in listed):
        raise InvalidConfig.of("user_config_trusted", path=user_config_path())
    return set(listed)
