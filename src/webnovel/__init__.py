"""webnovel-memory: long-term temporal memory for serialized web-novel writing with AI agents."""

from .book import Project, init_project, open_project
from .errors import (
    BookBusy,
    InvalidChapterResult,
    InvalidInput,
    ReviewBlocked,
    UnknownChapter,
    UnknownEntity,
    WebnovelError,
)

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


def __getattr__(name: str) -> str:
    """`webnovel.__version__`, read from the installed metadata when first asked for: reading it
    costs a fresh CLI process some 20 ms, and most commands never need it."""
    if name != "__version__":
        raise AttributeError(f"module 'webnovel' has no attribute {name!r}")
    from importlib import metadata

    try:
        version = metadata.version("webnovel-memory")  # pyproject.toml is the one source
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        version = "0+unknown"
    globals()["__version__"] = version
    return version
