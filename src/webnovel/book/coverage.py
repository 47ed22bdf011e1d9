"""Which chapters stand on their text alone: imported (`import text`), never read by a model
or an agent. Once a book holds both kinds, what memory says after the first such chapter may
be out of date (汤怀 still alive in the pack for 第八十二回 because only 1–5 were extracted), so
the pack and `resume` say which chapters, as `text_only_chapters` (numbers, and `[from, to]`
for runs), and in text as a line (the catalogue's `text_only_line`) naming the chapter after
which states may be stale.

A chapter imported now is marked (`chapter_meta.origin == "text_import"`); one imported before
that mark existed is recognised by its result, no more than the minimal import shape
(`memory.write.import_shape.is_minimal`), with the text and the word count an import always gave it, so
an old book's coverage is right too, and an agent's bare result (a chapter number, perhaps a
title) is not taken for an import.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..memory.write.import_shape import IMPORT_ORIGIN, MINIMAL_META, is_minimal
from ..messages import say
from ..prose.measure import char_count

if TYPE_CHECKING:
    from ..memory.records import ChapterRecord
    from ..memory.store.parts import Commits

Ranges = list[int | list[int]]

# Each book's flags (chapter, stands on its text alone), read once per commit: the commit
# sequence number they were read at, kept with the book's store for as long as it is open.
_HELD: weakref.WeakKeyDictionary[Commits, tuple[int, list[tuple[int, bool]]]] = (
    weakref.WeakKeyDictionary()
)


def text_only(commits: Commits, before: int | None = None) -> list[int]:
    """The chapters (before `before`, when given) standing on a text import's result alone,
    when the book (`commits`: its store's commits) also holds chapters that do not; else none.
    Read once per commit."""
    seq = int(commits.meta("commit_seq") or 0)
    held = _HELD.get(commits)
    if held is None or held[0] != seq:
        rows = commits.chapter_rows()
        flags = [(r.chapter, _imported_only(commits, r)) for r in rows]
        held = (seq, flags)
        _HELD[commits] = held
    flags = [(c, t) for c, t in held[1] if before is None or c < before]
    only = [c for c, t in flags if t]
    return only if only and len(only) < len(flags) else []


def _imported_only(commits: Commits, row: ChapterRecord) -> bool:
    """Whether the chapter stands on a text import's result: marked so, or (an import older
    than the mark) unmarked, unsummarized and no more than the minimal shape. Only such rows
    read their result."""
    origin = row.meta.get("origin")
    if origin is not None or row.summary or not set(row.meta) <= MINIMAL_META:
        return bool(origin == IMPORT_ORIGIN)
    stored = commits.current_commit(row.chapter) or {}
    result, text = stored.get("result"), stored.get("text")
    # An import always brought the text and counted it: an agent's bare result (no summary,
    # perhaps no text) is as small, but was not imported and stands on no text.
    return (
        is_minimal(result)
        and isinstance(result, dict)
        and isinstance(text, str)
        and bool(text)
        and result.get("word_count") == char_count(text)
    )


def as_ranges(chapters: list[int]) -> Ranges:
    """[1, 2, 3, 5] → [[1, 3], 5]: a run of two or more as [from, to]."""
    out: Ranges = []
    start = previous = None
    for chapter in [*sorted(chapters), None]:
        if previous is not None and chapter == previous + 1:
            previous = chapter
            continue
        if start is not None and previous is not None:
            out.append(start if start == previous else [start, previous])
        start = previous = chapter
    return out


def coverage_line(ranges: Ranges) -> str | None:
    """The line a person reads: which chapters stand on their text alone (`as_ranges`), and
    after which chapter the states may be out of date."""
    if not ranges:
        return None
    shown = say("argument_list_separator").join(
        say("chapter_n", n=r) if isinstance(r, int) else say("chapter_span", a=r[0], b=r[1])
        for r in ranges
    )
    first = ranges[0] if isinstance(ranges[0], int) else ranges[0][0]
    if first == 1:  # no chapter 0 to date it from: states may be out of date from the start
        return say("text_only_line_from_start", chapters=shown)
    return say("text_only_line", chapters=shown, after=first - 1)


def coverage(commits: Commits, before: int | None = None) -> dict[str, Any]:
    ranges = as_ranges(text_only(commits, before))
    return {"text_only_chapters": ranges, "line": coverage_line(ranges)}
