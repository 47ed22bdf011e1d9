"""A book in a shared PostgreSQL store, behind the same handle as `SQLiteStore`.

Each book is a schema of its own, named in the registry table `public.webnovel_books`: every query
of the store runs unchanged under `search_path`, and deleting a book is one `DROP SCHEMA ...
CASCADE`. Its statements go through `PgConnection` (pg_connection.py), the store's `Connection`
(connection.py) as sqlite3's connection is.

A commit is one transaction. Writers to one book serialize on a transaction-scoped advisory lock
keyed by the book's schema (writers to other books never wait); readers see whole commits, as on
SQLite. A connection the server drops mid-transaction rolls back there; the next transaction
opens a new connection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from ....errors import BookBusy, ProjectExists, ProjectNotFound, StoreForbidden, StoreUnavailable
from ....messages import say
from ..connection import Connection
from ..index_store import BOOK_BYTES, WAIT_FOR_LOCK_SECONDS, rolled_back
from ..libpq_reading import require_driver
from ..location import StoreLocation
from ..migrations import MIGRATIONS, Migration, statements
from . import pg_vectors
from .pg_connection import PgConnection, connect, quoted
from .pg_sql import PARSED_COLUMN, translate_ddl
from .pg_statistics import Statistics
from .pg_unreachable import said_as_the_store, store_error

if TYPE_CHECKING:
    import psycopg

# PostgreSQL's own migrations, each applied after the shared one named: a new book gets it where
# the table it changes is made (before a later migration reads what it adds); a book made
# before it, at its next opening.
_PG_ONLY: dict[str, list[Migration]] = {
    "0001_core": [
        (
            "0001pg_versions_parsed",
            # json_extract over a version's value reads this parsed copy (pg_sql.PARSED_COLUMN):
            # PostgreSQL's json operators parse the text again for every field asked.
            f"ALTER TABLE versions ADD COLUMN {PARSED_COLUMN[1]} JSONB "
            f"GENERATED ALWAYS AS ({PARSED_COLUMN[0]}::jsonb) STORED",
        ),
        # the book's dense vectors, once for every machine: made by pg_vectors.create_table,
        # whose column depends on the server (pgvector's `vector`, or `real[]`)
        (pg_vectors.MIGRATION, ""),
    ]
}
PG_MIGRATIONS: list[Migration] = [
    migration for shared in MIGRATIONS for migration in (shared, *_PG_ONLY.get(shared[0], []))
]

LOCK_SPACE = 0x5745_424E  # "WEBN": our advisory locks, apart from any other application's
REGISTRY = "public.webnovel_books"
NOTIFY_CHANNEL = "webnovel_commits"
_NOTIFY_ON_COMMIT = f"""
CREATE FUNCTION notify_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{NOTIFY_CHANNEL}', TG_TABLE_SCHEMA || ':' || NEW.seq);
    RETURN NULL;
END $$
"""


def schema_name(book: str) -> str:
    """The schema a book's tables live in: readable, and a valid identifier for any name."""
    return "book_" + re.sub(r"[^a-z0-9_]", "_", book.lower())[:40] + "_" + _short_hash(book)


def _short_hash(text: str) -> str:
    import hashlib

    return hashlib.blake2b(text.encode(), digest_size=4).hexdigest()


class PostgresStore:
    """One book's schema in a PostgreSQL database: the handle `Storage` holds for `index`."""

    def __init__(
        self,
        location: StoreLocation,
        create: bool = False,
        title: str | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> None:
        """Open the book at `location`, or `create` it (registered with `title`, its meta
        holding `meta` from the transaction that makes it: a copy's mark that it is not
        finished, book/copy_aside.py)."""
        require_driver()
        self.location = location
        self.schema = schema_name(location.book)
        self.path = location.shown()  # what messages name, as a SQLite store names its file
        self._depth = 0
        self.on_wait: Callable[[str], None] | None = None
        self._listener: psycopg.Connection[Any] | None = None
        self._statistics = Statistics()
        with said_as_the_store():  # a server that drops us as the book opens
            raw, found = (connect(self.location), None) if create else self._open_and_look()
            if found is None:
                raw.execute(self._search_path())
        self.pg = PgConnection(raw, self._open)
        self.conn: Connection = self.pg  # what the store's queries run on, as on SQLite
        if found is not None and found[0] and not _lacking(found[1]):
            return  # a registered book with every migration: opened in one round trip
        self._migrate(create, title, meta or {})

    def _search_path(self) -> str:
        return f"SET search_path TO {quoted(self.schema)}"

    def _open(self) -> psycopg.Connection[Any]:
        raw = connect(self.location)
        raw.execute(self._search_path())
        return raw

    def _open_and_look(self) -> tuple[psycopg.Connection[Any], tuple[bool, list[str]] | None]:
        """Connect, set the book's schema and ask whether the book is registered and which
        migrations it has, all in one round trip (a fresh `webnovel fact` pays for each).
        None when the question cannot be asked so (no registry, no such schema): then the
        connection has no schema set and `_migrate` asks step by step. (That failed statement
        is an ERROR in the server's log, for a book the store does not hold: a statement that
        never fails would have to read tables named at run time, on every opening.)"""
        import psycopg

        raw = connect(self.location)
        try:
            with raw.pipeline():
                raw.execute(self._search_path())
                cursor = raw.execute(
                    f"SELECT EXISTS (SELECT 1 FROM {REGISTRY} WHERE book = %s), "
                    "ARRAY(SELECT name FROM schema_migrations)",
                    (self.location.book,),
                )
            registered, done = cursor.fetchone() or (False, [])
        except psycopg.errors.UndefinedTable:
            return raw, None  # the pipeline's implicit transaction took the SET with it
        return raw, (bool(registered), list(done))

    # -- transactions ---------------------------------------------------------------------------

    @contextmanager
    def atomic(self) -> Iterator[Connection]:
        if self._depth > 0:
            with self._savepoint():
                yield self.conn
            return
        self.pg.reconnect_if_dropped()
        self._begin()
        # Pipeline mode: writes are sent without waiting for each answer (a read waits for the
        # ones before it), so a commit's ~100 writes cost a few round trips instead of ~100.
        pipeline = self.pg.raw.pipeline()
        pipeline.__enter__()
        self._depth = 1
        try:
            try:
                yield self.conn
                # sent behind the last writes, answered with them: one round trip for both.
                # After an error in the pipeline the server skips it, and the error is raised
                # as the pipeline ends, below
                self.pg.execute("COMMIT")
            except BaseException as exc:
                self._depth = 0
                _quietly(partial(pipeline.__exit__, type(exc), exc, exc.__traceback__))
                raise
            pipeline.__exit__(None, None, None)
        except BaseException as exc:
            self._depth = 0
            self._roll_back("")  # nothing to roll back when COMMIT itself failed: said quietly
            if (ours := store_error(exc)) is not None:  # the pipeline's end found it
                raise ours from exc
            raise
        finally:
            self._depth = 0
            self.pg.in_transaction = False
        self._statistics.after_commit(self.pg.raw)

    @contextmanager
    def _savepoint(self) -> Iterator[None]:
        name = f"sp{self._depth}"
        self.pg.execute(f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            self._roll_back(name)
            raise
        self._depth -= 1
        self.pg.execute(f"RELEASE SAVEPOINT {name}")

    def _roll_back(self, name: str) -> None:
        if self._depth == 0:
            # a connection that is gone took its transaction with it: the server rolled it back
            _quietly(lambda: self.pg.execute("ROLLBACK"))
            self.pg.in_transaction = False
        else:
            self.pg.execute(f"ROLLBACK TO SAVEPOINT {name}")
            self.pg.execute(f"RELEASE SAVEPOINT {name}")

    def trial(self) -> AbstractContextManager[Connection]:
        """A transaction that is always rolled back (review applies a draft this way)."""
        return rolled_back(self)

    def _begin(self) -> None:
        """Begin, then take the book's write lock: at once if free, else say so and wait."""
        import psycopg

        self.pg.in_transaction = True
        try:
            with self.pg.raw.pipeline():  # BEGIN and the lock in one round trip
                self.pg.execute("BEGIN")
                got = self.pg.execute(
                    "SELECT pg_try_advisory_xact_lock(?, hashtext(?))", (LOCK_SPACE, self.schema)
                ).fetchone()[0]
            if got:
                return
            if self.on_wait is not None:
                self.on_wait(self.path)
            self.pg.execute(f"SET LOCAL lock_timeout = '{int(WAIT_FOR_LOCK_SECONDS)}s'")
            self.pg.execute(
                "SELECT pg_advisory_xact_lock(?, hashtext(?))", (LOCK_SPACE, self.schema)
            )
            self.pg.execute("SET LOCAL lock_timeout = 0")
        except psycopg.errors.LockNotAvailable as exc:
            self._roll_back("")
            raise BookBusy(self.path, WAIT_FOR_LOCK_SECONDS) from exc
        except BaseException:
            self._roll_back("")
            raise

    def wait_for_commit(self, seconds: float) -> bool:
        """Wait up to `seconds` for a commit to this book by any process on any machine (the
        commits table's trigger notifies at COMMIT); True when one came. The listening
        connection is opened on first use and kept: a dashboard listens all day."""
        import psycopg

        try:
            if self._listener is None or self._listener.closed:
                self._listener = self._open()
                self._listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
            for note in self._listener.notifies(timeout=seconds):
                if note.payload.split(":", 1)[0] == self.schema:
                    return True
        except psycopg.OperationalError:
            self._listener = None  # dropped: the next wait listens anew
        return False

    # -- schema ---------------------------------------------------------------------------------

    def _migrate(self, create: bool, title: str | None, meta: Mapping[str, str]) -> None:
        """Create the book (when asked) and apply the migrations it lacks, under the book's lock."""
        try:
            with said_as_the_store():
                self._register_and_migrate(create, title, meta)
        except StoreForbidden as exc:  # said as what the user lacks, and who may do it
            refused = exc.__cause__ if isinstance(exc.__cause__, Exception) else exc
            raise StoreForbidden(self._forbidden(create, refused)) from refused

    def _register_and_migrate(
        self, create: bool, title: str | None, meta: Mapping[str, str]
    ) -> None:
        registered = self._registered()
        if create and registered:
            raise self._exists()
        if not create and not registered:
            raise ProjectNotFound.of(
                "store_book_missing", url=self.location.url, book=self.location.book
            )
        applied = None if create else self._applied()
        if applied is not None and not _lacking(applied):
            return  # opening a book takes no lock: a reader never waits for a writer
        self._create_or_upgrade(title, applied, meta)

    def _forbidden(self, create: bool, exc: Exception) -> str:
        """What the user lacks, and who may do it instead."""
        import psycopg

        user, said = self.pg.raw.info.user, str(exc).splitlines()[0]
        if create:
            return say("store_may_not_create", user=user, store=self.location.shown(), said=said)
        lacking = ""
        with suppress(psycopg.Error, StoreForbidden, StoreUnavailable):
            done = {row[0] for row in self.pg.execute("SELECT name FROM schema_migrations")}
            names = [n for n, _ in PG_MIGRATIONS if n not in done]
            lacking = say("store_lacking", names=say("argument_list_separator").join(names))
        return say(
            "store_may_not_upgrade", book=self.location.book, lacking=lacking, user=user, said=said
        )

    def _create_or_upgrade(
        self, title: str | None, applied: list[str] | None, meta: Mapping[str, str]
    ) -> None:
        """Create the book (`applied` None) or apply the migrations it lacks."""
        create = applied is None
        # pgvector or not, asked before the transaction: a refused CREATE EXTENSION aborts one
        vector_schema = None
        if applied is None or pg_vectors.MIGRATION not in applied:
            vector_schema = pg_vectors.pgvector_schema(self.pg.raw)
        with self.atomic():
            conn = self.pg
            if create:
                # another machine may have made it while we looked: the book's lock, taken
                # by atomic(), orders creators, and the one after the first is told as if it
                # had looked later (the schema made by no registered book is said alike)
                if self._registered() or self._schema_exists():
                    raise self._exists()
                conn.execute(f"CREATE SCHEMA {quoted(self.schema)}")
                conn.execute(
                    f"INSERT INTO {REGISTRY} (book, schema_name, title, created_at) "
                    "VALUES (?, ?, ?, ?)",
                    (self.location.book, self.schema, title or self.location.book, _now()),
                )
            migrate_pg(conn, PG_MIGRATIONS, vector_schema)
            if create:
                for key, value in meta.items():
                    conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
                # every commit and retraction tells listeners on any machine, at COMMIT
                self.pg.raw.execute(_NOTIFY_ON_COMMIT)
                self.pg.raw.execute(
                    "CREATE TRIGGER commits_notify AFTER INSERT ON commits "
                    "FOR EACH ROW EXECUTE FUNCTION notify_commit()"
                )

    def _exists(self) -> ProjectExists:
        return ProjectExists.of("store_book_exists", url=self.location.url, book=self.location.book)

    def _schema_exists(self) -> bool:
        row = self.pg.execute(
            "SELECT 1 FROM pg_namespace WHERE nspname = ?", (self.schema,)
        ).fetchone()
        return row is not None

    def _applied(self) -> list[str]:
        """The migrations the book has (one it lacks is applied under its write lock)."""
        return [row[0] for row in self.pg.execute("SELECT name FROM schema_migrations")]

    def _registered(self) -> bool:
        ensure_registry(self.pg)
        row = self.pg.execute(
            f"SELECT 1 FROM {REGISTRY} WHERE book = ?", (self.location.book,)
        ).fetchone()
        return row is not None

    # -- a whole book at once (copy) ---------------------------------------------------------

    @said_as_the_store()
    def table_columns(self) -> dict[str, list[str]]:
        """The book's tables (all but its migrations) and their columns, in order."""
        rows = self.pg.raw.execute(
            "SELECT c.relname, a.attname FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = c.oid "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r' "
            "AND c.relname <> 'schema_migrations' AND a.attnum > 0 AND NOT a.attisdropped "
            # the vectors are a store's own, carried apart (their column is the server's)
            f"AND c.relname <> '{pg_vectors.TABLE}' "
            "AND a.attgenerated = '' "  # computed by each store from the others
            "ORDER BY c.relname, a.attnum"
        ).fetchall()
        tables: dict[str, list[str]] = {}
        for table, column in rows:
            tables.setdefault(table, []).append(column)
        return tables

    def load_tables(self, tables: Iterable[tuple[str, list[str], Iterable[Sequence[Any]]]]) -> None:
        """Fill the book's tables with the given rows, replacing what they hold, in one
        transaction under the book's write lock: a reader sees the book empty or whole.
        COPY streams the rows (one statement a table, not one a row); identity columns are
        copied as given, and their sequences then continue after the largest."""
        self.pg.reconnect_if_dropped()
        self._begin()
        try:
            raw = self.pg.raw
            with raw.cursor() as cursor:
                for table, columns, rows in tables:
                    names = ", ".join(quoted(c) for c in columns)
                    cursor.execute(f"DELETE FROM {quoted(table)}")
                    with cursor.copy(f"COPY {quoted(table)} ({names}) FROM STDIN") as copy:
                        for row in rows:
                            copy.write_row(row)
                    # the planner's statistics now, not at autovacuum's next round: the first
                    # reads of the new book would otherwise be planned for empty tables
                    cursor.execute(f"ANALYZE {quoted(table)}")
                pg_vectors.record_column(self.pg)  # this server's column, not the source's
                identities = cursor.execute(
                    "SELECT c.relname, a.attname FROM pg_attribute a "
                    "JOIN pg_class c ON c.oid = a.attrelid "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = current_schema() AND a.attidentity <> ''"
                ).fetchall()
                for table, column in identities:
                    cursor.execute(
                        f"SELECT setval(pg_get_serial_sequence(%s, %s), m) "
                        f"FROM (SELECT MAX({quoted(column)}) AS m FROM {quoted(table)}) AS top "
                        "WHERE m IS NOT NULL",
                        (f"{quoted(self.schema)}.{quoted(table)}", column),
                    )
            self.pg.execute("COMMIT")
        except BaseException as exc:
            self._roll_back("")
            if (ours := store_error(exc)) is not None:  # COPY speaks to the driver directly
                raise ours from exc
            raise
        finally:
            self.pg.in_transaction = False

    def checkpoint(self) -> None:
        """SQLite folds its write-ahead log here; PostgreSQL's own checkpoints do that."""

    def close(self) -> None:
        self.pg.close()
        if self._listener is not None:
            self._listener.close()

    def size_bytes(self) -> int:
        row = self.pg.execute(f"SELECT {BOOK_BYTES}").fetchone()
        return int(row[0])


def ensure_registry(conn: PgConnection) -> None:
    """The table listing the books of a database; created once, by whoever comes first."""
    exists = conn.execute("SELECT to_regclass(?)", (REGISTRY,)).fetchone()[0]
    if exists is not None:
        return
    conn.execute("BEGIN")
    try:
        conn.execute("SELECT pg_advisory_xact_lock(?, 0)", (LOCK_SPACE,))
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {REGISTRY} (book TEXT PRIMARY KEY, "
            "schema_name TEXT NOT NULL UNIQUE, title TEXT NOT NULL, created_at TEXT NOT NULL)"
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def migrate_pg(
    conn: PgConnection, migrations: list[Migration], vector_schema: str | None = None
) -> list[str]:
    """Apply the migrations a book's schema lacks, inside the caller's transaction
    (`vector_schema`: where pgvector's type is, None for arrays; pg_vectors.pgvector_schema)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        '(name TEXT COLLATE "C" PRIMARY KEY, applied_at TEXT NOT NULL)'
    )
    done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    applied = []
    for name, script in migrations:
        if name in done:
            continue
        if name == pg_vectors.MIGRATION:
            pg_vectors.create_table(conn, vector_schema)
        for statement in statements(translate_ddl(script)):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, _now()))
        applied.append(name)
    return applied


def _lacking(done: list[str]) -> bool:
    """Whether migrations `done` lack one of the store's."""
    applied = set(done)
    return any(name not in applied for name, _ in PG_MIGRATIONS)


def _quietly(action: Callable[[], object]) -> None:
    """Run a clean-up step whose failure changes nothing (the transaction is already lost)."""
    import psycopg

    with suppress(psycopg.Error, StoreForbidden, StoreUnavailable):
        action()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- the books of a database --------------------------------------------------------------------


def list_books(location: StoreLocation, only: str | None = None) -> list[dict[str, Any]]:
    """Every book in the database `location.url` names (or the one named `only`), by name: its
    title, when it was made, its latest chapter and commit count (read from its own schema),
    and its size in bytes."""
    import psycopg

    conn = PgConnection(connect(location))
    try:
        ensure_registry(conn)
        books = []
        # a book this user may not read is listed as such, not a reason to list none
        # (by oid: a book being deleted meanwhile has none, and is not an error)
        readable = (
            "CASE WHEN to_regnamespace(quote_ident(schema_name)) IS NULL THEN false "
            "WHEN has_schema_privilege(schema_name, 'USAGE') THEN COALESCE("
            "has_table_privilege(to_regclass(quote_ident(schema_name) || '.chapters'), 'SELECT') "
            "AND has_table_privilege(to_regclass(quote_ident(schema_name) || '.commits'), "
            "'SELECT'), false) ELSE false END"
        )
        for book, schema, title, created_at, may_read in conn.execute(
            f"SELECT book, schema_name, title, created_at, {readable} FROM {REGISTRY} "
            "WHERE CAST(? AS text) IS NULL OR book = ? ORDER BY book",
            (only, only),
        ).fetchall():
            s = quoted(schema)
            try:
                latest, commits = (
                    conn.execute(
                        f"SELECT (SELECT MAX(chapter) FROM {s}.chapters), "
                        f"(SELECT COUNT(*) FROM {s}.commits)"
                    ).fetchone()
                    if may_read
                    else (None, None)
                )
                size = conn.execute(
                    "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? "
                    "AND c.relkind = 'r'",
                    (schema,),
                ).fetchone()[0]
            except (psycopg.errors.UndefinedTable, psycopg.errors.InvalidSchemaName):
                continue  # deleted by another machine while this one listed
            books.append(
                {
                    "book": book,
                    "title": title,
                    "schema": schema,
                    "created_at": created_at,
                    "latest_chapter": latest,
                    "commits": commits,
                    "size_bytes": int(size),
                    "readable": bool(may_read),
                }
            )
        return books
    finally:
        conn.close()


def delete_book(location: StoreLocation) -> bool:
    """Drop the book's schema (every table, index and row of it) and its registry row, under the
    book's write lock so that no commit is half way. False when there was no such book."""
    conn = PgConnection(connect(location))
    try:
        ensure_registry(conn)
        schema = schema_name(location.book)
        conn.execute("BEGIN")
        try:
            conn.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", (LOCK_SPACE, schema))
            gone = conn.execute(
                f"DELETE FROM {REGISTRY} WHERE book = ? RETURNING schema_name", (location.book,)
            ).fetchone()
            if gone is not None:
                conn.execute(f"DROP SCHEMA IF EXISTS {quoted(gone[0])} CASCADE")
            conn.execute("COMMIT")
        except BaseException:
            _quietly(lambda: conn.execute("ROLLBACK"))
            raise
        return gone is not None
    finally:
        conn.close()
