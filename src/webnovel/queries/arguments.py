"""Arguments given as JSON (by an MCP client) or as text (in a dashboard URL), checked against
their declarations: defaults filled in, integers read from digits, and every problem named in
one sentence (`get_fact：参数 field 必填`). An unknown name is refused with the
name probably meant: ignored, a typo (`asof`) or the CLI's spelling (`from`) would answer a
different question without a word."""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidInput
from ..messages import say
from .declare import Arg

_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no", "")


class _Unfit(Exception):
    """One value that does not fit its declaration (collected into one InvalidInput)."""


def checked_arguments(
    tool: str, args: Sequence[Arg], given: Mapping[str, Any], *, text: bool = False
) -> dict[str, Any]:
    """The arguments a call gives, checked against their declarations, with defaults filled
    in; unknown names are refused. Integers may come as strings of digits (some clients send
    every value as text); with `text`, every value is text (a URL's query)."""
    unknown = [name for name in given if name not in {a.name for a in args}]
    problems = [_unknown(name, args) for name in unknown]
    wrong = list(unknown)  # the arguments named in the error's details, for an agent to fix
    out: dict[str, Any] = {}
    for arg in args:
        if arg.name not in given or (given[arg.name] is None and not arg.required):
            if arg.required:
                problems.append(say("argument_required", name=arg.name))
                wrong.append(arg.name)
            out[arg.name] = arg.default
            continue
        try:
            out[arg.name] = _value(arg, given[arg.name], text)
        except _Unfit as exc:
            problems.append(say("argument_unfit", name=arg.name, problem=exc))
            wrong.append(arg.name)
    if problems:
        joined = say("argument_separator").join(problems)
        raise InvalidInput(
            key="arguments_unfit",
            arguments={"tool": tool, "problems": joined},
            details={"tool": tool, "arguments": wrong, "problems": problems},
        )
    return out


def _unknown(name: str, args: Sequence[Arg]) -> str:
    """The sentence for an argument no declaration names, with the one probably meant."""
    by_flag = {(a.flag or "").lstrip("-"): a.name for a in args if a.flag}
    meant = by_flag.get(name) or next(
        iter(difflib.get_close_matches(name, [a.name for a in args], n=1, cutoff=0.6)), None
    )
    known = say("argument_list_separator").join(a.name for a in args) or say("argument_none")
    hint = say("argument_meant", meant=meant) if meant else ""
    return say("argument_unknown", name=name, hint=hint, known=known)


def _value(arg: Arg, value: Any, text: bool) -> Any:
    if arg.type == "int":
        number = _integer(value)
        if number is None:
            raise _Unfit(say("argument_not_integer", got=_shown(value)))
        return number
    if arg.type == "bool":
        if text and isinstance(value, str) and value.lower() in _TRUE + _FALSE:
            return value.lower() in _TRUE
        if not isinstance(value, bool):
            raise _Unfit(say("argument_not_bool", got=_shown(value)))
        return value
    if arg.type == "object":
        if not isinstance(value, dict):
            raise _Unfit(say("argument_not_object", got=_shown(value)))
        return value
    if not isinstance(value, str):
        raise _Unfit(say("argument_not_string", got=_shown(value)))
    if len(value) > arg.max_chars:
        raise _Unfit(say("argument_too_long", chars=len(value), limit=arg.max_chars))
    if arg.words is not None:
        value = arg.words.find(value) or value
    if arg.choices is not None and value not in arg.choices:
        raise _Unfit(say("argument_not_choice", choices=arg.choices_shown(), got=_shown(value)))
    return value


def _integer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:40] + "…"
