"""A connection to one of the book's SQLite files: pragmas, migrations on open, transactions.

Transactions are a context manager: the outermost `atomic()` takes `BEGIN IMMEDIATE` (a writer
waits for the lock up front instead of failing half way), inner ones nest as savepoints. The
connection runs in autocommit mode so that no statement opens a transaction behind our back.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

from ...errors import BookBusy, DamagedBook, is_sqlite_damage, one_line
from ...messages import say
from ...untrusted import json_limits
from .connection import Connection, Row
from .migrations import MIGRATIONS, Migration, migrate
from .schema_check import check_schema, guard, readable_log

WAIT_FOR_LOCK_SECONDS = 120.0
LOCK_STEP_SECONDS = 0.25


def _busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


class _TrialOver(Exception):
    """Ends a trial transaction by rolling it back."""


@contextmanager
def rolled_back(store: Any) -> Iterator[Connection]:
    """A transaction of `store` (anything with `atomic()`) that is always rolled back: run the
    real write path, look at what it would do, keep nothing (review applies a draft this way)."""
    try:
        with store.atomic() as conn:
            yield conn
            raise _TrialOver
    except _TrialOver:
        pass


# The book's size in bytes as an SQL expression (pg/pg_sql gives PostgreSQL's): a commit's row of
# costs takes it in its own statement, without a round trip of its own.
BOOK_BYTES = "(SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())"
# The size a commit's row of costs records: the same two numbers on SQLite; PostgreSQL sums the
# size of every table, index and TOAST file (half its server time for a small chapter's commit),
# so it measures at every SIZE_EVERY-th commit and carries the last measure between (pg/pg_sql).
BOOK_BYTES_AT_COMMIT = BOOK_BYTES[:-1] + " /* a commit's */)"


def rows_in(
    conn: Connection,
    sql: str,
    values: list[Any],
    batch: int = 500,
    params: tuple[Any, ...] = (),
) -> list[Row]:
    """`sql` (ending in `IN ({marks})`) run over `values` in batches SQLite accepts; `params`
    are those of the `?`s before the list."""
    rows: list[Row] = []
    for start in range(0, len(values), batch):
        part = values[start : start + batch]
        marks = ",".join("?" * len(part))
        rows += conn.execute(sql.format(marks=marks), (*params, *part)).fetchall()
    return rows


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None, where: json_limits.Where | None = None) -> Any:
    """A JSON value stored in the book, read within json_limits' depth and size (a received
    book's rows are anyone's); `where` names it in the refusal (default: the book)."""
    if text is None:
        return None
    return json_limits.loads(text, where or _in_the_book)


def _in_the_book() -> str:
    return say("json_where_book")


class IndexStore(Protocol):
    """The handle on a book's index that the layers above hold: `SQLiteStore` here, or
    `PostgresStore` (pg/pg_store.py) for a book in a shared PostgreSQL database."""

    path: Any  # what messages name: the file, or the store and book
    on_wait: Callable[[str], None] | None

    @property
    def conn(self) -> Connection: ...
    def atomic(self) -> AbstractContextManager[Connection]: ...
    def trial(self) -> AbstractContextManager[Connection]: ...
    def checkpoint(self) -> None: ...
    def wait_for_commit(self, seconds: float) -> bool: ...
    def close(self) -> None: ...
    def size_bytes(self) -> int: ...


class SQLiteStore:
    def __init__(self, path: Path | str, migrations: list[Migration] = MIGRATIONS) -> None:
        self.path = Path(path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self._depth = 0
        self.on_wait: Callable[[str], None] | None = None  # told once when a writer must wait
        try:
            self._open(migrations)
        except BaseException:
            self.conn.close()
            raise

    def _open(self, migrations: list[Migration]) -> None:
        """Set the connection up and bring the file to our migrations, after checking that
        what is in it is what they made (a received book: schema_check.py)."""
        conn = self.conn
        try:
            guard(conn)
            # A writer waits its turn behind another process's commit, rebuild or index
            # catch-up (a 10,000-chapter rebuild takes about 20 s); then says who holds it.
            conn.execute(f"PRAGMA busy_timeout={int(WAIT_FOR_LOCK_SECONDS * 1000)}")
            check_schema(conn, migrations, self.path)
            # WAL with synchronous=NORMAL survives any process crash intact; only a power cut
            # may lose the last transaction, never corrupt or half-apply one.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn, migrations)
        except DamagedBook as exc:
            # the book's own log can make its index anew; a derived file is made anew anyway
            raise exc.with_remedy(migrations is not MIGRATIONS or readable_log(self.path)) from None
        except sqlite3.DatabaseError as exc:
            if not is_sqlite_damage(exc):
                raise  # busy, locked, no right to the file: not damage
            problem = say("schema_not_database", error=one_line(exc))
            recoverable = migrations is not MIGRATIONS or readable_log(self.path)
            raise DamagedBook(self.path, problem, recoverable) from None
        except UnicodeDecodeError as exc:  # SQLite's own error named a mangled object
            problem = say("schema_not_database", error=one_line(exc.reason))
            recoverable = migrations is not MIGRATIONS or readable_log(self.path)
            raise DamagedBook(self.path, problem, recoverable) from None

    @contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        name = f"sp{self._depth}"
        if self._depth == 0:
            self._begin()
        else:
            self.conn.execute(f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield self.conn
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self.conn.execute("ROLLBACK")
            else:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
            raise
        self._depth -= 1
        self.conn.execute("COMMIT" if self._depth == 0 else f"RELEASE {name}")

    def trial(self) -> AbstractContextManager[Connection]:
        """A transaction that is always rolled back (`rolled_back`)."""
        return rolled_back(self)

    def _begin(self) -> None:
        """Take the write lock, waiting for another process's commit, rebuild or index catch-up
        in short steps so that the wait can be said (`on_wait`), up to the limit."""
        deadline = time.monotonic() + WAIT_FOR_LOCK_SECONDS
        said = False
        self.conn.execute(f"PRAGMA busy_timeout={int(LOCK_STEP_SECONDS * 1000)}")
        try:
            while True:
                try:
                    self.conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if not _busy(exc):
                        raise
                    if time.monotonic() >= deadline:
                        raise BookBusy(str(self.path), WAIT_FOR_LOCK_SECONDS) from exc
                    if not said and self.on_wait is not None:
                        self.on_wait(str(self.path))
                        said = True
        finally:
            self.conn.execute(f"PRAGMA busy_timeout={int(WAIT_FOR_LOCK_SECONDS * 1000)}")

    def wait_for_commit(self, seconds: float) -> bool:
        """Another process's commit shows in the file, which has no way to tell: a watcher
        polls (`commit_seq`) after this pause. PostgreSQL books are told (pg/pg_store.py)."""
        time.sleep(seconds)
        return False

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database and truncate it: after a rebuild the log
        holds a copy of every page, and the next process to open the book would pay for it."""
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        self.conn.close()

    def size_bytes(self) -> int:
        return sum(
            p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.exists()
        )
