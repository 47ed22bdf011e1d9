"""What JSON can hold, and what a book may store: checked before a chapter result is read.

A chapter result comes from an LLM agent, a file or a Python caller. Before its fields are
validated, the whole value is walked once and every problem is named by its JSON path:

- only JSON: objects with string keys, lists, strings, integers, finite numbers, booleans and
  null (no sets, bytes or other objects, no cycles, at most `MAX_DEPTH` levels);
- integers within 64 bits (SQLite's integer), and no NaN or Infinity;
- strings that are valid Unicode (no lone surrogate halves, which cannot be stored or hashed);
- names that cannot be mistaken or abused (`clean_name`): no control characters, escape
  sequences, bidirectional overrides or invisible marks (zero-width, direction marks, variation
  selectors, tag characters) in ids, names and aliases.

The ranges of the contract's numbers (chapters 1..1,000,000 and so on) are checked with the
fields, in `chapter_result`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...messages import say

MAX_DEPTH = 64
INT64 = 2**63
# C0 and C1 control characters (tab and newline are fine in text, never in a name), DEL, and the
# bidirectional embeddings, overrides and isolates that can make a name read backwards.
_UNSAFE_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Invisible marks: zero-width spaces and joiners, direction marks, word joiners, the byte-order
# mark, soft hyphen; variation selectors (U+FE00–FE0F, U+E0100–E01EF) and tag characters
# (U+E0000–E007F), which no font draws. 林\u200b砚, \u200f林砚, 林\ufe0f砚 and 林砚\U000e0041
# look exactly like 林砚 but would be new names.
_INVISIBLE_IN_NAMES = re.compile(
    r"[\u00ad\u061c\u180e\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\ufeff"
    r"\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def json_problems(value: Any, path: str = "$") -> list[str]:
    """Every reason `value` is not plain, storable JSON, one line per JSON path."""
    problems: list[str] = []
    # each entry carries the containers above it: a value shared by two fields is fine, one that
    # contains itself is a cycle
    stack: list[tuple[Any, str, int, frozenset[int]]] = [(value, path, 0, frozenset())]
    while stack:
        item, where, depth, above = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(f"{where}: {say('too_deep', depth=MAX_DEPTH)}")
            continue
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, str):
            if _SURROGATE.search(item):
                problems.append(f"{where}: {say('lone_surrogate')}")
            continue
        if isinstance(item, int):
            if not -INT64 <= item < INT64:
                problems.append(f"{where}: {say('integer_too_big')}")
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                problems.append(f"{where}: {say('not_finite', got=item)}")
            continue
        if isinstance(item, dict | list):
            if id(item) in above:
                problems.append(f"{where}: {say('cycle')}")
                continue
            inside = above | {id(item)}
            if isinstance(item, dict):
                for key, child in item.items():
                    if not isinstance(key, str):
                        problems.append(f"{where}: {say('key_not_string', key=repr(key))}")
                        continue
                    if _SURROGATE.search(key):
                        problems.append(f"{where}: {say('key_not_unicode')}")
                        continue
                    stack.append((child, f"{where}.{key}", depth + 1, inside))
            else:
                for i, child in enumerate(item):
                    stack.append((child, f"{where}[{i}]", depth + 1, inside))
            continue
        problems.append(f"{where}: {say('not_json', type=type(item).__name__)}")
    return sorted(problems)


def unsafe_in_name(name: str) -> str | None:
    """Why `name` cannot be an id, name or alias, or None when it can."""
    found = _UNSAFE_IN_NAMES.search(name)
    if found is None:
        invisible = _INVISIBLE_IN_NAMES.search(name)
        if invisible is None:
            return None
        return say("invisible_in_name", code=f"{ord(invisible.group()):04X}")
    return say("control_character", code=f"{ord(found.group()):04X}")


def printable(text: str) -> str:
    """`text` with control characters (but newlines and tabs) and bidirectional overrides shown
    as escapes, for a terminal: a stored value must never clear the author's screen."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
