"""What a commit checks of what it is given before applying it, and the warning it gives when
chapters before it are missing."""

from __future__ import annotations

from typing import Any

from ...errors import InvalidChapterResult
from ...messages import say
from .json_hygiene import json_problems


def check_text(text: Any) -> None:
    """A chapter's text, when given, is a string the store can keep (no NUL, no lone
    surrogate): refused as the result would be."""
    if text is None:
        return
    if not isinstance(text, str):
        raise InvalidChapterResult([say("text_not_string", got=type(text).__name__)])
    if problems := json_problems(text, "text"):
        raise InvalidChapterResult(problems)


def gap_warning(missing: list[int]) -> str:
    """「缺第2–4章」: the run of chapters missing before this one, and how many in all."""
    run = [missing[-1]]
    while len(run) < len(missing) and missing[-len(run) - 1] == run[0] - 1:
        run.insert(0, missing[-len(run) - 1])
    span = say("chapter_n", n=run[0]) if len(run) == 1 else say("chapter_span", a=run[0], b=run[-1])
    more = say("commit_gap_in_all", count=len(missing)) if len(missing) > len(run) else ""
    return say("commit_gap", span=span, more=more)
