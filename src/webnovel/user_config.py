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

from .errors import InvalidConfig
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
            raise InvalidConfig(
                f"端点 {self.name}（{self.source}）的密钥应在环境变量 {self.key_variable} 里，"
                "但它没有设置"
            )
        return value

    def auth_headers(self) -> dict[str, str]:
        """`Authorization: Bearer …` when the endpoint takes a key, else nothing."""
        key = self.api_key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def describe(self) -> str:
        """One Chinese phrase naming the endpoint and where its key comes from (never the key)."""
        key = f"密钥取自环境变量 {self.key_variable}" if self.key_variable else "不带密钥"
        return f"端点 {self.name}（{self.base_url}，{key}；配置于 {self.source}）"


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
    raise InvalidConfig(
        f"{where}: 地址 {url!r} 必须用 https（明文 http 只允许本机，如 127.0.0.1、localhost），"
        "否则密钥和文本会在网络上明文传输"
    )


# -- what a book may say -----------------------------------------------------------------------


def book_refusal(purpose: Purpose, key: str, value: object) -> InvalidConfig:
    """The refusal of a book config key that would choose where text or a key goes."""
    section = _BOOK_SECTION[purpose]
    upper = purpose.upper()
    return InvalidConfig(
        f"本书 .webnovel/config.toml 的 {section} 写了 {key} = {value!r}，已拒绝：书的配置不能决定"
        "把文本发往哪个地址、用哪个环境变量里的密钥（书可能来自别人，它会花你的钱、拿走你的密钥）。"
        f"请把端点写进你自己的配置 {user_config_path()}：\n"
        "    [endpoints.mine]\n"
        '    base_url = "https://…/v1"\n'
        '    api_key_env = "保存密钥的环境变量名"\n'
        f"然后在书的 {section} 里{_fix(key)}；"
        f"或者设置环境变量 WEBNOVEL_{upper}_BASE_URL、WEBNOVEL_{upper}_API_KEY"
        f"（可选 WEBNOVEL_{upper}_MODEL）。"
    )


def _fix(key: str) -> str:
    if key == "embedder":
        return 'embedder 只写 "openai:模型名"，再加一行 endpoint = "mine"'
    return f'删掉 {key}，只写 endpoint = "mine"'


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
    own folder arrived with the book, from whoever sent it, and is not loaded."""
    if not spec or not spec.startswith("st:"):
        return
    where = Path(spec[len("st:") :]).expanduser().resolve()
    if where.is_relative_to(book_root.resolve()):
        raise InvalidConfig(
            f"本书 [retrieval] embedder = {spec!r} 指向书文件夹里的模型，已拒绝：它随书而来，"
            "可能来自别人。请把模型放在书外你自己的文件夹，并写它的绝对路径"
        )


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
        raise InvalidConfig(f"{path}: 无法读取：{exc.strerror}") from exc
    if len(raw) > MAX_USER_CONFIG_BYTES:
        raise InvalidConfig(f"{path}: 超过 {MAX_USER_CONFIG_BYTES} 字节，不像是配置文件")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise InvalidConfig(f"{path}: 无法解析：{exc}") from exc


def _user_table(data: Mapping[str, Any], *names: str) -> dict[str, Any]:
    value: Any = data
    for name in names:
        value = value.get(name, {}) if isinstance(value, dict) else None
    if not isinstance(value, dict):
        raise InvalidConfig(f"{user_config_path()}: [{'.'.join(names)}] 必须是一个表")
    return value


def _optional_str(table: Mapping[str, Any], key: str, where: str) -> str | None:
    value = table.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidConfig(f"{user_config_path()}: {where}.{key} 必须是字符串")
    return value


def _named_endpoint(
    purpose: Purpose, data: Mapping[str, Any], name: str, wanted_by: str
) -> tuple[str, str | None, str | None, str]:
    endpoints = _user_table(data, "endpoints")
    if name not in endpoints:
        raise InvalidConfig(
            f"{wanted_by}要用端点 {name!r}，但你的配置 {user_config_path()} 里没有 "
            f'[endpoints.{name}]；请加上 base_url = "https://…/v1" 和 api_key_env = "变量名"'
        )
    table = _user_table(data, "endpoints", name)
    where = f"[endpoints.{name}]"
    source = f"{user_config_path()} {where}"
    base_url = _optional_str(table, "base_url", where)
    if base_url is None:
        raise InvalidConfig(f"{user_config_path()}: {where} 缺少 base_url")
    key_variable = _optional_str(table, "api_key_env", where)
    if key_variable is not None and not key_variable.isidentifier():
        raise InvalidConfig(f"{user_config_path()}: {where}.api_key_env 必须是环境变量名")
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
        raise InvalidConfig(f"config.toml: {_BOOK_SECTION[purpose]} model 必须是字符串")
    upper = purpose.upper()
    env_url = os.environ.get(f"WEBNOVEL_{upper}_BASE_URL")
    env_model = os.environ.get(f"WEBNOVEL_{upper}_MODEL") or None
    data = load_user_config()
    defaults = _user_table(data, purpose)
    default_model = _optional_str(defaults, "model", f"[{purpose}]")
    if env_url:
        source = f"环境变量 WEBNOVEL_{upper}_BASE_URL"
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
    wanted_by = "本书的配置"
    if name is None:
        name = _optional_str(defaults, "endpoint", f"[{purpose}]")
        wanted_by = f"你的配置 [{purpose}] "
    if name is None:
        raise InvalidConfig(
            f"没有为「{'生成' if purpose == 'llm' else '向量'}」配置端点：在 {user_config_path()} "
            f'写 [endpoints.mine]（base_url、api_key_env）和 [{purpose}] endpoint = "mine"，'
            f"或者设置环境变量 WEBNOVEL_{upper}_BASE_URL、WEBNOVEL_{upper}_API_KEY"
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
    what = "章节文本" if endpoint.purpose == "llm" else "待生成向量的文本"
    return f"首次使用：{what}将发往{endpoint.describe()}"


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
        data = json.loads(path.read_text(encoding="utf-8")[:MAX_USER_CONFIG_BYTES])
    except (OSError, ValueError):
        return set()
    return {item for item in data if isinstance(item, str)} if isinstance(data, list) else set()


# -- shared stores -----------------------------------------------------------------------------


def trust_store(targets: list[str]) -> None:
    """Record that the user chose these store servers (`host:port`; they typed the URL:
    `init --store`, `copy --store`, `books --store`): a book naming one may have the user's
    password sent there. Kept in the user's state folder, never in a book."""
    _remember(user_state_dir() / "stores.json", targets)


def refuse_a_password_to_a_book_s_host(
    targets: list[str], password_env: str | None, service: str | None = None
) -> None:
    """A book folder's `[store]` names the servers (`host:port`, where the connection goes); a
    password from the environment (PGPASSWORD, or the variable `password_env` names) or from
    a connection service's file (pg_service.conf, which the URL's host overrides) goes only
    to servers the user chose: this machine, one whose URL the user typed (`trust_store`), or
    one in the user config's `[stores] trusted`. (~/.pgpass and client certificates are
    matched to their host by libpq itself.)"""
    if password_env and os.environ.get(password_env) is not None:
        source = f"环境变量 {password_env}"
    elif os.environ.get("PGPASSWORD") is not None:
        source = "环境变量 PGPASSWORD"
    elif service:
        source = f"连接服务 {service} 的 pg_service.conf"
    else:
        return
    listed = _user_table(load_user_config(), "stores").get("trusted", [])
    trusted = _read_seen(user_state_dir() / "stores.json")
    trusted |= {str(item) for item in listed} if isinstance(listed, list) else set()
    for target in targets:
        host = target.rsplit(":", 1)[0].strip("[]")
        if is_loopback_host(host) or target in trusted or host in trusted:
            continue
        raise InvalidConfig(
            f"这本书的 config.toml 指向书库 {target}，你还没有选用过它：你的密码（{source}）"
            "不会发往一本书指定的主机。若这是你的书库，请亲手输入一次它的地址（例如 "
            f"webnovel books --store postgresql://用户@{target}/数据库），或在 {user_config_path()}"
            f' 的 [stores] trusted 中加入 "{target}"'
        )
