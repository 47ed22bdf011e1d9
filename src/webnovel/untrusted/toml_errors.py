"""A config file that is not valid TOML, said in the reader's language.

tomllib says what is wrong in English and where at the end ("Expected '=' after a key in a
key/value pair (at line 1, column 6)"). The reader gets the place first, in the catalogue's
words, and what is wrong (for the mistakes people make most; else "not valid TOML"), with
tomllib's own words after it in parentheses.
"""

from __future__ import annotations

import re
import tomllib

from ..messages import say

_PLACE = re.compile(
    r"^(?P<said>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$",
    re.S,
)

# tomllib's words (the start of its message) and the catalogue's for the same mistake
_MISTAKES: tuple[tuple[str, str], ...] = (
    ("Expected '=' after a key", "toml_no_equals"),
    ("Invalid value", "toml_bad_value"),
    ("Unterminated string", "toml_open_string"),
    ("Unclosed array", "toml_open_array"),
    ("Unclosed inline table", "toml_open_table"),
    ("Expected ']' at the end of a table", "toml_open_header"),
    ("Cannot overwrite a value", "toml_twice"),
    ("Cannot declare", "toml_twice"),
    ("Expected newline or end of document", "toml_one_a_line"),
    ("Invalid statement", "toml_bad_line"),
    ("Invalid initial character for a key", "toml_bad_key"),
    ("Illegal character '\\n'", "toml_open_string"),  # a line ends inside a string
    ("Illegal character", "toml_bad_character"),
    ("Found invalid character", "toml_bad_character"),
)


def toml_problem(exc: Exception) -> str:
    """What is wrong with a file `tomllib` refused, and where; any other error (a file that is
    not UTF-8) as it says itself."""
    if not isinstance(exc, tomllib.TOMLDecodeError):
        return str(exc)
    found = _PLACE.match(str(exc))
    if found is None:
        return str(exc)
    said = found["said"]
    key = next((key for start, key in _MISTAKES if said.startswith(start)), "toml_mistake")
    what = say(key)
    if found["line"] is None:
        return say("toml_at_end", what=what, said=said)
    return say("toml_at", what=what, said=said, line=found["line"], column=found["column"])
