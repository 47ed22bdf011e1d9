"""webnovel-memory: long-term temporal memory for serialized web-novel writing with AI agents."""

from importlib import metadata as _metadata

from .errors import (
    BookBusy,
    InvalidChapterResult,
    InvalidInput,
    ReviewBlocked,
    UnknownChapter,
    UnknownEntity,
    WebnovelError,
)
from .project import Project, init_project, open_project

__all__ = [
    "BookBusy",
    "InvalidChapterResult",
    "InvalidInput",
    "Project",
    "ReviewBlocked",
    "UnknownChapter",
    "UnknownEntity",
    "WebnovelError",
    "init_project",
    "open_project",
]
try:
    __version__ = _metadata.version("webnovel-memory")  # pyproject.toml is the one source
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
