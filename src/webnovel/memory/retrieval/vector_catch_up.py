"""This machine's `vectors.db` catching up on the vectors a shared store keeps for the book
(a PostgreSQL book's `chunk_vectors`, store/pg_vectors.py), and giving back what it embeds.

A stored vector is taken only for a local chunk with the same id and the same text (its
digest): a chunk cut from a revised chapter never takes the vector of its old text, and one
cut from a chapter this machine has not caught up on yet is taken when it is cut (by chapter).
What arrives later, from another machine, is taken by its place in the store's order of
arrival: the last place taken is kept per model in `vectors.db`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..store import vector_store
from ..store.pg_vectors import SharedVector, text_digest

if TYPE_CHECKING:
    from ..store.index_store import SQLiteStore


class VectorStore(Protocol):
    """What a shared store gives (pg_vectors.SharedVectors)."""

    def since(self, model: str, after: int) -> Iterable[list[SharedVector]]: ...
    def of_chapters(self, model: str, chapters: Sequence[int]) -> list[SharedVector]: ...
    def of_chunks(self, model: str, keys: Sequence[tuple[str, str]]) -> list[SharedVector]: ...
    def put(self, model: str, rows: Iterable[tuple[str, str, int, bytes]]) -> int | None: ...


def _seen_key(model: str) -> str:
    return f"{vector_store.SHARED_SEEN}{model}"


class VectorCatchUp:
    def __init__(self, local: SQLiteStore, shared: VectorStore) -> None:
        self.local = local
        self.shared = shared

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
        local = vector_store.chunks_by_chunk_id(self.local.conn, [r.chunk_id for r in rows])
        matched = []
        for row in rows:
            found = local.get(row.chunk_id)
            if found is not None and text_digest(found[1]) == row.digest:
                matched.append((found[0], row.dim, row.blob))
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
        when this user may only read)."""
        rows = [
            (chunk_id, text_digest(text), chapter, blob)
            for (_, text, chunk_id, chapter), blob in zip(chunks, vectors, strict=True)
        ]
        self.shared.put(model, rows)
