"""The facade: one book, opened. `BookReader` answers as of any chapter; `Project` is a reader
that also writes, builds packs, searches and imports. Adapters (CLI, MCP, dashboard) call these and
nothing below them."""

from .opening import (
    find_book_root,
    holds_book,
    init_project,
    open_project,
    plan_upstream_import,
    recover_book,
)
from .project import Project
from .reader import BookReader

__all__ = [
    "BookReader",
    "Project",
    "find_book_root",
    "holds_book",
    "init_project",
    "open_project",
    "plan_upstream_import",
    "recover_book",
]
