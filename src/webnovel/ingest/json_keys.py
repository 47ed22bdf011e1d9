"""A key written twice in one JSON object, found and named by its path.

`json.loads` keeps the last of two equal keys without a word, so a chapter result that says
`"summary"` twice, or gives an entity two `"name"`s, loses one of them silently. Parsed with
`DuplicateKeys.hook` as the `object_pairs_hook`, every object that had a key twice is marked;
`DuplicateKeys.paths` then names each such key by its JSON path (`$.entities_new[0].name`), and
costs nothing when no key was repeated.
"""

from __future__ import annotations

from typing import Any


class _Repeated(dict[str, Any]):
    """A JSON object that was given some of its keys more than once (in `twice`)."""

    twice: list[str]


class DuplicateKeys:
    """An `object_pairs_hook` that remembers the keys given twice; one per parse."""

    def __init__(self) -> None:
        self.seen = False

    def hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        made = dict(pairs)
        if len(made) == len(pairs):
            return made
        self.seen = True
        counts: dict[str, int] = {}
        for key, _ in pairs:
            counts[key] = counts.get(key, 0) + 1
        repeated = _Repeated(made)
        repeated.twice = [key for key, count in counts.items() if count > 1]
        return repeated

    def paths(self, value: Any) -> list[str]:
        """The JSON path of every key given twice in `value`, in document order."""
        if not self.seen:
            return []
        found: list[str] = []
        stack: list[tuple[Any, str]] = [(value, "$")]
        while stack:
            item, where = stack.pop()
            if isinstance(item, dict):
                if isinstance(item, _Repeated):
                    found += [f"{where}.{key}" for key in item.twice]
                stack += [(child, f"{where}.{key}") for key, child in reversed(item.items())]
            elif isinstance(item, list):
                stack += [(child, f"{where}[{i}]") for i, child in reversed(list(enumerate(item)))]
        return found
