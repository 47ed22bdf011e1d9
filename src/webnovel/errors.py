"""The one exception tree of webnovel-memory.

    WebnovelError
    ├── InvalidInput                 bad input or usage (CLI exit 2)
    │   ├── InvalidChapterResult     a chapter result failed validation; lists every problem
    │   ├── InvalidConfig            config.toml could not be read or has wrong types
    │   └── LinkRefused              a path the book controls is a link, or not a regular file
    └── DomainError                  a well-formed request the book cannot answer (CLI exit 1)
        ├── ProjectNotFound          no `.webnovel/` folder where one was expected
        ├── ProjectExists            `init` on a folder that already holds a book
        ├── UnknownEntity            a reference matches no entity id, name or alias
        ├── AmbiguousEntity          a reference matches several entities
        ├── UnknownChapter           a chapter the book has no commit for
        ├── UnknownConflict          a conflict id the book does not hold
        ├── ReviewBlocked            `commit --check` found blocking issues in the draft
        ├── BookBusy                 another process held the book's write lock too long
        ├── DamagedBook              a book's SQLite file is damaged, or not one our migrations made
        │   └── DamagedCache         a cache file of the book's (answers.db) is: delete it
        ├── StoreUnavailable         the book's PostgreSQL store could not be reached
        ├── UnknownBook              a book name the PostgreSQL store does not hold
        ├── EndpointFailed           a model or embedding endpoint failed or answered nonsense
        └── ExtractionFailed         a model's answers for a chapter stayed unusable

Adapters translate these: the CLI into one sentence on stderr and its exit code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .messages import say

if TYPE_CHECKING:
    from .extraction.report import ExtractionReport


class WebnovelError(Exception):
    """Root of every error this package raises on purpose."""

    exit_code = 1


class InvalidInput(WebnovelError):
    """The request itself is malformed."""

    exit_code = 2


class InvalidChapterResult(InvalidInput):
    """A chapter result failed validation; `problems` holds one line per bad JSON path."""

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source or say("chapter_result")
        listed = "; ".join(self.problems)
        super().__init__(
            say("invalid_result", source=self.source, count=len(self.problems), problems=listed)
        )


class InvalidConfig(InvalidInput):
    """The book's config.toml is unreadable or has a value of the wrong type."""


class LinkRefused(InvalidInput):
    """A path the book folder controls (in `.webnovel/`, its outlines, a text found in a folder)
    is a symbolic link, or not a regular file: a received book must not make the program read
    or write outside it (docs/security.md). The message names the link and where it points."""


class DomainError(WebnovelError):
    """A well-formed request that the book's memory cannot satisfy."""

    exit_code = 1


class ProjectNotFound(DomainError):
    """No book (a folder holding `.webnovel/`) was found."""


class ProjectExists(DomainError):
    """A book already exists where `init` was asked to create one."""


class UnknownEntity(DomainError):
    """No entity has this id, name or alias."""

    def __init__(self, reference: str, hint: str = "") -> None:
        self.reference = reference
        super().__init__(say("unknown_entity", ref=reference, hint=hint))


class AmbiguousEntity(DomainError):
    """Several entities share this name or alias."""

    def __init__(self, reference: str, candidates: list[str]) -> None:
        self.reference = reference
        self.candidates = list(candidates)
        super().__init__(say("ambiguous_entity", ref=reference, names="、".join(candidates)))


class UnknownChapter(DomainError):
    """The book holds no commit for this chapter."""

    def __init__(self, chapter: int) -> None:
        self.chapter = chapter
        super().__init__(say("unknown_chapter", chapter=chapter))


class UnknownConflict(DomainError):
    """No conflict has this id."""

    def __init__(self, conflict_id: str) -> None:
        self.conflict_id = conflict_id
        super().__init__(say("unknown_conflict", id=conflict_id))


class ReviewBlocked(DomainError):
    """A checked commit was refused: its review found blocking issues; nothing was written."""

    def __init__(self, chapter: int, messages: list[str]) -> None:
        self.chapter = chapter
        self.messages = list(messages)
        listed = "；".join(f"{n}. {m}" for n, m in enumerate(messages, start=1))
        super().__init__(say("review_blocked", chapter=chapter, count=len(messages), listed=listed))


class BookBusy(DomainError):
    """Another process (a commit, a rebuild, a search catching the index up) held the book's
    write lock for longer than a writer waits."""

    def __init__(self, path: str, waited_seconds: float) -> None:
        super().__init__(say("book_busy", path=path, seconds=f"{waited_seconds:.0f}"))


class DamagedBook(DomainError):
    """A book's SQLite file (`index.db`, `vectors.db`) is not what our migrations make: a
    trigger or view in it, a table missing or changed, its migration rows deleted, a value that
    cannot be, or not a database at all. `problem` says which; `recoverable` whether `rebuild`
    can make the file anew from the commit log it can still read."""

    def __init__(self, path: object, problem: str, recoverable: bool = False) -> None:
        self.path = path
        self.problem = problem
        self.recoverable = recoverable
        super().__init__(say(self._remedy(), path=path, problem=problem))

    def _remedy(self) -> str:
        return "damaged_book_rebuild" if self.recoverable else "damaged_book_lost"

    def with_remedy(self, recoverable: bool) -> DamagedBook:
        """The same problem, saying whether `rebuild` can recover the file."""
        return DamagedBook(self.path, self.problem, recoverable)


# SQLITE_CORRUPT (a malformed page or schema) and SQLITE_NOTADB, in an error's extended code
SQLITE_DAMAGE_CODES = (11, 26)


def is_sqlite_damage(exc: BaseException) -> bool:
    """Whether a sqlite3 error says the file is damaged: SQLite's corrupt or not-a-database,
    or text in it that is not UTF-8 (no SQLite code: the sqlite3 module's own complaint)."""
    import sqlite3  # the stdlib's; errors.py is imported everywhere and loads no more

    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    return code is None or code & 0xFF in SQLITE_DAMAGE_CODES


def one_line(text: object, limit: int = 200) -> str:
    """A damaged file's own words (SQLite's error quoting a mangled definition) fit to stand in
    one sentence: control characters and line breaks made spaces, cut at `limit`."""
    shown = "".join(c if c.isprintable() else " " for c in str(text))
    return " ".join(shown.split())[:limit]


class DamagedCache(DamagedBook):
    """A cache in the book's folder (the extraction's answers.db) holding what no code of ours
    made: deleting it is the remedy."""

    def _remedy(self) -> str:
        return "damaged_cache"


class StoreUnavailable(DomainError):
    """The PostgreSQL server named in the book's config.toml refused or dropped the connection;
    the message names the server without its password."""


class StoreForbidden(DomainError):
    """The PostgreSQL user may not do what creating the book, or bringing its schema up to this
    version, needs; the message says who may."""


class UnknownBook(DomainError):
    """`books --delete` named a book the store does not hold."""

    def __init__(self, book: str) -> None:
        super().__init__(say("store_no_such_book", book=book))


class EndpointFailed(DomainError):
    """A model or embedding endpoint could not be reached or gave an unusable answer; the
    message names the endpoint in one sentence."""


class ExtractionFailed(DomainError):
    """A model's answers for a chapter stayed unusable after the repair rounds; that chapter
    and those after it were not committed. `report` holds what the run did until then."""

    def __init__(self, chapter: int, problem: str, report: ExtractionReport | None = None) -> None:
        self.chapter = chapter
        self.problem = problem
        self.report = report
        super().__init__(say("extraction_failed", chapter=chapter, problem=problem))


class PublishedChapterRevised(DomainError):
    """A commit or retraction of a chapter readers already have was refused (without force):
    the message names what would change and the published chapters it contradicts; nothing
    was written. `impact` is the whole impact (book/revising.py)."""

    def __init__(self, message: str, impact: object) -> None:
        self.impact = impact
        super().__init__(message)
