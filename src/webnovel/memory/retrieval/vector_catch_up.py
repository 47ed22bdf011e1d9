"""This machine's `vectors.db` catching up on the vectors a shared store keeps for the book
(a PostgreSQL book's `chunk_vectors`, store/pg/pg_vectors.py), and giving back what it embeds.

A stored vector is taken only for a local chunk with the same id and the same text (its
digest): a chunk cut from a revised chapter never takes the vector of its old text, and one
cut from a chapter this machine has not caught up on yet is taken when it is cut (by chapter).
What arrives later, from another machine, is taken by its place in the store's order of
arrival: the last place taken is kept per model in `vectors.db`.

A SQLite copy of a book (`webnovel copy`) takes the source's vectors the same way, once its
chunks are cut (`carry_home`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from ...messages import say
from ..store import vector_store
from ..store.pg.pg_vectors import SharedVector, text_digest
from ..store.vector_copy import Row

if TYPE_CHECKING:
    from ..store.index_store import SQLiteStore


class VectorStore(Protocol):
    """What a shared store gives (pg_vectors.SharedVectors)."""

    def since(self, model: str, after: int) -> Iterable[list[SharedVector]]: ...
    def of_chapters(self, model: str, chapters: Sequence[int]) -> list[SharedVector]: ...
    def of_chunks(self, model: str, keys: Sequence[tuple[str, str]]) -> list[SharedVector]: ...
    def put(self, model: str, rows: Iterable[tuple[str, str, int, bytes]]) -> int | None: ...
    def embedding_turn(
        self, waiting: Callable[[], None] | None = None
    ) -> AbstractContextManager[None]: ...


def _seen_key(model: str) -> str:
    return f"{vector_store.SHARED_SEEN}{model}"


class VectorCatchUp:
    def __init__(self, local: SQLiteStore, shared: VectorStore) -> None:
        self.local = local
        self.shared = shared
        self._said_waiting = False
        self._said_kept_here = False

    def turn(self) -> AbstractContextManager[None]:
        """The book's embedding turn across machines; the first wait for another machine's
        turn is said."""
        return self.shared.embedding_turn(None if self._said_waiting else self._say_waiting)

    def _say_waiting(self) -> None:
        self._said_waiting = True
        warnings.warn(say("embedding_on_another_machine"), stacklevel=6)

    def seen(self, model: str) -> int:
        value = vector_store.get_meta(self.local.conn, _seen_key(model))
        return int(value) if value and value.isdigit() else 0

    def catch_up(self, model: str) -> int:
        """Take every vector that arrived in the store since the last look; returns how many
        local chunks got one. One round trip when nothing is new."""
        taken = 0
        for page in self.shared.since(model, self.seen(model)):
            taken += self.adopt(model, page, seen=page[-1].seq)
        return taken

    def after_recut(self, model: str, chapters: Sequence[int]) -> int:
        """Take the stored vectors of chapters just cut again; nothing to ask when this
        machine never caught up (its first catch-up takes the whole book)."""
        if not chapters or self.seen(model) == 0:
            return 0
        return self.adopt(model, self.shared.of_chapters(model, chapters))

    def adopt(self, model: str, rows: Sequence[SharedVector], seen: int | None = None) -> int:
        """Give local chunks the vectors of `rows` whose chunk id and text digest they share
        (rows of chunks this machine has not cut, or cut from other text, are passed over);
        `seen` moves the place of arrival taken up to, in the same transaction."""
        matched = _matching(self.local, model, [(r.chunk_id, r.digest, r.blob) for r in rows])
        if matched or seen is not None:
            with self.local.atomic() as conn:
                if matched:
                    vector_store.put_vectors(conn, model, matched)
                if seen is not None:
                    vector_store.set_meta(conn, _seen_key(model), str(seen))
        return len(matched)

    def take_for(
        self, model: str, window: list[tuple[int, str, str, int]]
    ) -> list[tuple[int, str, str, int]]:
        """Of chunks (rowid, text, chunk id, chapter) about to be embedded, give those the
        store has their vectors; returns the rest, which need the model."""
        if not window:
            return window
        keys = [(chunk_id, text_digest(text)) for _, text, chunk_id, _ in window]
        self.adopt(model, self.shared.of_chunks(model, keys))
        have = vector_store.rowids_with_vectors(self.local.conn, model, [w[0] for w in window])
        return [w for w in window if w[0] not in have]

    def give(
        self, model: str, chunks: Sequence[tuple[int, str, str, int]], vectors: Sequence[bytes]
    ) -> None:
        """Write what this machine embedded to the store, for every other machine (nothing
        when this user may only read: then it is said, once, that they stay here)."""
        rows = [
            (chunk_id, text_digest(text), chapter, blob)
            for (_, text, chunk_id, chapter), blob in zip(chunks, vectors, strict=True)
        ]
        if self.shared.put(model, rows) is None and not self._said_kept_here:
            self._said_kept_here = True
            warnings.warn(say("vectors_kept_here"), stacklevel=4)


def carry_home(local: SQLiteStore, pages: Iterator[tuple[str, list[Row]]]) -> int:
    """Give this folder's cut chunks the vectors of `pages` ((model, rows of chunk id, digest,
    chapter, float32 bytes), a copied book's: store/vector_copy.py) whose chunk id and text
    they share, a page a transaction; returns how many chunks got one."""
    taken = 0
    for model, page in pages:
        rows = [(chunk_id, digest, blob) for chunk_id, digest, _, blob in page]
        matched = _matching(local, model, rows)
        if matched:
            with local.atomic() as conn:
                vector_store.put_vectors(conn, model, matched)
            taken += len(matched)
    return taken


def _matching(
    local: SQLiteStore, model: str, rows: Sequence[tuple[str, str, bytes]]
) -> list[tuple[int, int, bytes]]:
    """(rowid, dimension, vector) for the local chunks that `rows` (chunk id, text digest,
    float32 bytes) belong to, same id and same text, and that lack `model`'s vector here (the
    store gives back this machine's own vectors too: they are not taken twice)."""
    cut = vector_store.chunks_by_chunk_id(local.conn, [chunk_id for chunk_id, _, _ in rows])
    matched = []
    for chunk_id, digest, blob in rows:
        found = cut.get(chunk_id)
        if found is not None and text_digest(found[1]) == digest:
            matched.append((found[0], len(blob) // 4, blob))
    have = vector_store.rowids_with_vectors(local.conn, model, [m[0] for m in matched])
    return [m for m in matched if m[0] not in have]
