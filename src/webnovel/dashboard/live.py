"""The live refresh: one watcher of the book's commit sequence for every open `/events` stream,
and a cap on the streams one client may hold.

Each stream used to wait for commits in a thread of its own: 300 open streams took every
worker thread, and a commit's event no longer reached the page. Now one task waits (in one
thread) and wakes every stream at once; a stream costs a coroutine. A client that opens more
than `STREAMS_PER_CLIENT` streams loses its oldest, so the page opened last is always served.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..book.project import Project

STREAMS_PER_CLIENT = 16  # tabs of one browser; the oldest is closed when a newer one opens


class Stream:
    """One open `/events` stream: `closed` is set when its client opened one too many."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()


class CommitWatch:
    """The book's commit sequence, watched once for all streams."""

    def __init__(self, book: Project, poll_seconds: float) -> None:
        self._book = book
        self._poll = poll_seconds
        self._seq: int | None = None
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._streams: dict[str, list[Stream]] = defaultdict(list)

    def open(self, client: str) -> Stream:
        """A new stream for `client`, closing its oldest when it holds too many."""
        held = self._streams[client]
        while len(held) >= STREAMS_PER_CLIENT:
            held.pop(0).closed.set()
        stream = Stream()
        held.append(stream)
        if self._task is None or self._task.done():
            self._seq = None  # read afresh: commits may have come while nobody watched
            self._task = asyncio.create_task(self._watch())
        return stream

    def close(self, client: str, stream: Stream) -> None:
        held = self._streams.get(client, [])
        if stream in held:
            held.remove(stream)
        if not held:
            self._streams.pop(client, None)

    def seq(self) -> int:
        if self._seq is None:
            self._seq = self._book.commit_seq()
        return self._seq

    async def change_after(self, last: int, stream: Stream) -> int:
        """The sequence once it differs from `last`, or after one poll's wait (or when the
        stream is closed), whichever comes first."""
        if self.seq() != last:
            return self.seq()
        changed = asyncio.ensure_future(self._changed.wait())
        closed = asyncio.ensure_future(stream.closed.wait())
        try:
            await asyncio.wait({changed, closed}, timeout=self._poll, return_when="FIRST_COMPLETED")
        finally:
            changed.cancel()
            closed.cancel()
        return self.seq()

    async def _watch(self) -> None:
        while self._streams:
            now = self._book.commit_seq()
            if now != self._seq:
                self._seq = now
                woken, self._changed = self._changed, asyncio.Event()
                woken.set()
            # on PostgreSQL a commit from any machine ends the wait at once (NOTIFY)
            await asyncio.to_thread(self._book.wait_for_commit, self._poll)
