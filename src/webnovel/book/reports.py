"""The reports of the book's own work: its health (`stats`), a summarize run, and the two kinds
of import. Each is a value its renderer reads by name; `to_dict()` is its JSON, the shape the
contract fixes (a dry run's text import has no `unchanged`, a report without candidates no
`candidate_names`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..memory.schema import JsonRecord
from ..prose.measure import char_count
from .coverage import as_ranges

if TYPE_CHECKING:
    from ..ingest.name_finder import Candidate
    from ..ingest.text_import import ImportedChapter

FIRST_LINE_CHARS = 40  # of front matter, shown in the import report


@dataclass(frozen=True, kw_only=True)
class BookStats(JsonRecord):
    """Counts, sizes, schema and gaps: the book's health at a glance."""

    book: dict[str, Any]  # title, genre, folder (and the store, for a shared one)
    latest_chapter: int | None
    missing_chapters: list[int]  # from 1 to the latest, the chapters with no commit
    published_through: int | None  # the last chapter readers have (`publish --through`)
    counts: dict[str, int]  # rows of each kind of record
    open_conflicts: int
    open_threads: int
    sizes_bytes: dict[str, int]  # each store and projection
    schema: list[str]  # the migrations applied
    # chapters standing on their imported text alone, beside extracted ones (`book.coverage`)
    text_only_chapters: list[Any] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Summarized(JsonRecord):
    """What `summarize` did: chapters that stood only on a text import got their summary."""

    chapters: int
    summarized: int
    unchanged: int
    skipped: int  # written by a model or an agent, or without a text


@dataclass(frozen=True, kw_only=True)
class ChapterFound(JsonRecord):
    """A chapter a text import found, under the number it is (or would be) committed as."""

    chapter: int
    title: str
    volume: str | None
    chars: int  # its word_count, as committed (`char_count`)


@dataclass(frozen=True, kw_only=True)
class DoubledChapter(JsonRecord):
    """A chapter the source holds twice, left out of the book: the text is here, not lost."""

    title: str
    chars: int  # counted as a chapter's word_count
    same_as: int  # the chapter (as committed) whose text it repeats
    similarity: float  # 1.0: the same text
    text: str


@dataclass(frozen=True, kw_only=True)
class FrontMatter(JsonRecord):
    """Text under no chapter heading, kept with the chapter it stands before."""

    chapter: int
    title: str
    chars: int  # not counting whitespace
    first_line: str  # its first line that is not blank, cut at FIRST_LINE_CHARS
    kept_in: str = "chapter_meta.front_matter"

    @classmethod
    def of(cls, number: int, title: str, chapter: ImportedChapter) -> FrontMatter:
        """What an import did with the front matter it kept with chapter `number`, titled
        `title`."""
        lines = (line.strip() for line in chapter.front_matter.splitlines())
        return cls(
            chapter=number,
            title=title,
            chars=char_count(chapter.front_matter),
            first_line=next((line for line in lines if line), "")[:FIRST_LINE_CHARS],
        )


@dataclass(frozen=True, kw_only=True)
class TextImport(JsonRecord):
    """What `import text` found, and (unless a dry run) committed."""

    chapters: list[ChapterFound]
    warnings: list[str]
    committed: int
    encodings: dict[str, int]  # files read in each encoding
    front_matter: list[FrontMatter]
    unchanged: int | None = None  # None: a dry run, nothing was written
    candidate_names: list[Candidate] | None = None  # asked for with --candidates
    doubled: list[DoubledChapter] = field(default_factory=list)  # left out as repeats
    # what was committed (not in a dry run): chapters new to the book, chapters whose text
    # changed, chapters whose text is the same but whose result changed (a cast, a title)
    added: list[int] = field(default_factory=list)
    text_changed: list[int] = field(default_factory=list)
    result_changed: list[int] = field(default_factory=list)
    # chapters whose result an agent, the author or `extract` committed: kept (stale when the
    # text changed); in a dry run, the chapters that would keep theirs
    kept: list[int] = field(default_factory=list)
    # of `text_changed`, the published chapters (readers have read them): logged as revisions
    published_revised: list[int] = field(default_factory=list)
    published_through: int | None = None
    # chapters the author retracted that the text still holds (book/retracted_in_import.py):
    # kept out (the same text as retracted, without --force), or brought back; in a dry run,
    # what the import would do
    retracted_kept_out: list[int] = field(default_factory=list)
    retracted_back: list[int] = field(default_factory=list)

    @property
    def dry_run(self) -> bool:
        return self.unchanged is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "chapters": [c.to_dict() for c in self.chapters],
            "warnings": list(self.warnings),
            "committed": self.committed,
            "encodings": dict(self.encodings),
            "front_matter": [f.to_dict() for f in self.front_matter],
            "doubled": [d.to_dict() for d in self.doubled],
        }
        if self.unchanged is not None:
            out["unchanged"] = self.unchanged
            out["added"] = as_ranges(self.added)
            out["text_changed"] = as_ranges(self.text_changed)
            out["result_changed"] = as_ranges(self.result_changed)
        if self.kept:
            out["kept"] = as_ranges(self.kept)
        for key in ("retracted_kept_out", "retracted_back"):
            if getattr(self, key):
                out[key] = as_ranges(getattr(self, key))
        if self.published_revised:
            out["published_revised"] = as_ranges(self.published_revised)
            out["published_through"] = self.published_through
        if self.candidate_names is not None:
            out["candidate_names"] = [c.to_dict() for c in self.candidate_names]
        return out


@dataclass(frozen=True, kw_only=True)
class UpstreamImport(JsonRecord):
    """What an import of a webnovel-writer project brings in (a dry run: committed,
    unchanged and conflicts are 0)."""

    source: str
    title: str
    genre: str | None
    chapters: int
    texts: int  # chapters with a text
    counts: dict[str, int]  # records of each kind in the chapter results
    unmapped: dict[str, int]  # upstream records with no place in a chapter result
    warnings: list[str]
    committed: int = 0
    unchanged: int = 0
    conflicts: int = 0

    @property
    def dry_run(self) -> bool:
        return self.committed == 0 and self.unchanged == 0
