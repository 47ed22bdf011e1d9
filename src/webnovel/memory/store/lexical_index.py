"""The lexical search index: tantivy over pre-tokenized text, in `<book>/.webnovel/lexicon/`.

Why a search engine and not SQLite FTS5: FTS5 scores every row that matches any term, so an OR
over all of a question's bigrams costs about 300 ms on 124,000 chunks, and dropping terms to make
it fast threw away the words that carry the question. tantivy prunes with block-max WAND and
returns the top k without scoring everything, so every query term takes part.

Each document is one retrieval chunk of `vectors.db`, found again by its `rowid`:
- `bigrams` and `words`: space-separated tokens made by `segmenter` (the whitespace tokenizer
  keeps them as they are), term frequencies for BM25, no positions;
- `chars`: the chunk's distinct CJK characters, presence only: they propose passages that share
  a question's characters but none of its words (a poem asked for by its title), and are
  counted again from the text when scored;
- `chapter`: a fast field, so `as_of` is a range filter and a revised chapter is deleted by term;
- `entities`: the entity ids a chunk names, one raw term each.

The index is derived: the retrieval layer adds and deletes documents inside the `vectors.db`
transaction that records them and commits the index just before that transaction, so after a
crash the chapters concerned are still stale and are redone. This module is the only code that
speaks tantivy; it is imported when a book first searches.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

COLUMNS = ("bigrams", "words")
PRESENCE_COLUMNS = ("chars",)  # no term frequencies: smaller, and the scorer recounts
WRITER_HEAP_BYTES = 64_000_000
FEW_CHAPTERS = 64  # a count over at most so many chapters names them (`count_holding`)


def _schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("rowid", stored=True, indexed=True, fast=True)
    builder.add_integer_field("chapter", stored=False, indexed=True, fast=True)
    for column in COLUMNS:
        builder.add_text_field(column, tokenizer_name="whitespace", index_option="freq")
    for column in PRESENCE_COLUMNS:
        builder.add_text_field(column, tokenizer_name="whitespace", index_option="basic")
    builder.add_text_field("entities", tokenizer_name="raw", index_option="basic")
    return builder.build()


class LexicalIndex:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._index: Any = None
        self._created = False

    @property
    def index(self) -> Any:
        if self._index is None:
            import shutil

            import tantivy

            fresh = not self.path.is_dir() or not tantivy.Index.exists(str(self.path))
            if fresh and self.path.exists():
                shutil.rmtree(self.path)  # a half-made folder: start over
            self.path.mkdir(parents=True, exist_ok=True)
            try:
                self._index = tantivy.Index(_schema(), path=str(self.path), reuse=True)
            except ValueError:
                # made by a version with other columns: the index is derived, so make it anew
                shutil.rmtree(self.path)
                self.path.mkdir(parents=True)
                self._index = tantivy.Index(_schema(), path=str(self.path), reuse=True)
                fresh = True
            self._created = fresh
        return self._index

    def made_empty(self) -> bool:
        """Whether opening made the index anew (first use, or its folder was deleted): then
        every chapter must be indexed again. Says so once."""
        self.index  # noqa: B018 - opens it
        created, self._created = self._created, False
        return created

    def reload(self) -> None:
        """See what another process (or this one) committed since."""
        self.index.reload()

    @contextmanager
    def writing(self) -> Iterator[_Writer]:
        """One writer at a time (the caller holds the `vectors.db` write lock); what it did is
        committed when the block ends, and rolled back if the block raises.

        The writer holds the index's lock until it is dropped, and a raised exception keeps the
        writer alive through its traceback: it is released here however the block ends, or
        every later writer (and so every later search that must catch up) would be refused."""
        writer = self.index.writer(WRITER_HEAP_BYTES, 1)
        try:
            yield _Writer(writer)
            writer.commit()
        except BaseException:
            writer.rollback()
            raise
        finally:
            writer.wait_merging_threads()  # drops the writer, and with it the lock
            del writer
        self.index.reload()

    def search(
        self, terms: Mapping[str, Iterable[str]], as_of: int | None, limit: int
    ) -> list[tuple[int, float]]:
        """(chunk rowid, BM25 score) of the chunks holding any of the terms, given per column,
        best first, never past chapter `as_of`. One query over both columns: a chunk's score
        is the sum of its BM25 over each."""
        import tantivy

        index = self.index
        schema = index.schema
        should = [
            (tantivy.Occur.Should, tantivy.Query.term_query(schema, column, term))
            for column, column_terms in terms.items()
            for term in dict.fromkeys(column_terms)
        ]
        if not should:
            return []
        query = tantivy.Query.boolean_query(should)
        if as_of is not None:
            in_time = tantivy.Query.range_query(
                schema, "chapter", tantivy.FieldType.Integer, None, as_of
            )
            # the filter scores the same for every chunk, so it changes no order
            query = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, query), (tantivy.Occur.Must, in_time)]
            )
        searcher = index.searcher()
        hits = searcher.search(query, limit, count=False).hits
        if not hits:
            return []
        rowids = searcher.fast_field_values("rowid", [address for _, address in hits])
        return [(rowid, score) for (score, _), rowid in zip(hits, rowids, strict=True)]

    def count(self, as_of: int | None = None) -> int:
        """Live chunks, of chapters up to `as_of` when given."""
        if as_of is None:
            return int(self.index.searcher().num_docs)
        return int(self.index.searcher().search(self._up_to(as_of), 1, count=True).count)

    def last_chapter(self) -> int | None:
        """The latest chapter of a live chunk (None: no chunk)."""
        import tantivy

        found = self.index.searcher().aggregate(
            tantivy.Query.all_query(), {"last": {"max": {"field": "chapter"}}}
        )
        value = found.get("last", {}).get("value")
        return None if value is None else int(value)

    def _up_to(self, as_of: int) -> Any:
        import tantivy

        return tantivy.Query.range_query(
            self.index.schema, "chapter", tantivy.FieldType.Integer, None, as_of
        )

    def term_frequency(self, column: str, term: str) -> int:
        """Chunks holding `term`, from the term dictionary (deleted chunks not yet merged away
        included): cheap, for choosing among terms, never for scoring."""
        return int(self.index.searcher().doc_freq(column, term))

    def known_terms(self, column: str, candidates: Iterable[str]) -> list[str]:
        """The candidates that some chunk's `column` holds (a dictionary lookup each; chunks
        deleted but not yet merged away may still count: callers confirm what matters)."""
        searcher = self.index.searcher()
        return [term for term in candidates if searcher.doc_freq(column, term) > 0]

    def count_holding(
        self,
        column: str,
        terms: Iterable[str],
        as_of: int | None = None,
        after: int | None = None,
    ) -> int:
        """How many live chunks (of chapters after `after` and up to `as_of`, when given) hold
        every one of `terms` in `column`. Counted by a query, not read from the term
        dictionary: that one still counts deleted chunks until their segment is merged, which
        would make scores depend on when merges happened."""
        import tantivy

        schema = self.index.schema
        must = [
            (tantivy.Occur.Must, tantivy.Query.term_query(schema, column, term))
            for term in dict.fromkeys(terms)
        ]
        if not must:
            return 0
        if after is not None and as_of is not None and as_of - after <= FEW_CHAPTERS:
            # a few chapters as terms: their chunks lead the count, where the range filter
            # would walk every chunk holding the terms (0.05 against 0.5 ms for 在)
            chapters = [
                (tantivy.Occur.Should, tantivy.Query.term_query(schema, "chapter", chapter))
                for chapter in range(after + 1, as_of + 1)
            ]
            must.append((tantivy.Occur.Must, tantivy.Query.boolean_query(chapters)))
        elif after is not None:
            between = tantivy.Query.range_query(
                schema, "chapter", tantivy.FieldType.Integer, after, as_of, include_lower=False
            )
            must.append((tantivy.Occur.Must, between))
        elif as_of is not None:
            must.append((tantivy.Occur.Must, self._up_to(as_of)))
        query = must[0][1] if len(must) == 1 else tantivy.Query.boolean_query(must)
        return int(self.index.searcher().search(query, 1, count=True).count)


class _Writer:
    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def delete_all(self) -> None:
        self._writer.delete_all_documents()

    def delete_chapter(self, chapter: int) -> None:
        self._writer.delete_documents_by_term("chapter", chapter)

    def add(
        self,
        rowid: int,
        chapter: int,
        bigrams: str,
        words: str,
        entities: Iterable[str],
        chars: str = "",
    ) -> None:
        import tantivy

        document = tantivy.Document()
        document.add_integer("rowid", rowid)
        document.add_integer("chapter", chapter)
        document.add_text("bigrams", bigrams)
        document.add_text("words", words)
        document.add_text("chars", chars)
        for entity in entities:
            document.add_text("entities", entity)
        self._writer.add_document(document)
