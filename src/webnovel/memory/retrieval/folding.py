"""Traditional → simplified folding for search, one character for one character.

Search folds the indexed text and the question with the same function, so 乾时 in the text and
乾时 (or 干时) in a question meet as 干时. The fold maps each character on its own (OpenCC's
character table, first choice), never phrases: that keeps every position of the folded text the
position of the same character in the original, so matches found in the folded text are marked
in the original, which is what is stored and shown. It is a `str.translate` table, fast enough
for every chunk of a 30 M-character book (OpenCC's pure-Python phrase converter was not).
ASCII letters are lower-cased the same way. Without OpenCC's data installed, only that.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def _table() -> dict[int, str]:
    # only OpenCC's data file is read: importing the package (its converter, json and more)
    # would cost a fresh `webnovel search` process 50 ms
    from importlib.util import find_spec

    spec = find_spec("opencc")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(spec.submodule_search_locations[0]) / "dictionary" / "TSCharacters.txt"
    table: dict[int, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    for line in lines:
        source, _, targets = line.partition("\t")
        first = targets.split(" ")[0] if targets else ""
        if len(source) == 1 and len(first) == 1 and first != source:
            table[ord(source)] = first
    return table


@cache
def _with_case() -> dict[int, str]:
    return {**_table(), **{ord(c): c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}}


@cache
def _foldable() -> frozenset[str]:
    return frozenset(chr(c) for c in _with_case())


def fold(text: str) -> str:
    """`text` with traditional characters folded to simplified and ASCII letters lower-cased,
    the same length as `text`."""
    if _foldable().isdisjoint(text):  # most text holds nothing to fold: that check is cheaper
        return text
    return text.translate(_with_case())
