"""A sentence that remembers how it was said: its catalogue key and arguments.

A conflict is raised while a chapter is committed, in the language of that moment, but read
later, by anyone: an author in Chinese, an engineer with WEBNOVEL_LANG=en. So the rules say a
conflict's message with `Said(key, **args)`, a `str` (the sentence, as every caller used it)
that also keeps the key and the arguments; the store keeps those (`conflicts.args_json`) and
says the message again when it is read, in the reader's language (`said_again`).

An argument may itself be `Said` (a fragment: 「场景2」, 「未说明原因」), said again too, or one of
`marks` (the rules' stand-ins for an entity's name), stored as the entity's role (`who`,
`target`) and filled with its name as it stands when read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..messages import MESSAGES, say


class Said(str):
    """The message `key` said with `args` in the language of now, keeping both."""

    key: str
    args: dict[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Said:
        said = super().__new__(cls, say(key, **args))
        said.key = key
        said.args = args
        return said

    # A str is remade from its text, which is no key: a copy (`dataclasses.asdict` deep-copies
    # a record's fields) is the same immutable message, and a pickle says it again from its key.
    def __copy__(self) -> Said:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Said:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_said_from, (self.key, self.args))


def _said_from(key: str, args: dict[str, Any]) -> Said:
    return Said(key, **args)


def stored(message: str, marks: Mapping[str, str]) -> dict[str, Any] | None:
    """What `message` says, as JSON for the store; None for a sentence with no key (it can only
    be shown as it was written). `marks` maps each stand-in for a name to its role."""
    if not isinstance(message, Said):
        return None
    return {"key": message.key, "args": {k: _stored(v, marks) for k, v in message.args.items()}}


def _stored(value: Any, marks: Mapping[str, str]) -> Any:
    if isinstance(value, Said):
        return {"said": stored(value, marks)}
    if isinstance(value, str) and value in marks:
        return {"name_of": marks[value]}
    return value


def said_again(stored: Any, names: Mapping[str, str]) -> str | None:
    """The stored message said in the reader's language, each role filled from `names`; None
    when the store holds what no catalogue of this version says (a key since renamed, a book
    from a newer version): the caller shows the message as it was written."""
    if not isinstance(stored, dict) or stored.get("key") not in MESSAGES:
        return None
    args = stored.get("args")
    if not isinstance(args, dict):
        return None
    filled = {}
    for name, value in args.items():
        if isinstance(value, dict) and "said" in value:
            inner = said_again(value["said"], names)
            if inner is None:
                return None
            filled[name] = inner
        elif isinstance(value, dict) and "name_of" in value:
            filled[name] = names.get(str(value["name_of"]), "")
        else:
            filled[name] = value
    try:
        return say(stored["key"], **filled)
    except (KeyError, IndexError, ValueError):  # arguments the key no longer takes
        return None
