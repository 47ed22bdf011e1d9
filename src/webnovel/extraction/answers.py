"""Reading a model's answer as a chapter result, and asking it to repair one.

Models wrap JSON in code fences, add a remark before or after it, or stop half-way. The parser
takes the first complete JSON object in the text, whatever surrounds it; what it cannot read is
named as one problem, so the repair round quotes it like a validation problem.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..messages import say
from ..untrusted import json_limits

FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
MAX_QUOTED_PROBLEMS = 30  # a repair request quotes at most this many problems


@dataclass(frozen=True)
class ParsedAnswer:
    data: dict[str, Any] | None
    problems: tuple[str, ...]


def parse_answer(text: str) -> ParsedAnswer:
    """The JSON object in a model's answer, or the problem that kept it from being read."""
    if not text or not text.strip():
        return ParsedAnswer(None, (say("answer_is_empty"),))
    candidates = [m.group(1) for m in FENCE.finditer(text)] + [text]
    last_error = ""  # why the last candidate was not JSON, in the reader's words
    for candidate in candidates:
        found = _first_object(candidate)
        if found is None:
            continue
        try:
            data = json_limits.loads(found, "$", parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            last_error = json_limits.why_not_json(exc)
            continue
        except (ValueError, RecursionError) as exc:
            last_error = str(exc)
            continue
        if isinstance(data, dict):
            return ParsedAnswer(data, ())
    if last_error:
        return ParsedAnswer(None, (say("answer_not_json", why=last_error),))
    return ParsedAnswer(None, (say("answer_no_object"),))


def _no_constant(name: str) -> Any:
    raise ValueError(say("answer_not_number", name=name))


def _first_object(text: str) -> str | None:
    """The text of the first balanced {...} (strings and escapes respected), or None."""
    start = text.find("{")
    while start >= 0:
        depth, in_string, escaped = 0, False, False
        for i in range(start, len(text)):
            char = text[i]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return text[start : i + 1]
        # unbalanced from here: give the rest to json.loads so that its error names the spot
        return text[start:]
    return None


EXCERPT_CHARS = 200  # of a failed chapter's last answer, shown to the author


def answer_excerpt(text: str) -> str:
    """The start of what the model answered, on one line, so the author sees why it failed."""
    flat = " ".join(text.split())
    if not flat:
        return say("answer_excerpt_empty")
    shown = flat[:EXCERPT_CHARS] + ("…" if len(flat) > EXCERPT_CHARS else "")
    return say("answer_excerpt", limit=EXCERPT_CHARS, excerpt=shown)


def repair_request(problems: tuple[str, ...] | list[str]) -> str:
    """The user turn that asks for a corrected answer, quoting each problem by its JSON path."""
    listed = list(problems)[:MAX_QUOTED_PROBLEMS]
    more = len(problems) - len(listed)
    lines = [
        say("repair_head"),
        *(f"- {p}" for p in listed),
    ]
    if more > 0:
        lines.append(say("repair_more", more=more))
    lines.append(say("repair_ask"))
    return "\n".join(lines)
