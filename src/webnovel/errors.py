"""The one exception tree of webnovel-memory.

    WebnovelError                    code            exit  HTTP
    ├── InvalidInput                 invalid_argument   2   400  bad input or usage
    │   ├── InvalidChapterResult     invalid_chapter_result  a chapter result failed validation
    │   ├── InvalidConfig            invalid_config          config.toml unreadable or mistyped
    │   └── LinkRefused              link_refused            a path the book controls is a link
    └── DomainError                  domain_error       1   400  a well-formed request the book
        │                                                        cannot answer
        ├── ProjectNotFound          project_not_found       404  no `.webnovel/` folder there
        ├── ProjectExists            project_exists              `init` on a folder with a book
        ├── UnknownEntity            unknown_entity          404  no entity id, name or alias
        ├── AmbiguousEntity          ambiguous_entity            several entities match
        ├── UnknownChapter           unknown_chapter         404  no commit for that chapter
        ├── UnknownConflict          unknown_conflict        404  no conflict of that id
        ├── UnknownQuery             unknown_query           404  no query of that name
        ├── ReviewBlocked            review_blocked              `commit --check` found blockers
        ├── BookBusy                 book_busy                   the write lock was held too long
        ├── DamagedBook              damaged_book                a SQLite file we did not make
        │   └── DamagedCache         damaged_cache               answers.db is: delete it
        ├── StoreUnavailable         store_unavailable       503  PostgreSQL refused or dropped us
        ├── StoreForbidden           store_forbidden         503  its user may not do this
        ├── UnknownBook              unknown_book            404  a book the store does not hold
        ├── EndpointFailed           endpoint_failed             a model endpoint failed
        ├── ExtractionFailed         extraction_failed           a chapter's answers stayed bad
        └── PublishedChapterRevised  published_chapter_revised   readers have that chapter

An error carries data, not a sentence: the catalogue key of its message and the message's
arguments (`InvalidInput.of("not_a_number", name=…)`), its `code` (a stable English identifier
an agent or a script acts on), its `exit_code` and its `http_status`. `str(exc)` renders the
sentence in the reader's language when an adapter shows it, and only then: the CLI prints it on
stderr with the exit code, MCP answers `{"code", "message", "details"}`, the dashboard's JSON
the same under `error` (docs/contract.md). An error raised with a sentence already made (a
library's words, a message built from several keys) still works, with no arguments.

An error may also carry its next step (`NextStep`): what to do about it, as data, said in its
message's `{next}` by the surface showing it (`said(surface)`: a command at the terminal, a tool
to an agent over MCP, a page on the dashboard; `str(exc)` is the terminal's), and kept in its
details as `next_step`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from .messages import say

if TYPE_CHECKING:
    from .extraction.report import ExtractionReport


def _plain(value: Any) -> Any:
    """An argument as JSON has it: numbers, strings, lists stay; anything else as its text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, PurePath):
        return str(value)
    return str(value)


class Surface(StrEnum):
    """Where an error is shown: the part of each step's catalogue key naming its words."""

    CLI = "cli"
    MCP = "mcp"
    PAGE = "page"  # the dashboard, a page or its JSON


@dataclass(frozen=True)
class NextStep:
    """The next step an error points its reader to, as data. Each surface says it in its own
    words, so that an agent over MCP is not told a terminal command it cannot run: the CLI
    names the command, MCP the tool and its arguments (or, when no tool does it, that the
    author decides), the dashboard its page or control. Its words are the catalogue's
    `next_<action>_<surface>` (messages/mcphint.py), filled with `arguments`.

    `action`: what to do, a stable English name an agent or a script acts on (`details` carry
    it); `arguments`: what it is done with (ids, not names: the name may be the problem)."""

    action: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def said(self, surface: Surface) -> str:
        """The step in the words of `surface`, in the reader's language."""
        return say(f"next_{self.action}_{surface}", **self.arguments)

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "arguments": dict(self.arguments)}


class WebnovelError(Exception):
    """Root of every error this package raises on purpose: what went wrong, as data."""

    code: ClassVar[str] = "error"
    exit_code: ClassVar[int] = 1
    http_status: ClassVar[int] = 400
    # an error made by Exception's own constructor (JsonTooBig) reads as a sentence
    key: str | None = None
    arguments: dict[str, Any] = {}  # noqa: RUF012 - read only: each error sets its own
    _details: dict[str, Any] | None = None
    next_step: NextStep | None = None

    def __init__(
        self,
        message: str = "",
        /,
        *,
        key: str | None = None,
        arguments: Mapping[str, Any] | None = None,
        details: Mapping[str, Any] | None = None,
        next_step: NextStep | None = None,
    ) -> None:
        super().__init__(message if key is None else key)
        self.key = key
        self.arguments: dict[str, Any] = dict(arguments or {})
        self._details = None if details is None else dict(details)
        self.next_step = next_step

    @classmethod
    def of(cls, message_key: str, /, **arguments: Any) -> Self:
        """The error whose message is the catalogue's `message_key` filled with `arguments`."""
        return cls(key=message_key, arguments=arguments)

    def __str__(self) -> str:
        return self.said(Surface.CLI)

    def said(self, surface: Surface) -> str:
        """The sentence as `surface` shows it: its next step in that surface's words."""
        if self.key is None:
            return super().__str__()
        if self.next_step is None:
            return say(self.key, **self.arguments)
        return say(self.key, **{**self.arguments, "next": self.next_step.said(surface)})

    @property
    def details(self) -> dict[str, Any]:
        """What the error is about, as JSON values: its message's arguments, or the structured
        facts a subclass names (the suggestions of an unknown name, the problems of a result);
        and its next step, `{"action", "arguments"}`, when it has one."""
        facts = dict(self.arguments if self._details is None else self._details)
        if self.next_step is not None:
            facts["next_step"] = self.next_step.to_dict()
        return {name: _plain(value) for name, value in facts.items()}

    def as_json(self, surface: Surface) -> dict[str, Any]:
        """`{"code", "message", "details"}`: what MCP and the dashboard's JSON answer."""
        return {"code": self.code, "message": self.said(surface), "details": self.details}


class InvalidInput(WebnovelError):
    """The request itself is malformed."""

    code = "invalid_argument"
    exit_code = 2


class InvalidChapterResult(InvalidInput):
    """A chapter result failed validation; `problems` holds one line per bad JSON path."""

    code = "invalid_chapter_result"

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source or say("chapter_result")
        listed = "; ".join(self.problems)
        super().__init__(
            key="invalid_result",
            arguments={"source": self.source, "count": len(self.problems), "problems": listed},
            details={"source": self.source, "problems": self.problems},
        )


class InvalidConfig(InvalidInput):
    """The book's config.toml is unreadable or has a value of the wrong type."""

    code = "invalid_config"


class LinkRefused(InvalidInput):
    """A path the book folder controls (in `.webnovel/`, its outlines, a text found in a folder)
    is a symbolic link, or not a regular file: a received book must not make the program read
    or write outside it (docs/security.md). The message names the link and where it points."""

    code = "link_refused"


class DomainError(WebnovelError):
    """A well-formed request that the book's memory cannot satisfy."""

    code = "domain_error"
    exit_code = 1


class ProjectNotFound(DomainError):
    """No book (a folder holding `.webnovel/`) was found."""

    code = "project_not_found"
    http_status = 404


class ProjectExists(DomainError):
    """A book already exists where `init` was asked to create one."""

    code = "project_exists"


class UnknownEntity(DomainError):
    """No entity has this id, name or alias; `suggestions` are the book's names it may mean."""

    code = "unknown_entity"
    http_status = 404

    def __init__(self, reference: str, suggestions: Sequence[str] = ()) -> None:
        self.reference = reference
        self.suggestions = list(suggestions)
        hint = ""
        if self.suggestions:
            hint = say(
                "did_you_mean_names",
                names=quoted_list(self.suggestions),
                listed=", ".join(self.suggestions),
            )
        super().__init__(
            key="unknown_entity",
            arguments={"ref": reference, "hint": hint},
            details={"reference": reference, "suggestions": self.suggestions},
        )


class AmbiguousEntity(DomainError):
    """Several entities share this name or alias."""

    code = "ambiguous_entity"

    def __init__(self, reference: str, candidates: list[str]) -> None:
        self.reference = reference
        self.candidates = list(candidates)
        # the repair that exists, with the ids (the name is the problem): the candidates come
        # latest introduced first, so the newcomer is merged into the one known longest
        repair = None
        if len(self.candidates) > 1:
            newer, older = self.candidates[0], self.candidates[-1]
            repair = NextStep("merge_or_rename", {"newer": newer, "older": older})
        names = say("argument_list_separator").join(candidates)
        super().__init__(
            key="ambiguous_entity",
            arguments={"ref": reference, "names": names, "next": ""},
            details={"reference": reference, "candidates": self.candidates},
            next_step=repair,
        )


class UnknownChapter(DomainError):
    """The book holds no commit for this chapter."""

    code = "unknown_chapter"
    http_status = 404

    def __init__(self, chapter: int) -> None:
        self.chapter = chapter
        super().__init__(key="unknown_chapter", arguments={"chapter": chapter})


class UnknownConflict(DomainError):
    """No conflict has this id."""

    code = "unknown_conflict"
    http_status = 404

    def __init__(self, conflict_id: str) -> None:
        self.conflict_id = conflict_id
        super().__init__(
            key="unknown_conflict",
            arguments={"id": conflict_id},
            next_step=NextStep("list_conflicts"),
        )


class UnknownQuery(DomainError):
    """`/api/query/NAME` named no query of the table."""

    code = "unknown_query"
    http_status = 404


def quoted_list(names: Sequence[str]) -> str:
    """「林砚」、「林言」: names quoted and listed as the reader's language does."""
    return say("argument_list_separator").join(say("quoted", text=n) for n in names)


class BlockingIssue(Protocol):
    """What a refused commit says of each blocking issue review found (memory/review's
    `ReviewIssue`, named by shape: this module imports nothing of ours)."""

    @property
    def message(self) -> str: ...

    @property
    def fix_hint(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


class ReviewBlocked(DomainError):
    """A checked commit was refused: its review found blocking issues; nothing was written."""

    code = "review_blocked"

    def __init__(
        self, chapter: int, messages: list[str], blocking: list[dict[str, Any]] | None = None
    ) -> None:
        """`messages`: each issue in one sentence with its fix; `blocking`: the same issues as
        review gives them (kind, severity, entity, field, fix hint), for an agent to act on."""
        self.chapter = chapter
        self.messages = list(messages)
        listed = "；".join(f"{n}. {m}" for n, m in enumerate(messages, start=1))
        details: dict[str, Any] = {"chapter": chapter, "issues": self.messages}
        if blocking is not None:
            details["blocking"] = blocking
        super().__init__(
            key="review_blocked",
            arguments={"chapter": chapter, "count": len(messages), "listed": listed},
            details=details,
            next_step=NextStep("force_commit"),
        )

    @classmethod
    def of_issues(cls, chapter: int, issues: Sequence[BlockingIssue]) -> ReviewBlocked:
        """The refusal of a checked commit: each issue with its fix hint, and as review gives it."""
        messages = [
            i.message + (say("fix_hint", hint=i.fix_hint) if i.fix_hint else "") for i in issues
        ]
        return cls(chapter, messages, [i.to_dict() for i in issues])


class BookBusy(DomainError):
    """Another process (a commit, a rebuild, a search catching the index up) held the book's
    write lock for longer than a writer waits."""

    code = "book_busy"

    def __init__(self, path: str, waited_seconds: float) -> None:
        super().__init__(
            key="book_busy", arguments={"path": path, "seconds": f"{waited_seconds:.0f}"}
        )


class DamagedBook(DomainError):
    """A book's SQLite file (`index.db`, `vectors.db`) is not what our migrations make: a
    trigger or view in it, a table missing or changed, its migration rows deleted, a value that
    cannot be, or not a database at all. `problem` says which; `recoverable` whether `rebuild`
    can make the file anew from the commit log it can still read."""

    code = "damaged_book"

    def __init__(self, path: object, problem: str, recoverable: bool = False) -> None:
        self.path = path
        self.problem = problem
        self.recoverable = recoverable
        super().__init__(
            key=self._remedy(),
            arguments={"path": path, "problem": problem},
            details={"path": path, "problem": problem, "recoverable": recoverable},
            next_step=self._next_step(),
        )

    def _remedy(self) -> str:
        return "damaged_book_rebuild" if self.recoverable else "damaged_book_lost"

    def _next_step(self) -> NextStep | None:
        return NextStep("rebuild") if self.recoverable else None

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

    code = "damaged_cache"

    def _remedy(self) -> str:
        return "damaged_cache"

    def _next_step(self) -> NextStep | None:
        return None  # its remedy, deleting it, is the same everywhere and said in the sentence


class StoreUnavailable(DomainError):
    """The PostgreSQL server named in the book's config.toml could not be reached, or dropped
    the connection mid-work (the store raises it, store/pg/pg_connection.py); the message names the
    server without its password."""

    code = "store_unavailable"
    http_status = 503


class StoreForbidden(DomainError):
    """The PostgreSQL user may not do what creating the book, bringing its schema up to this
    version, or a write, needs; the message says who may."""

    code = "store_forbidden"
    http_status = 503


class UnknownBook(DomainError):
    """`books --delete` named a book the store does not hold."""

    code = "unknown_book"
    http_status = 404

    def __init__(self, book: str) -> None:
        super().__init__(key="store_no_such_book", arguments={"book": book})


class EndpointFailed(DomainError):
    """A model or embedding endpoint could not be reached or gave an unusable answer; the
    message names the endpoint in one sentence."""

    code = "endpoint_failed"


class ExtractionFailed(DomainError):
    """A model's answers for a chapter stayed unusable after the repair rounds; that chapter
    and those after it were not committed. `report` holds what the run did until then."""

    code = "extraction_failed"

    def __init__(self, chapter: int, problem: str, report: ExtractionReport | None = None) -> None:
        self.chapter = chapter
        self.problem = problem
        self.report = report
        super().__init__(
            key="extraction_failed", arguments={"chapter": chapter, "problem": problem}
        )


class ReplacementChangesAnswers(DomainError):
    """A checked commit that would replace an earlier chapter (one before the latest) with
    another result, changing what the book answers, was refused unless forced: an agent that
    wrote the wrong chapter number must not erase what that chapter recorded. `details` hold
    the changed answers as `impact` gives them; nothing was written."""

    code = "replacement_changes_answers"

    def __init__(
        self, arguments: Mapping[str, Any], changed: list[dict[str, Any]], count: int
    ) -> None:
        facts = {
            "chapter": arguments["chapter"],
            "latest": arguments["latest"],
            "answers_changed": count,
            "changed": changed,
        }
        super().__init__(
            key="replacement_refused",
            arguments=arguments,
            details=facts,
            next_step=NextStep("force_replacement"),
        )


class UnknownVersion(DomainError):
    """`restore` found no version of the chapter in the log other than the one it stands on
    (or none under the id given)."""

    code = "unknown_version"
    http_status = 404

    def __init__(self, chapter: int, commit_id: str | None) -> None:
        key = "restore_no_version" if commit_id is None else "restore_no_such_version"
        super().__init__(key=key, arguments={"chapter": chapter, "commit_id": commit_id})


class PublishedChapterRevised(DomainError):
    """A commit or retraction of a chapter readers already have was refused (without force):
    the message names what would change and the published chapters it contradicts; nothing
    was written. `impact` is the whole impact (book/revising.py)."""

    code = "published_chapter_revised"

    def __init__(self, arguments: Mapping[str, Any], impact: object) -> None:
        self.impact = impact
        super().__init__(
            key="published_revision_refused",
            arguments=arguments,
            next_step=NextStep("force_published"),
        )
