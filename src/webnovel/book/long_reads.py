"""Answers that may take long (a search, a memory pack), run off a server's event loop.

The dashboard and the MCP server answer on their event loop's one thread, and a book's
connections and caches belong to that thread. A search that took long there (a passage of a
megabyte once took minutes to quote) held up every other request: pages, event streams, every
other tool. So these answers run in a worker thread instead, on a second handle on the book: the
same folder opened again, with its own connections, caches and search index reader, as another
process would open it. It sees every commit the way another process does (SQLite reads the file,
PostgreSQL the shared store), and the first handle's connections stay with their one thread.

The second handle is opened on first use and used by one worker at a time: a second long answer
waits for the first, while everything else is answered meanwhile.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from ..errors import DomainError
from ..messages import say
from .handles import Closing

T = TypeVar("T")
Book = TypeVar("Book", bound=Closing)  # the handle's own class: `Project` for `Project`'s


class LongReads(Generic[Book]):
    def __init__(self, open_again: Callable[[], Book]) -> None:
        """`open_again`: opens the book once more (called in the worker, on first use)."""
        self._open_again = open_again
        self._book: Book | None = None
        self._closed = False
        self._turn = threading.Lock()  # one worker at a time on the second handle

    def call(self, work: Callable[[Book], T]) -> T:
        """`work(book)` on the second handle, in the calling thread, after any other."""
        with self._turn:
            if self._closed:
                raise DomainError(say("book_closed_while_answering"))
            if self._book is None:
                self._book = self._open_again()
            return work(self._book)

    async def run(self, work: Callable[[Book], T]) -> T:
        """`work(book)` in a worker thread: the event loop answers other requests meanwhile."""
        return await asyncio.to_thread(self.call, work)

    def close(self) -> None:
        """Close the second handle, after the answer it may be giving."""
        with self._turn:
            self._closed = True
            if self._book is not None:
                self._book.close()
                self._book = None
