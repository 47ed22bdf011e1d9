"""The facade's work for dense vectors: filling them now, in the background, or until none is
missing. One process embeds a book at a time (`memory/retrieval/background.py` holds the lock);
only a bundled embedder ever starts by itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InvalidInput
from ..memory.retrieval.background import embed_lock, start_embedding
from ..memory.retrieval.background import keep_embedding as keep_going
from ..memory.retrieval.embedders import is_bundled
from ..memory.retrieval.search import EMBED_KINDS
from ..memory.store import vector_store

if TYPE_CHECKING:
    from ..config import BookConfig
    from ..errors import InvalidConfig
    from ..memory.retrieval.search import Retrieval
    from ..memory.store.storage import Storage

Progress = Callable[[int, int], None]


class Embedding(Protocol):
    """What filling vectors uses of a book: its folder, config and storage, its search (made
    on first use), why its embedder did not load, and how many chapters are still to index."""

    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> BookConfig: ...

    @property
    def storage(self) -> Storage: ...

    @property
    def embedder_problem(self) -> InvalidConfig | None: ...

    def retrieval(self, *, warn_lexical: bool = True) -> Retrieval: ...

    def search_pending(self) -> int: ...


def embed(
    book: Embedding,
    progress: Progress | None,
    batch: int,
    include_text: bool,
    indexing: Progress | None = None,
) -> dict[str, Any]:
    """`Project.embed`: waits while another process embeds the book."""
    with embed_lock(book.storage.vectors_path.parent, wait=True):
        return _embed(book, progress, batch, include_text, indexing)


def start_in_background(book: Embedding) -> bool:
    """`Project.embed_in_background`, for a book that names an embedder."""
    if not is_bundled(book.config.embedder) or not pending(book):
        return False
    return start_embedding(book.root, book.storage.vectors_path.parent)


def keep_embedding(book: Embedding, progress: Progress | None, batch: int) -> dict[str, Any]:
    """`Project.keep_embedding`: the summaries' vectors until none is missing."""
    done = keep_going(
        book.storage.vectors_path.parent,
        lambda: int(_embed(book, progress, batch, include_text=False)["embedded"]),
        lambda: pending(book),
    )
    return {"model": book.config.embedder, "embedded": done}


def pending(book: Embedding) -> int:
    """Chapters still to index and summaries still without a vector."""
    missing = vector_store.count_without_vectors(book.storage.vectors.conn, EMBED_KINDS)
    return book.search_pending() + missing


def _embed(
    book: Embedding,
    progress: Progress | None,
    batch: int,
    include_text: bool,
    indexing: Progress | None = None,
) -> dict[str, Any]:
    # a model that cannot load is this call's error, raised below: not also a warning first
    retrieval = book.retrieval(warn_lexical=False)
    if retrieval.embedder is None and book.embedder_problem is not None:
        raise book.embedder_problem
    if retrieval.embedder is None:
        raise InvalidInput.of("no_embedder")
    kinds = (*EMBED_KINDS, "scene_slice") if include_text else EMBED_KINDS
    retrieval.sync(indexing)  # the chapters not yet cut (every one, on a machine new to the book)
    return {"model": retrieval.embedder.name, **retrieval.embed(progress, batch, kinds)}
