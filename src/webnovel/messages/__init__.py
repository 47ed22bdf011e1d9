"""The sentences the engine says to a person, in one catalogue: Chinese first, English when
`WEBNOVEL_LANG=en` (read when a message is made, never at import).

A message is a key and its arguments; its templates are filled with `str.format`, so an
argument that itself holds `{braces}` (a name, a relation type) is shown as written and never
substituted into.

The catalogue is one dictionary, kept in files by subject (`book`, `outside`, `work`, …), each
found here by itself; no key is in two of them (tests/test_messages.py).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from typing import Any


def _merged() -> dict[str, tuple[str, str]]:
    """Every file of this package's `MESSAGES`, in one dictionary: a subject gets a file of its
    own without touching this one."""
    merged: dict[str, tuple[str, str]] = {}
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        merged.update(importlib.import_module(f"{__name__}.{found.name}").MESSAGES)
    return merged


# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = _merged()


def language() -> str:
    """`en` when WEBNOVEL_LANG (or, failing it, nothing) asks for English; `zh` otherwise."""
    wanted = os.environ.get("WEBNOVEL_LANG", "zh").strip().lower()
    return "en" if wanted.startswith("en") else "zh"


def say(message: str, /, **args: Any) -> str:
    """The message named `message` in the reader's language, filled with `args`."""
    chinese, english = MESSAGES[message]
    return (english if language() == "en" else chinese).format(**args)
