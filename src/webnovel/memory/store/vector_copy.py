"""A copied book's dense vectors (`webnovel copy`): what the source's machines embedded is not
paid for again by the copy's.

From a PostgreSQL book, its shared table (every machine's vectors); from a SQLite book, its
folder's `vectors.db`. A vector goes with its chunk's id and text digest, so it is taken only by
a chunk of the same text in the copy. Into a PostgreSQL copy they go to its shared table, here;
a SQLite copy's `vectors.db` takes them by chunk once its chunks are cut
(retrieval/vector_catch_up.py, `carry_home`).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import vector_store
from .pg.pg_vectors import text_digest
from .storage import Storage

ROWS_A_PAGE = 500

Row = tuple[str, str, int, bytes]  # chunk id, digest, chapter, float32 vector


def carry_vectors(source: Storage, target: Storage) -> int:
    """Put the source's vectors into the target's shared table; returns how many were new
    there (0 when the target keeps no shared vectors, or may not write them)."""
    into = target.shared_vectors()
    if into is None:
        return 0
    return sum(into.put(model, page) or 0 for model, page in vectors_of(source))


def vectors_of(source: Storage) -> Iterator[tuple[str, list[Row]]]:
    """Every vector the source keeps, as (model, page of rows), a page at a time."""
    shared = source.shared_vectors()
    if shared is not None:
        for model in shared.models():
            for arrived in shared.since(model, 0):
                rows = [(v.chunk_id, v.digest, v.chapter, v.blob) for v in arrived]
                for at in range(0, len(rows), ROWS_A_PAGE):
                    yield model, rows[at : at + ROWS_A_PAGE]
        return
    if not source.vectors_path.exists():
        return
    page: list[Row] = []
    last = ""
    for model, chunk_id, text, chapter, blob in vector_store.every_vector(source.vectors.conn):
        if page and (model != last or len(page) == ROWS_A_PAGE):
            yield last, page
            page = []
        last = model
        page.append((chunk_id, text_digest(text), chapter, blob))
    if page:
        yield last, page
