"""A chapter number as a URL or a form writes it, read without surprises: `str.isdigit` alone
takes ² or ٣ (which `int` refuses), Python refuses to read more than 4,300 digits, and SQLite
holds no integer past 2**63, so each of these answered a 500 instead of a page."""

from __future__ import annotations

from ..book.revising import MAX_CHAPTER

MAX_DIGITS = len(str(MAX_CHAPTER))
BEYOND = MAX_CHAPTER + 1  # what a number longer than any chapter number is read as
HIGH = f"{MAX_CHAPTER:,}"  # the highest chapter number, as the facade's refusal writes it


def written_number(raw: str) -> int | None:
    """`raw` as a number when it is ASCII digits (BEYOND when it has more of them than any
    chapter number), else None: the caller says what was wrong, or takes it as not given."""
    if not (raw.isascii() and raw.isdigit()):
        return None
    return BEYOND if len(raw.lstrip("0")) > MAX_DIGITS else int(raw)
