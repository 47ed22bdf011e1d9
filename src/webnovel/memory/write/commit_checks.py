"""What a commit checks of what it is given before applying it, and what it says of where its
chapter stands (another version replaced, chapters missing before it)."""

from __future__ import annotations

from typing import Any

from ...errors import InvalidChapterResult
from ...messages import say
from ..store import commit_ops, revision_ops
from ..store.connection import Connection
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


def where_it_stands(
    conn: Connection, chapter: int, standing: dict[int, str], text: str | None, source: str | None
) -> tuple[tuple[str, ...], str | None]:
    """What a commit says of where its chapter stands (another version replaced, chapters
    missing before it), and the text's file (the same text, a new result: still its file)."""
    said: tuple[str, ...] = ()
    if (current := standing.get(chapter)) is not None:
        # said, because another writer (another agent, another machine) may have committed
        # this chapter a moment ago: the later commit is the one that stands
        said += (say("commit_replaced_version", chapter=chapter, previous=current),)
        if text and source is None:
            source = revision_ops.source_of_same_text(conn, chapter, text)
    if chapter > 1 and chapter - 1 not in standing:
        said += (gap_warning(commit_ops.missing_chapters(conn, chapter)),)
    return said, source
