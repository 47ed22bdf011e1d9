"""What a chapter heading's own number says against the number the book gives the chapter. Where
they agree, the number need not be said twice: the title is the heading's words. Where an import
into a book that has chapters would give a file's first numbered heading a later number than it
says (its 第一章 becoming 第13章), the file starts its numbering over: another novel, or a
revised edition that should replace chapters by number; `import text` says so rather than
append it unasked."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..ingest.text_import import ImportedChapter, heading_parts
from ..memory.write.numbers import chinese_numeral


def heading_value(written: str) -> int | None:
    """The number a heading writes: 1998 for 「一千九百九十八」, 「1998」 or 「１９９８」; None for
    one the numeral reader does not know (壹贰叁)."""
    folded = unicodedata.normalize("NFKC", written)
    return int(folded) if folded.isdecimal() else chinese_numeral(folded)


def imported_title(heading: str, chapter: int) -> str:
    """The title of a chapter committed as `chapter` under `heading`: the heading's words
    (第1998回目 for 「第一千九百九十八章 第1998回目」 as chapter 1998; nothing for 「第2章」 as
    chapter 2), since every listing says the chapter's number already. Where the heading says
    another number (a prologue or a repeated number moved the count, an import `--start`ed
    elsewhere), or none, the whole heading stays the title: the source's own number is then
    news."""
    written, words = heading_parts(heading)
    if written is None and heading.strip().isdecimal():  # a chapter file's name: 012.txt
        written, words = heading.strip(), ""
    return words if written is not None and heading_value(written) == chapter else heading.strip()


@dataclass(frozen=True)
class Renumbering:
    """A file's first numbered heading and the number an import would give it instead."""

    heading: str
    says: int  # the heading's own number
    becomes: int  # the chapter it would be committed as

    @property
    def starts_over(self) -> bool:
        """Its numbering goes back (第一章 after the book's 第12章): another novel, or a revised
        edition, never a continuation."""
        return self.says < self.becomes


def renumbering(chapters: Sequence[ImportedChapter], first: int) -> Renumbering | None:
    """Whether the file's first numbered heading would be committed under another number, when
    its chapters are numbered from `first` (a prologue before it counts as a chapter)."""
    for place, chapter in enumerate(chapters):
        written, _ = heading_parts(chapter.heading)
        says = heading_value(written) if written is not None else None
        if says is not None:
            becomes = first + place
            return Renumbering(chapter.heading, says, becomes) if says != becomes else None
    return None
