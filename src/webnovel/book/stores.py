"""The books of a PostgreSQL store, and moving a book between stores.

`list_books` and `delete_book` work on a store's registry (`webnovel books --store URL`);
`copy_book` makes a new book, in a folder of its own, from another book's tables (SQLite to
PostgreSQL, back, or to another server; or by replaying its whole commit log with the texts),
carrying over the author's verdicts on conflicts and the book's config, so that every answer
stays the same.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..memory.store.location import StoreLocation, check_book_name, parse_store_url
from ..memory.store.storage import CONFIG, MEMORY_DIR
from ..memory.store.table_copy import copy_tables
from ..memory.store.vector_copy import carry_vectors, vectors_of
from .opening import init_project, open_project
from .project import Project

Progress = Callable[[int, int], None]


def _location(store: str, book: str = "-") -> StoreLocation:
    """A store the user named (its password may go there: `trust_store`), and a book in it."""
    from ..memory.store.location import store_targets
    from ..user_config import trust_store

    location = StoreLocation(parse_store_url(store), check_book_name(book))
    trust_store(store_targets(location.url))
    return location


def list_books(store: str, only: str | None = None) -> list[dict[str, Any]]:
    """The books in the PostgreSQL database `store` names (or the one named `only`), by name."""
    from ..memory.store.pg_store import list_books as listed

    return listed(_location(store), only)


def delete_book(store: str, book: str) -> bool:
    """Remove a book and everything of it from the store; False when there was none."""
    from ..memory.store.pg_store import delete_book as deleted

    return deleted(_location(store, book))


def copy_book(
    source: Project,
    dest: str | Path,
    store: str | None = None,
    book: str | None = None,
    progress: Progress | None = None,
    replay: bool = False,
    password_env: str | None = None,
) -> dict[str, Any]:
    """Copy `source` into a new book in folder `dest` (in `store`, or as a SQLite file), in one
    transaction: a copy that fails leaves no half book behind in a store, and a reader of the
    new book sees it empty or whole.

    By default every table of the book is carried over as it stands (the commit log with its
    texts, and the memory derived from it, the author's verdicts and the commit stats with
    them), read under the source's write lock so that no commit lands half way: the same rows
    give the same answers, and 10,000 chapters move in seconds of COPY instead of a replay's
    hour of round trips. With `replay`, memory is derived anew by replaying the commit log
    chapter by chapter, as a rebuild would: slower, for a source whose derived tables are in
    doubt. `progress(done, total)` counts rows, or chapters when replaying. `password_env`
    names the variable holding the store's password (default: the source's own, when it is a
    book of the same server)."""
    meta = source.store.commits.all_meta()
    here = source.storage.location
    if password_env is None and here is not None and store is not None:
        same_server = urlsplit(here.url)._replace(query="", fragment="")
        if same_server == urlsplit(store)._replace(query="", fragment=""):
            password_env = here.password_env
    copy = init_project(
        dest,
        title=meta.get("title") or "",
        genre=meta.get("genre") or None,
        store=store,
        book=book,
        password_env=password_env,
    )
    try:
        _carry_config(source, copy)
        copy.close()
        copy = open_project(dest)
        if replay and copy.storage.location is not None:
            commits = _replay_through_sqlite(source, copy, progress)
        elif replay:
            commits = _replay_log(source, copy, progress)
        else:
            commits = copy_tables(source.storage.index, copy.storage.index, progress)
        copy.refresh_projections()
        vectors = _carry_vectors(source, copy, progress)
    except BaseException:
        copy.close()
        _remove(Path(dest), store, copy.storage.location)
        raise
    try:
        return {
            "source": str(source.root),
            "dest": str(Path(dest)),
            "store": copy.storage.location.shown() if copy.storage.location else "sqlite",
            "commits": commits,
            "chapters": len(copy.store.commits.chapter_commit_ids()),
            "verdicts": len(copy.store.records.conflict_verdicts()),
            "replayed": replay,
            "vectors": vectors,
        }
    finally:
        copy.close()


def _carry_vectors(source: Project, copy: Project, progress: Progress | None) -> int:
    """The source's dense vectors, into the copy: a PostgreSQL copy's shared table takes them
    as they are; a SQLite copy's chunks are cut now (its first search would cut them anyway),
    without an embedder, so that each takes the vector of its own text. A book leaving a
    studio thus does not pay the embedding model, or the user's keys, again."""
    if copy.storage.shared_vectors() is not None:
        return carry_vectors(source.storage, copy.storage)
    pages = vectors_of(source.storage)
    first = next(pages, None)
    if first is None:
        return 0  # nothing embedded: cutting can wait for the copy's first search
    # only for a copy with vectors to carry: a fresh process loads no retrieval
    from ..memory.retrieval.search import Retrieval
    from ..memory.retrieval.vector_catch_up import carry_home

    storage = copy.storage
    Retrieval(storage.vectors, storage.lexicon, storage.conn, copy.aliases).sync(progress)
    return carry_home(storage.vectors, itertools.chain([first], pages))


def _replay_log(source: Project, copy: Project, progress: Progress | None) -> int:
    """Commit the source's whole log into the empty copy again, in one transaction."""
    log = source.store.commits.whole_log()
    verdicts = source.store.records.conflict_verdicts()
    with copy.storage.index.atomic():
        for done, entry in enumerate(log, start=1):
            if entry["commit_id"].startswith("retract:"):
                copy.pipeline.retract(entry["chapter"])
            else:
                copy.pipeline.commit(
                    entry["result"], text=entry["text"], recorded_at=entry["recorded_at"]
                )
            if progress:
                progress(done, len(log))
        copy.store.records.restore_verdicts(verdicts)
    return len(log)


def _replay_through_sqlite(source: Project, copy: Project, progress: Progress | None) -> int:
    """A replay into a PostgreSQL book: the log is replayed into a scratch SQLite book with the
    copy's config (in process, no round trip a statement: ≈50 times cheaper on the server),
    whose tables then go into the copy in one transaction. The scratch book is removed."""
    import tempfile  # only for a replayed copy into a store

    with tempfile.TemporaryDirectory(prefix="webnovel-replay-") as scratch:
        folder = Path(scratch) / "book"
        meta = source.store.commits.all_meta()
        replayed = init_project(
            folder, title=meta.get("title") or "", genre=meta.get("genre") or None
        )
        try:
            _carry_config(copy, replayed)
            replayed.close()
            replayed = open_project(folder)
            commits = _replay_log(source, replayed, progress)
            copy_tables(replayed.storage.index, copy.storage.index)
        finally:
            replayed.close()
    return commits


def _remove(dest: Path, store: str | None, location: StoreLocation | None) -> None:
    """Take a failed copy away: its book in the store, and the folder's memory."""
    if store is not None and location is not None:
        delete_book(store, location.book)
    import shutil  # only for a copy that failed

    shutil.rmtree(dest / MEMORY_DIR, ignore_errors=True)


def _carry_config(source: Project, copy: Project) -> None:
    """The copy keeps the source's config.toml (ladders, fields, groups), with its own store."""
    text = (source.root / MEMORY_DIR / CONFIG).read_text(encoding="utf-8")
    own = (copy.root / MEMORY_DIR / CONFIG).read_text(encoding="utf-8")
    store_table = re.compile(r"^\[store\][^\n]*\n(?:(?!\[)[^\n]*\n?)*", re.MULTILINE)
    kept = store_table.sub("", text).rstrip("\n") + "\n"
    found = store_table.search(own)
    (copy.root / MEMORY_DIR / CONFIG).write_text(
        kept + ("\n" + found.group(0) if found else ""), encoding="utf-8"
    )
