"""The store backends the tests run on: SQLite always, PostgreSQL when WEBNOVEL_TEST_POSTGRES
names a server (`.ci/postgres-start` prints one). Test modules listed in conftest's
BOTH_BACKENDS get a `backend` parameter and make their books with `init_book`."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import Any

import webnovel

# Read on import, before conftest's `a_user_of_our_own` clears WEBNOVEL_* variables.
POSTGRES_URL = os.environ.get("WEBNOVEL_TEST_POSTGRES") or None
NO_POSTGRES = (
    "PostgreSQL tests skipped: no server (set WEBNOVEL_TEST_POSTGRES to a postgresql:// URL, "
    'e.g. export WEBNOVEL_TEST_POSTGRES="$(.ci/postgres-start)")'
)
# Without a server the PostgreSQL variants are not generated at all; the header says so once.
BACKENDS = ["sqlite", "postgresql"] if POSTGRES_URL else ["sqlite"]
_made: list[str] = []


def book_name() -> str:
    """A name no other test (or test run on the same server) uses."""
    return f"test-{uuid.uuid4().hex[:12]}"


def init_book(
    backend: str, folder: Path, title: str = "测试之书", **kwargs: Any
) -> webnovel.Project:
    """`webnovel.init_project` in the given backend; PostgreSQL books are dropped at the end of
    the session (`drop_made_books`)."""
    if backend == "sqlite":
        return webnovel.init_project(folder, title=title, **kwargs)
    assert POSTGRES_URL is not None, NO_POSTGRES
    name = kwargs.pop("book", None) or book_name()
    _made.append(name)
    return webnovel.init_project(folder, title=title, store=POSTGRES_URL, book=name, **kwargs)


def drop_book(name: str) -> None:
    from webnovel.memory.store.location import StoreLocation
    from webnovel.memory.store.pg.pg_store import delete_book

    assert POSTGRES_URL is not None
    delete_book(StoreLocation(POSTGRES_URL, name))


def drop_made_books() -> None:
    """At the end of each module (conftest): the books it made, 50 ms each one after the
    other; four at a time over four connections."""
    from concurrent.futures import ThreadPoolExecutor

    names = list(_made)
    _made.clear()
    if not names:
        return
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(drop_book, names))  # list(): a failed drop raises here


def copy_of(backend: str, source: Path, dest: Path) -> webnovel.Project:
    """A fresh copy of the book in folder `source`, in the backend: the files copied for SQLite,
    the tables carried into a new book by the product's own copy (`copy_book`) for PostgreSQL."""
    if backend == "sqlite":
        shutil.copytree(source, dest)
        return webnovel.open_project(dest)
    from webnovel.book.stores import copy_book

    name = book_name()
    _made.append(name)
    with webnovel.open_project(source) as original:
        copy_book(original, dest, store=POSTGRES_URL, book=name)
    return webnovel.open_project(dest)
