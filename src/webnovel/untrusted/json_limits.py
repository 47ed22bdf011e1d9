"""JSON read from anywhere we do not control, bounded before it is parsed.

Python's json module parses nesting by recursion: a value nested some thousands deep (in a
chapter result, a row of a received book's commit log, a config file, a model's answer, an HTTP
body) ends the parse in a RecursionError, and a huge one is read whole. `loads` measures both
first: the size at once, the depth by a scan that runs in C (strings taken out by one regular
expression, the brackets left counted by `accumulate`), and refuses with an InvalidInput that
names where the JSON came from. Every reader of untrusted JSON goes through it (the MCP
server's framing may too).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any

from ..errors import InvalidInput
from ..messages import say

# Our own documents nest a handful deep (a chapter result: about 6); a hundred leaves room for
# anything a person or a model writes and stays far below the recursion limit.
MAX_DEPTH = 100
MAX_BYTES = 64 * 1024 * 1024

# where the JSON came from, for the refusal: a name, or what makes one (only when refused)
Where = str | Callable[[], str]

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonTooBig(InvalidInput, json.JSONDecodeError):
    """JSON nested deeper, or longer, than we read. Also a JSONDecodeError, so that a reader
    which treats unreadable JSON as absent (a derived file rebuilt) treats this one alike."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.msg, self.doc, self.pos, self.lineno, self.colno = message, "", 0, 1, 1

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self),))


def depth(text: str) -> int:
    """How deep the arrays and objects of JSON `text` nest (0 for a scalar)."""
    if text.count("[") + text.count("{") <= 1:
        return 1 if "[" in text or "{" in text else 0
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def check(
    text: str | bytes, where: Where, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES
) -> str:
    """`text` as a string, once it is known to be within the limits; raises JsonTooBig."""
    if len(text) > max_bytes:
        raise JsonTooBig(
            say("json_too_large", where=_named(where), size=len(text), limit=max_bytes)
        )
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    # fewer brackets than the limit cannot nest past it: most values are never scanned
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise JsonTooBig(say("json_too_deep", where=_named(where), limit=max_depth))
    return text


def _named(where: Where) -> str:
    return where if isinstance(where, str) else where()


def loads(
    text: str | bytes,
    where: Where,
    max_depth: int = MAX_DEPTH,
    max_bytes: int = MAX_BYTES,
    parse_constant: Callable[[str], Any] | None = None,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """`json.loads(text)`, refused with JsonTooBig when `text` nests deeper than `max_depth` or
    is longer than `max_bytes`; `where` names the source in the message (a file, a column)."""
    checked = check(text, where, max_depth, max_bytes)
    return json.loads(checked, parse_constant=parse_constant, object_pairs_hook=object_pairs_hook)


# the json module's reasons (its `msg`, in English), each said from the catalogue; a reason not
# listed here is shown as the module gives it
_REASONS = {
    "Expecting value": "json_why_value",
    "Expecting ',' delimiter": "json_why_comma",
    "Expecting ':' delimiter": "json_why_colon",
    "Expecting property name enclosed in double quotes": "json_why_key_quotes",
    "Unterminated string starting at": "json_why_unterminated",
    "Extra data": "json_why_extra",
    "Invalid control character at": "json_why_control",
    "Invalid \\escape": "json_why_escape",
    "Invalid \\uXXXX escape": "json_why_escape",
}


def why_not_json(error: json.JSONDecodeError) -> str:
    """Where and why a text is not JSON, in the reader's language: 第 1 行第 31 列：键名须用双引号."""
    reason = _REASONS.get(error.msg)
    return say(
        "json_why_at",
        line=error.lineno,
        column=error.colno,
        why=say(reason) if reason else error.msg,
    )
