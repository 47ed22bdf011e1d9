"""The connection the store's queries run on, whichever database holds the book.

A book's index is an SQLite file (`sqlite3.Connection`) or a schema in a shared PostgreSQL
database (`PgConnection`, store/pg/pg_connection.py). Both answer the same calls: a statement
with `?` marks and its values, rows read by position or by column name, and whether a
transaction is open. `Connection` names exactly those calls, so the type checker checks every
query against what both backends offer, and nothing else: code that needs SQLite itself
(vectors.db, the lexicon, a file's pragmas) keeps `sqlite3.Connection`.

The transaction itself is the store's (`IndexStore.atomic()`): the queries never commit or
roll back on their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

# a statement's values: by position (`?`), or by name (`:name`)
Parameters = Sequence[Any] | Mapping[str, Any]


class Row(Protocol):
    """One row of an answer, read by position (`row[0]`) or by column name (`row["id"]`):
    `sqlite3.Row`, or the row class `PgConnection` makes per column list."""

    def __getitem__(self, key: int | str, /) -> Any: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...
    def keys(self) -> list[str]: ...


class Cursor(Protocol):
    """A statement's answer: its rows one at a time, the first, or all."""

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The book's connection as the store's queries use it."""

    def execute(self, sql: str, parameters: Parameters = (), /) -> Cursor: ...
    def executemany(self, sql: str, parameters: Iterable[Parameters], /) -> object: ...

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open: rows read now may not be committed ones."""
        ...

    def close(self) -> None: ...


if TYPE_CHECKING:
    import sqlite3

    # mypy checks here that SQLite's own connection is one (PgConnection: pg/pg_connection.py)
    _IS_A_CONNECTION: type[Connection] = sqlite3.Connection
