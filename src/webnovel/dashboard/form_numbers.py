"""A number as a URL or a form writes it, read without surprises. A chapter number:
`str.isdigit` alone takes ² or ٣ (which `int` refuses), Python refuses to read more than 4,300
digits, and SQLite holds no integer past 2**63, so each of these answered a 500 instead of a
page. Any other number (a page, a hop count) is held within its bounds."""

from __future__ import annotations

from ..book.revising import MAX_CHAPTER
from ..errors import InvalidInput

MAX_DIGITS = len(str(MAX_CHAPTER))
BEYOND = MAX_CHAPTER + 1  # what a number longer than any chapter number is read as
HIGH = f"{MAX_CHAPTER:,}"  # the highest chapter number, as the facade's refusal writes it


def written_number(raw: str) -> int | None:
    """`raw` as a number when it is ASCII digits (BEYOND when it has more of them than any
    chapter number), else None: the caller says what was wrong, or takes it as not given."""
    if not (raw.isascii() and raw.isdigit()):
        return None
    return BEYOND if len(raw.lstrip("0")) > MAX_DIGITS else int(raw)


def written_chapter(raw: str, what: str) -> int | None:
    """`raw` as a chapter number when it is ASCII digits, else None; a number past any chapter's
    is refused naming `what`, said as written (not as the BEYOND it is read as)."""
    number = written_number(raw)
    if number is not None and number > MAX_CHAPTER:
        got = raw if len(raw) <= 20 else raw[:20] + "…"
        raise InvalidInput.of("not_a_chapter", what=what, high=HIGH, got=got)
    return number


def bounded_int(raw: str | None, default: int, low: int, high: int) -> int:
    """A number a URL gives (a page, a hop count, a sequence number) held within `low`..`high`;
    `default` when it is missing or not a number."""
    try:
        return min(max(int(raw or ""), low), high)
    except ValueError:
        return default
