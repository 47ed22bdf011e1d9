"""Finding, making and opening a book: in its folder's SQLite file, or in the shared
PostgreSQL store its folder's config names."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import render_config
from ..errors import ProjectExists, ProjectNotFound
from ..memory.store.libpq_reading import store_targets
from ..memory.store.location import (
    find_store_location,
    parse_store_section,
    render_store_section,
)
from ..memory.store.storage import CONFIG, MEMORY_DIR
from ..untrusted.safe_paths import refuse_links_in_memory
from .project import Project

if TYPE_CHECKING:
    from ..memory.store.index_store import IndexStore
    from .reports import UpstreamImport


def find_book_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` that holds `.webnovel/`."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / MEMORY_DIR).is_dir():
            return folder
    return None


def plan_upstream_import(root: str | Path) -> UpstreamImport:
    """What importing a webnovel-writer project would bring in; reads it and writes nothing."""
    from ..ingest.upstream_import import read_upstream
    from . import importing

    return importing.upstream_plan(read_upstream(Path(root)), Path(root))


def init_project(
    path: str | Path,
    title: str,
    genre: str | None = None,
    store: str | None = None,
    book: str | None = None,
    password_env: str | None = None,
    created_meta: dict[str, str] | None = None,
) -> Project:
    """Make a book in folder `path`: in its own SQLite file, or (`store`, a postgresql:// URL
    without a password) as book `book` (default: the folder's name) of a shared PostgreSQL
    database, named in the folder's config.toml so that any copy of the folder opens it."""
    root = Path(path)
    memory_dir = root / MEMORY_DIR
    if holds_book(memory_dir):
        raise ProjectExists.of("book_exists", root=root, memory_dir=memory_dir)
    location = None
    if store is not None:
        section = {"url": store, "book": book or root.resolve().name}
        location = parse_store_section(
            section | ({"password_env": password_env} if password_env else {}), "--store"
        )
        from ..user.config import trust_store

        trust_store(store_targets(store), store)  # the user typed it: their password may go there
    made = [folder for folder in (root, memory_dir) if not folder.exists()]
    memory_dir.mkdir(parents=True, exist_ok=True)
    config = memory_dir / CONFIG
    config.write_text(
        render_config(genre) + (render_store_section(location) if location else ""),
        encoding="utf-8",
    )
    try:
        project = Project(
            root, create=True, title=title, location=location, created_meta=created_meta
        )
    except BaseException:
        if location is not None:  # a store that refused leaves no folder that looks like a book
            config.unlink(missing_ok=True)
            for folder in reversed(made):  # nor the folders made for it, if nothing else is there
                with suppress(OSError):
                    folder.rmdir()
        raise
    from uuid import uuid4  # here: a fresh `webnovel fact` never makes a book

    project.storage.vectors  # noqa: B018 - creates vectors.db with its schema
    with project.storage.writing() as writing:
        writing.commits.set_meta("title", title)
        # who this book is, apart from its name: a shared store's book deleted and made anew
        # under the same name is another book to each machine's projections
        writing.commits.set_meta("book_id", uuid4().hex)
        writing.commits.set_meta("genre", genre or "")
    project.refresh_projections()
    return project


def open_project(path: str | Path | None = None) -> Project:
    """Open the book at `path`, or the nearest one above the current folder."""
    if path is None:
        root = find_book_root(Path.cwd())
        if root is None:
            raise ProjectNotFound.of("no_book_here")
        return Project(root)
    root = Path(path)
    if not holds_book(root / MEMORY_DIR):
        raise ProjectNotFound.of("no_book_at", root=root, memory_dir=root / MEMORY_DIR)
    return Project(root)


def recover_book(path: str | Path | None = None) -> dict[str, Any] | None:
    """Make the book's SQLite files anew if they fail their check on open (a received book's
    trigger or view, a dropped table, deleted migration rows: DamagedBook): `index.db` from
    the commit log rows it still holds, memory derived from them, the old file kept as
    `index.db.damaged`; a damaged `vectors.db` is moved aside. `rebuild` runs it first. Returns what was done, or None
    when the files were sound; raises DamagedBook when the log itself cannot be read."""
    root = find_book_root(Path.cwd()) if path is None else Path(path)
    if root is None or not holds_book(root / MEMORY_DIR):
        return None  # opening it says what is missing
    if find_store_location(root / MEMORY_DIR / CONFIG) is not None:
        return None  # a PostgreSQL book: its server keeps its schema
    from ..config import load_config
    from ..memory.store.parts import StoreParts
    from ..memory.store.recovery import recover_files  # only for a rebuild
    from ..memory.write.write_pipeline import replay_all

    config = load_config(root / MEMORY_DIR / CONFIG)

    def derive(index: IndexStore) -> None:
        for _ in replay_all(index, config, StoreParts(index.conn).commits.current_commits()):
            pass

    return recover_files(root / MEMORY_DIR, derive)


def holds_book(memory_dir: Path) -> bool:
    """A SQLite book has its index.db; a PostgreSQL book's folder names its store. A folder
    holding a link is refused here, before its config is read."""
    refuse_links_in_memory(memory_dir)
    config = memory_dir / CONFIG
    return (memory_dir / "index.db").exists() or (
        config.exists() and "[store]" in config.read_text(encoding="utf-8", errors="replace")
    )
