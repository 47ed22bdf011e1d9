"""What the facade reads of a book's texts beside its memory: a chapter's outline from the book's
folder, the passage of a stored chapter a piece of evidence came from, and the search over the
chapters (made once per handle)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvalidConfig, InvalidInput
from ..ingest.text_files import read_text
from ..messages import say
from ..untrusted.safe_paths import refuse_link_below
from .reader import chapter_number

if TYPE_CHECKING:
    from ..config import BookConfig
    from ..memory.packs.memory_pack import Passage
    from ..memory.read.aliases import AliasIndex
    from ..memory.retrieval.search import Retrieval
    from ..memory.retrieval.search_hit import SearchHit
    from ..memory.store.parts import Commits
    from ..memory.store.storage import Storage

# `Project.search`: (text, top_k, as_of) -> hits, best first
Search = Callable[[str, int, "int | None"], "list[SearchHit]"]


def find_outline(root: Path, chapter: int) -> str | None:
    """The book's outline for a chapter, by convention `outlines/NNN.md` (also `N.md`,
    `NNNN.md`, `第N章.md`, or `.txt`) under the book's folder."""
    folder = root / "outlines"
    for stem in (f"{chapter:03d}", str(chapter), f"{chapter:04d}", f"第{chapter}章"):
        for suffix in (".md", ".txt"):
            path = folder / f"{stem}{suffix}"
            # a link would put a file from outside the book into the pack, and so the prompt
            refuse_link_below(root, path)
            if path.is_file():
                try:
                    return read_text(path)[0]
                except (InvalidInput, OSError) as exc:  # a bad outline must not stop a pack
                    warnings.warn(say("outline_skipped", path=path, error=exc), stacklevel=3)
    return None


def passage(
    commits: Commits, search: Search, chapter: int, quote: str | None, radius: int
) -> str | None:
    """The passage of a chapter's stored text a piece of evidence came from: around the quote
    where it is verbatim, else the chapter's slice that search ranks first for it, else the
    chapter's opening. None when the chapter has no text."""
    chapter_number(chapter, "chapter")
    stored = commits.current_commit(chapter)
    text = (stored or {}).get("text") or ""
    if not text:
        return None
    at = text.find(quote) if quote else -1
    if at < 0 and quote:
        # Evidence quotes are often the agent's paraphrase: find the slice they describe.
        hits = search(quote, 50, chapter)
        found = [h for h in hits if h.chapter == chapter and h.kind == "scene_slice"]
        if found:
            return found[0].text
    if at < 0:
        return text[: 2 * radius].strip()
    start, end = max(0, at - radius), min(len(text), at + len(quote or "") + radius)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def make_retrieval(
    storage: Storage,
    config: BookConfig,
    root: Path,
    aliases: Callable[[], AliasIndex],
    warn_lexical: bool,
) -> tuple[Retrieval, InvalidConfig | None]:
    """The search over a book's store, and why its embedder did not load (None: it did, or
    the book names none). An embedder that cannot load leaves it lexical, which is said (unless
    `warn_lexical` is False: `embed` raises the problem itself). `aliases`: the book's names,
    kept in step with its commits."""
    from ..memory.retrieval.embedders import make_embedder
    from ..memory.retrieval.search import Retrieval
    from ..user.config import refuse_a_model_shipped_with_the_book

    refuse_a_model_shipped_with_the_book(config.embedder, root)
    problem = None
    try:
        embedder = make_embedder(config.embedder, config.embed_endpoint)
    except InvalidConfig as exc:
        if not isinstance(exc.__cause__, ImportError):
            raise
        # a model that cannot load leaves search lexical, said once; `embed` says why
        if warn_lexical:
            warnings.warn(say("lexical_only", problem=exc), stacklevel=3)
        problem, embedder = exc, None
    retrieval = Retrieval(
        storage.vectors,
        storage.lexicon,
        storage.conn,
        aliases,
        embedder,
        storage.shared_vectors(),
    )
    return retrieval, problem


def retrieved_passages(retrieval: Retrieval, text: str, as_of: int, top_k: int) -> list[Passage]:
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
        for h in retrieval.search(text, top_k, as_of)
    ]
