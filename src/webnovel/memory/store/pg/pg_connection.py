"""The store's connection to PostgreSQL: psycopg in sqlite3's calling convention.

`PgConnection` is the store's `Connection` (connection.py) as sqlite3's connection is: `execute`,
`executemany`, rows read by index or by name, translating each statement once (`pg_sql`), and
gives each statement its cheapest form on the wire: a list of values as one array, the rows a
commit deletes or updates one by one as one statement over arrays, a long statement as
PostgreSQL's own `$n` text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ....errors import StoreUnavailable
from ....messages import say
from ..connection import Connection, Cursor, Parameters
from ..location import StoreLocation
from ..url_trust import NO_PASSWORD_FILE
from .pg_sql import BATCHED, in_lists, numbered, translate
from .pg_unreachable import said_as_the_store, why_unreachable

if TYPE_CHECKING:
    import psycopg


def quoted(identifier: str) -> str:
    """A schema, table or column name as PostgreSQL reads it, whatever characters it holds."""
    return '"' + identifier.replace('"', '""') + '"'


@lru_cache(maxsize=256)
def _row_class(names: tuple[str, ...]) -> type[tuple[Any, ...]]:
    """A tuple that is also read by column name, like sqlite3.Row; one class per column list."""
    index = {name: i for i, name in enumerate(names)}

    class Row(tuple[Any, ...]):
        __slots__ = ()

        def __getitem__(self, key: Any) -> Any:
            if isinstance(key, str):
                return tuple.__getitem__(self, index[key])
            return tuple.__getitem__(self, key)

        def keys(self) -> list[str]:
            return list(names)

    return Row


def _rows(cursor: psycopg.Cursor[Any]) -> Callable[[Sequence[Any]], Any]:
    # The result's field names straight from libpq: `cursor.description` builds a Column
    # object per field for every result, a tenth of a commit's time in a profile.
    result = cursor.pgresult
    if result is None or not result.nfields:
        return tuple
    return _row_class(tuple(bytes(result.fname(i) or b"").decode() for i in range(result.nfields)))


@lru_cache(maxsize=1)
def _quiet_pipeline_endings() -> None:
    """psycopg logs a warning when a pipeline ends in error ("error ignored terminating …");
    the store raises that error itself, named in Chinese, so the warning is only noise on the
    author's terminal. Its other records pass."""
    import logging

    logging.getLogger("psycopg").addFilter(
        lambda record: not str(record.msg).startswith("error ignored terminating")
    )


def connect(location: StoreLocation) -> psycopg.Connection[Any]:
    """An autocommit connection (transactions are explicit, as on SQLite) whose rows read like
    sqlite3's and whose NUMERIC sums come back as numbers, not Decimals."""
    import psycopg
    from psycopg.adapt import Loader

    class NumberLoader(Loader):
        def load(self, data: Any) -> int | float:
            # int() reads the buffer as it is: no copy, no decode (thousands a pack)
            try:
                return int(data)
            except ValueError:
                return float(bytes(data))

    options = location.connect_options()
    try:
        conn = psycopg.connect(**options, autocommit=True, row_factory=_rows, connect_timeout=10)
    except psycopg.OperationalError as exc:
        # libpq's message names host, port and user; never the password
        raise StoreUnavailable.of(
            "store_unreachable", url=location.url, error=_why(str(exc), options)
        ) from exc
    conn.adapters.register_loader("numeric", NumberLoader)
    _quiet_pipeline_endings()
    return conn


def _why(said: str, options: dict[str, Any]) -> str:
    """Why the connection failed; a password asked of a server the user has not chosen is
    said as such: ~/.pgpass was not read for it on purpose (url_trust)."""
    if options.get("passfile") == NO_PASSWORD_FILE and "no password supplied" in said:
        from ....user.config import user_config_path

        reason = say("store_why_no_password_unchosen", path=user_config_path())
        return say("store_why", reason=reason, said=" ".join(said.split()))
    return why_unreachable(said)


def _batched(sql: str, rows: list[Any]) -> str | None:
    """The one statement over arrays that does what `sql` does row by row, if it has one."""
    if sql not in BATCHED:
        return None
    statement, key = BATCHED[sql]
    if key is not None and len({row[key] for row in rows}) < len(rows):
        return None  # one row updated twice: only the rows' order says which value stays
    return statement


PSYCOPG_PARSES_ONCE = 50  # psycopg keeps its parse of a statement with at most this many params
ROWS_AN_INSERT = 200  # 200 rows of ≤15 values stay far below PostgreSQL's 65,535 parameters
# an INSERT of one row of parameters that may carry many rows (not an upsert that updates: one
# statement may not update a row twice, which separate executions may)
_MULTI_ROW = re.compile(r"INSERT INTO [^;]+? VALUES (\((?:%s, )*%s\))( ON CONFLICT DO NOTHING)?")


@lru_cache(maxsize=512)
def _rows_insert(statement: str, count: int) -> str:
    """`statement` (a one-row INSERT) inserting `count` rows."""
    match = _MULTI_ROW.fullmatch(statement)
    assert match is not None
    one = match.group(1)
    head = statement[: match.start(1)]
    return head + ", ".join([one] * count) + (match.group(2) or "")


class PgConnection:
    """The store's queries over psycopg, in sqlite3's calling convention: a `Connection`."""

    def __init__(
        self,
        raw: psycopg.Connection[Any],
        reopen: Callable[[], psycopg.Connection[Any]] | None = None,
    ) -> None:
        self.raw = raw
        self.reopen = reopen
        self.in_transaction = False  # kept by the store: a transaction never reconnects

    def execute(self, sql: str, params: Parameters = ()) -> Cursor:
        with said_as_the_store():
            return self._execute(sql, params)

    def _execute(self, sql: str, params: Parameters) -> psycopg.Cursor[Any]:
        self.reconnect_if_dropped()
        statement = translate(sql)
        if isinstance(params, (list, tuple)):
            statement, lists = in_lists(statement)
            for first, count in reversed(lists):  # later lists first: earlier places hold
                params = [
                    *params[:first],
                    list(params[first : first + count]),
                    *params[first + count :],
                ]
            if len(params) > PSYCOPG_PARSES_ONCE:
                return self._execute_numbered(numbered(statement), params)
        return self.raw.execute(statement, params)

    def _execute_numbered(self, statement: str, params: Sequence[Any]) -> psycopg.Cursor[Any]:
        """`statement` as it is (`$1, $2, …`): no parsing of it on the client."""
        import psycopg

        cursor = psycopg.RawCursor(self.raw)
        return cursor.execute(statement, params)

    def book_state(self) -> tuple[str] | None:
        """What `ranking_scans.book_state` asks: here the server's snapshot of transactions
        (lowest running, next to come, those running). Anything written, by whatever code,
        is written by a transaction with an id; once it commits, the snapshot is another.
        It moves with every book of the server too, so it says "changed" more often than
        SQLite's signal, never less. None inside a transaction, as there."""
        if self.in_transaction:
            return None
        with said_as_the_store():
            self.reconnect_if_dropped()
            row = self.raw.execute("SELECT pg_current_snapshot()::text").fetchone()
        return (str(row[0]),) if row else None

    def reconnect_if_dropped(self) -> None:
        """A connection the server dropped (a restart, a terminated backend) is opened anew for
        the next statement outside a transaction; inside one, the error stands."""
        if (self.raw.closed or self.raw.broken) and not self.in_transaction and self.reopen:
            self.raw = self.reopen()

    def executemany(self, sql: str, rows: Iterable[Parameters]) -> None:
        with said_as_the_store():
            self._executemany(sql, list(rows))

    def _executemany(self, sql: str, rows: list[Any]) -> None:
        if not rows:
            return
        self.reconnect_if_dropped()
        if len(rows) > 1 and (batched := _batched(sql, rows)) is not None:
            self.raw.execute(batched, [list(column) for column in zip(*rows, strict=True)])
            return
        statement = translate(sql)
        if len(rows) > 1 and _MULTI_ROW.fullmatch(statement):
            # One INSERT of many rows instead of one execution per row: the server parses
            # and runs one statement, the client binds once (a commit inserts ~150 rows).
            for at in range(0, len(rows), ROWS_AN_INSERT):
                part = rows[at : at + ROWS_AN_INSERT]
                flat = [value for row in part for value in row]
                self._execute_numbered(numbered(_rows_insert(statement, len(part))), flat)
            return
        with self.raw.cursor() as cursor:
            cursor.executemany(statement, rows)

    def close(self) -> None:
        self.raw.close()


if TYPE_CHECKING:
    # mypy checks here that the store's queries may run on this connection
    _IS_A_CONNECTION: type[Connection] = PgConnection
