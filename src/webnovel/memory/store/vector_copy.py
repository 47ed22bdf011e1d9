"""A copied book's dense vectors, carried into a PostgreSQL copy's shared table (`webnovel
copy`): what the source's machines embedded is not paid for again by the copy's.

From a PostgreSQL book, its shared table (every machine's vectors); from a SQLite book, its
folder's `vectors.db`. A vector goes with its chunk's id and text digest, so it is taken only by
a chunk of the same text in the copy. A SQLite copy cuts its chunks later, at its first search,
and embeds for itself (its `vectors.db` is its own projection).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import vector_store
from .pg_vectors import text_digest
from .storage import Storage

ROWS_A_PUT = 500

Row = tuple[str, str, int, bytes]  # chunk id, digest, chapter, float32 vector


def carry_vectors(source: Storage, target: Storage) -> int:
    """Put the source's vectors into the target's shared table; returns how many were new
    there (0 when the target keeps no shared vectors, or may not write them)."""
    into = target.shared_vectors()
    if into is None:
        return 0
    carried = 0
    for model, rows in _source_rows(source):
        for at in range(0, len(rows), ROWS_A_PUT):
            carried += into.put(model, rows[at : at + ROWS_A_PUT]) or 0
    return carried


def _source_rows(source: Storage) -> Iterator[tuple[str, list[Row]]]:
    shared = source.shared_vectors()
    if shared is not None:
        for model in shared.models():
            rows: list[Row] = []
            for page in shared.since(model, 0):
                rows += [(v.chunk_id, v.digest, v.chapter, v.blob) for v in page]
            yield model, rows
        return
    if not source.vectors_path.exists():
        return
    by_model: dict[str, list[Row]] = {}
    for model, chunk_id, text, chapter, blob in vector_store.every_vector(source.vectors.conn):
        by_model.setdefault(model, []).append((chunk_id, text_digest(text), chapter, blob))
    yield from by_model.items()
