"""webnovel-memory: long-term temporal memory for serialized web-novel writing with AI agents."""

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
__version__ = "0.1.0"
