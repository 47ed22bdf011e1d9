"""JSON from a model's side, read within bounds: a reply nested thousands of levels deep is
refused by a linear scan before `json.loads` sees it, so it can never end a run in a
RecursionError (the parser, and every reader after it, recurse per level)."""

from __future__ import annotations

MAX_DEPTH = 64  # as the commit's own hygiene allows (memory/write/json_hygiene.py)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether `text`, read as JSON, opens more than `limit` arrays or objects inside one
    another (brackets inside strings do not count). Linear in the text, no recursion."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False
