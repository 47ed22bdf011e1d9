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
import shutil
from collections.abc import Callable
from dataclasses import replace
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
    from ..memory.store.libpq_reading import store_targets
    from ..user.config import trust_store

    location = StoreLocation(parse_store_url(store), check_book_name(book))
    trust_store(store_targets(location.url), location.url)
    return location


def list_books(store: str, only: str | None = None) -> list[dict[str, Any]]:
    """The books in the PostgreSQL database `store` names (or the one named `only`), by name."""
    from ..memory.store.pg.pg_store import list_books as listed

    return listed(_location(store), only)


def delete_book(store: str, book: str) -> bool:
    """Remove a book and everything of it from the store; False when there was none."""
    from ..memory.store.pg.pg_store import delete_book as deleted

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
    """Copy `source` into a new book in folder `dest` (in `store`, or as a SQLite file), all or
    nothing from the user's view: the copy is built in a folder beside `dest` and moved into
    place by one rename at the end, so a copy that fails, is interrupted or killed leaves no
    `dest` book behind, and running it again starts afresh (copy_aside.py says how a killed
    one's leftovers are known and cleared).

    By default every table of the book is carried over as it stands (the commit log with its
    texts, and the memory derived from it, the author's verdicts and the commit stats with
    them), read under the source's write lock so that no commit lands half way: the same rows
    give the same answers, and 10,000 chapters move in seconds of COPY instead of a replay's
    hour of round trips. With `replay`, memory is derived anew by replaying the commit log
    chapter by chapter, as a rebuild would: slower, for a source whose derived tables are in
    doubt. `progress(done, total)` counts rows, or chapters when replaying. `password_env`
    names the variable holding the store's password (default: the source's own, when it is a
    book of the same server)."""
    from . import copy_aside  # only for a copy

    meta = source.store.commits.all_meta()
    password_env = password_env or _same_server_password(source.storage.location, store)
    target = Path(dest)
    name = book or target.resolve().name
    copy_aside.refuse_a_book_at(target)
    location = None
    if store is not None:
        location = replace(_location(store, name), password_env=password_env)
    if location is not None:
        copy_aside.clear_unfinished_copy(location)
    aside = copy_aside.folder_beside(target)
    unfinished = copy_aside.unfinished_mark() if store is not None else {}
    try:
        copy = init_project(
            aside,
            title=meta.get("title") or "",
            genre=meta.get("genre") or None,
            store=store,
            book=name,
            password_env=password_env,
            created_meta=unfinished,
        )
    except BaseException:
        copy_aside.take_away(aside, location, unfinished)
        raise
    try:
        _carry_config(source, copy)
        copy.close()
        copy = open_project(aside)
        commits = _fill(source, copy, progress, replay, unfinished)
        vectors = _carry_vectors(source, copy, progress)
        report = {
            "source": str(source.root),
            "dest": str(target),
            "store": location.shown() if location is not None else "sqlite",
            "commits": commits,
            "chapters": len(copy.store.commits.chapter_commit_ids()),
            "verdicts": len(copy.store.records.conflict_verdicts()),
            "replayed": replay,
            "vectors": vectors,
        }
        copy_aside.mark_finished(copy)
        copy.close()
        copy_aside.move_into_place(aside, target)
    except BaseException:
        copy.close()
        if copy_aside.still_aside(aside):  # the book was made by this copy: it goes, marked or not
            copy_aside.take_away(aside, location, None)
        else:  # moved into place, whole: only a leftover of the folder aside goes
            shutil.rmtree(aside, ignore_errors=True)
        raise
    with open_project(target) as placed:  # its projections name the folder it is in now
        placed.refresh_projections()
    return report


def _same_server_password(here: StoreLocation | None, store: str | None) -> str | None:
    """The variable holding the source's password, when the copy goes to its own server."""
    if here is None or store is None:
        return None
    same = urlsplit(here.url)._replace(query="", fragment="")
    return here.password_env if same == urlsplit(store)._replace(query="", fragment="") else None


def _fill(
    source: Project,
    copy: Project,
    progress: Progress | None,
    replay: bool,
    unfinished: dict[str, str],
) -> int:
    """The copy's commits and memory: its tables carried over as they stand, or, with
    `replay`, memory derived anew from the log; how many commits it holds."""
    if replay and copy.storage.location is not None:
        return _replay_through_sqlite(source, copy, progress, unfinished)
    if replay:
        return _replay_log(source, copy, progress)
    return copy_tables(source.storage.index, copy.storage.index, progress, unfinished)


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


def _replay_through_sqlite(
    source: Project, copy: Project, progress: Progress | None, meta: dict[str, str]
) -> int:
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
            copy_tables(replayed.storage.index, copy.storage.index, meta=meta)
        finally:
            replayed.close()
    return commits


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
