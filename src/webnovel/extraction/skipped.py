"""Why a run left chapters of its range unread, said in its report (trial 4, §7).

`extract_chapter {"chapter": 11}` on a chapter an agent wrote used to answer success with
`chapters: []` and no word why: an agent could not tell "nothing to do" from "it did nothing".
Each reason is a stable `code` an agent acts on, with the chapters and a sentence:

- `has_result`: the chapter stands on a result of its own (an agent's, the author's, an earlier
  extraction's), not a text import's minimal one, and a model reads it again only when forced;
- `no_text`: no text of the chapter is stored for a model to read;
- `not_stored`: no chapter of that number was committed (said only for one chapter asked for:
  a range's gaps are the book's, not a refusal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..memory.schema import JsonRecord
from ..memory.write.import_shape import is_minimal
from ..messages import say

if TYPE_CHECKING:
    from .handle import Extracting


@dataclass(frozen=True, kw_only=True)
class Skipped(JsonRecord):
    code: str  # has_result, no_text or not_stored
    chapters: list[int]
    message: str


def skipped_chapters(
    book: Extracting,
    start: int | None,
    end: int | None,
    planned: set[int],
    no_endpoint: str | None,
) -> list[Skipped]:
    """The chapters of `start`..`end` a run leaves unread, grouped by why; `no_endpoint` (why
    no model can be asked, None when one can) is added to the advice to force a reading."""
    by_code: dict[str, list[int]] = {}
    stored = set()
    for row in book.chapters():
        number = row["chapter"]
        if (start is not None and number < start) or (end is not None and number > end):
            continue
        stored.add(number)
        if number in planned:
            continue
        commit: dict[str, Any] = book.stored_commit(number) or {}
        text = commit.get("text") or ""
        if text.strip() and is_minimal(commit.get("result")):
            continue  # a run planning it would have: not a chapter this run passed over
        by_code.setdefault("has_result" if text.strip() else "no_text", []).append(number)
    if start is not None and start == end and start not in stored:
        by_code["not_stored"] = [start]
    return [
        Skipped(code=code, chapters=chapters, message=_message(code, chapters, no_endpoint))
        for code, chapters in by_code.items()
    ]


def _message(code: str, chapters: list[int], no_endpoint: str | None) -> str:
    which = (
        say("chapter_n", n=chapters[0])
        if len(chapters) == 1
        else say("agent2_chapters_between", count=len(chapters), a=chapters[0], b=chapters[-1])
    )
    said = say(f"agent2_skipped_{code}", chapters=which)
    if code == "has_result" and no_endpoint is not None:
        said += say("agent2_skipped_no_endpoint", reason=no_endpoint)
    return said
