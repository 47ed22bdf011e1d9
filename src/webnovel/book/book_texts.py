"""What the facade reads of a book's texts beside its memory: a chapter's outline from the book's
folder, the passage of a stored chapter a piece of evidence came from, and the search over the
chapters (made once per handle)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from ..errors import InvalidConfig, InvalidInput
from ..ingest.text_files import read_text
from ..messages import say
from ..untrusted.safe_paths import refuse_link_below
from .reader import chapter_number

if TYPE_CHECKING:
    from ..memory.packs.memory_pack import Passage
    from ..memory.retrieval.search import Retrieval
    from .project import Project


def find_outline(book: Project, chapter: int) -> str | None:
    """The book's outline for a chapter, by convention `outlines/NNN.md` (also `N.md`,
    `NNNN.md`, `第N章.md`, or `.txt`) under the book's folder."""
    folder = book.root / "outlines"
    for stem in (f"{chapter:03d}", str(chapter), f"{chapter:04d}", f"第{chapter}章"):
        for suffix in (".md", ".txt"):
            path = folder / f"{stem}{suffix}"
            # a link would put a file from outside the book into the pack, and so the prompt
            refuse_link_below(book.root, path)
            if path.is_file():
                try:
                    return read_text(path)[0]
                except (InvalidInput, OSError) as exc:  # a bad outline must not stop a pack
                    warnings.warn(say("outline_skipped", path=path, error=exc), stacklevel=3)
    return None


def passage(book: Project, chapter: int, quote: str | None, radius: int) -> str | None:
    """The passage of a chapter's stored text a piece of evidence came from: around the quote
    where it is verbatim, else the chapter's slice that search ranks first for it, else the
    chapter's opening. None when the chapter has no text."""
    chapter_number(chapter, "chapter")
    stored = book.store.commits.current_commit(chapter)
    text = (stored or {}).get("text") or ""
    if not text:
        return None
    at = text.find(quote) if quote else -1
    if at < 0 and quote:
        # Evidence quotes are often the agent's paraphrase: find the slice they describe.
        hits = book.search(quote, top_k=50, as_of=chapter)
        found = [h for h in hits if h.chapter == chapter and h.kind == "scene_slice"]
        if found:
            return found[0].text
    if at < 0:
        return text[: 2 * radius].strip()
    start, end = max(0, at - radius), min(len(text), at + len(quote or "") + radius)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def make_retrieval(book: Project, warn_lexical: bool) -> Retrieval:
    """The search over `book`. An embedder that cannot load leaves it lexical, which is said
    (unless `warn_lexical` is False: `embed` raises the problem itself) and kept in the book's
    `embedder_problem`."""
    from ..memory.retrieval.embedders import make_embedder
    from ..memory.retrieval.search import Retrieval
    from ..user.config import refuse_a_model_shipped_with_the_book

    refuse_a_model_shipped_with_the_book(book.config.embedder, book.root)
    try:
        embedder = make_embedder(book.config.embedder, book.config.embed_endpoint)
    except InvalidConfig as exc:
        if not isinstance(exc.__cause__, ImportError):
            raise
        # a model that cannot load leaves search lexical, said once; `embed` says why
        if warn_lexical:
            warnings.warn(say("lexical_only", problem=exc), stacklevel=3)
        book.embedder_problem = exc
        embedder = None
    return Retrieval(
        book.storage.vectors,
        book.storage.lexicon,
        book.storage.conn,
        book.aliases,
        embedder,
        book.storage.shared_vectors(),
    )


def retrieved_passages(book: Project, text: str, as_of: int, top_k: int) -> list[Passage]:
    """Search hits as a pack's historical evidence (a hit's 0–1 score lifted above the rest)."""
    from ..memory.packs.memory_pack import Passage

    return [
        Passage(
            chunk_id=h.chunk_id,
            chapter=h.chapter,
            kind=h.kind,
            text=h.text,
            score=0.4 + h.score,  # a hit's score is 0–1
        )
        for h in book.retrieval().search(text, top_k, as_of)
    ]
