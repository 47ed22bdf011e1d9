"""Reading a chapter result's values one by one while collecting every problem with its JSON
path, so that a refused result names all that is wrong with it at once."""

from __future__ import annotations

from typing import Any

from ...messages import say
from .json_hygiene import unsafe_in_name

MAX_COUNT = 1_000_000
# A string of a result: a summary, a description, a quote; a title or a name is far shorter. Past
# these a result is refused naming the path: a 300,000-character summary was committed and then
# crowded the previous chapter out of every pack (trial 4 §7). A chapter's text has its own
# limit (2,000,000, queries/table.py), as an outline has (50,000).
TEXT_FIELD_CHARS = 20_000
NAME_CHARS = 2_000


class Checker:
    """Collects every problem with its JSON path instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def objects(
        self, data: dict[str, Any], key: str, path: str
    ) -> list[tuple[str, dict[str, Any]]]:
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(f"{path}.{key}", say("must_be_list", got=type_name(value)))
            return []
        items = []
        for i, item in enumerate(value):
            if isinstance(item, dict):
                items.append((f"{path}.{key}[{i}]", item))
            else:
                self.fail(f"{path}.{key}[{i}]", say("must_be_object", got=type_name(item)))
        return items

    def text(
        self,
        item: dict[str, Any],
        key: str,
        path: str,
        *,
        required: bool = False,
        alternatives: tuple[str, ...] = (),
        limit: int = TEXT_FIELD_CHARS,
    ) -> str | None:
        for name in (key, *alternatives):
            if name in item and item[name] is not None:
                value = item[name]
                if isinstance(value, str) and len(value) > limit:
                    self.too_long(f"{path}.{name}", value, limit)
                    return None
                if isinstance(value, str) and (value.strip() or not required):
                    return value.strip() if required else value
                self.fail(
                    f"{path}.{name}",
                    say("must_be_text")
                    if required
                    else say("must_be_string", got=type_name(value)),
                )
                return None
        if required:
            self.fail(f"{path}.{key}", say("required"))
        return None

    def too_long(self, path: str, value: str, limit: int) -> None:
        self.fail(path, say("result_string_too_long", got=f"{len(value):,}", limit=f"{limit:,}"))

    def number(self, item: dict[str, Any], key: str, path: str, default: float = 1.0) -> float:
        value = item.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            self.fail(f"{path}.{key}", say("must_be_confidence"))
            return default
        return float(value)

    def integer(
        self, item: dict[str, Any], key: str, path: str, bounds: tuple[int, int] = (0, MAX_COUNT)
    ) -> int | None:
        value = item.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}.{key}", say("must_be_integer", got=type_name(value)))
            return None
        if not bounds[0] <= value <= bounds[1]:
            self.fail(
                f"{path}.{key}",
                say("out_of_range", low=f"{bounds[0]:,}", high=f"{bounds[1]:,}", got=value),
            )
            return None
        return value

    def name(self, value: str | None, path: str) -> str | None:
        """An id, name or alias: refused when it holds control characters."""
        if value is not None and len(value) > NAME_CHARS:
            self.too_long(path, value, NAME_CHARS)
            return None
        if value is not None and (why := unsafe_in_name(value)):
            self.fail(path, why)
            return None
        return value

    def refs(self, item: dict[str, Any], key: str, path: str) -> tuple[str, ...]:
        value = item.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,) if value.strip() else ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{path}.{key}", say("must_be_refs"))
            return ()
        for i, v in enumerate(value):
            self.name(v, f"{path}.{key}[{i}]")
        return tuple(v.strip() for v in value if v.strip())

    def scalar(self, item: dict[str, Any], key: str, path: str) -> Any:
        value = item.get(key)
        if isinstance(value, dict | list):
            self.fail(f"{path}.{key}", say("must_be_scalar", got=type_name(value)))
        elif isinstance(value, str) and len(value) > TEXT_FIELD_CHARS:
            self.too_long(f"{path}.{key}", value, TEXT_FIELD_CHARS)
            return None
        return value

    def choice(
        self, value: Any, allowed: tuple[str, ...] | dict[str, Any], path: str, default: str
    ) -> str:
        if value is None:
            return default
        if not isinstance(value, str) or value not in allowed:
            self.fail(path, say("must_be_one_of", choices=", ".join(allowed), got=repr(value)))
            return default
        return value


def type_name(value: Any) -> str:
    key = {
        dict: "an_object",
        list: "a_list",
        str: "a_string",
        bool: "a_boolean",
        int: "a_number",
        float: "a_number",
        type(None): "null",
    }.get(type(value))
    return say(key) if key else type(value).__name__
