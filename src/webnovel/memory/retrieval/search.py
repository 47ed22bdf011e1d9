"""Episodic retrieval: find the past passage an author or agent needs, in Chinese, as of any
chapter, with no network service.

`vectors.db` (the chunks) and the tantivy lexicon are projections of `index.db`, kept in step
lazily: before answering, `sync()` re-cuts exactly the chapters committed since it last ran (new,
revised, retracted). Text is indexed folded (traditional → simplified, `folding.py`) and the
question is folded the same way; the original stays in `vectors.db` for display.

Ranking: tantivy proposes candidates with one BM25 query over the question's bigrams and longer
words, and one over its characters (for passages that share characters but no word with it:
a poem asked for by its title); `scoring.py` scores each again from its own text with the
book's live statistics (a calibrated 0–1 lexical score, and what matched). With vectors, the dense side proposes its own
candidates and each candidate gets a semantic score calibrated against the book (how far its
cosine stands above the book's typical passage). The two are fused as independent evidence
(1 − (1 − lexical)(1 − w·semantic)): dense evidence can raise a passage, never pull a decisive
lexical match down, and a paraphrase with no shared word still surfaces. Ties are broken by the
passage's place in the book, so the order is a function of the book's content alone.
"""

from __future__ import annotations

import sqlite3
import warnings
from array import array
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from ...errors import EndpointFailed
from ...messages import say
from ...user.config import first_use_notice
from ..read.aliases import AliasIndex
from ..store import commit_ops, vector_store
from ..store.connection import Connection
from ..store.index_store import SQLiteStore, loads
from ..store.lexical_index import LexicalIndex
from .dense_matrix import DenseMatrix
from .embedders import Embedder
from .folding import fold
from .scoring import (
    LexicalMatch,
    QueryTerms,
    can_stand_on_characters,
    holds_enough_characters,
    matched_terms,
    query_terms,
    score_passage,
    semantic_scores,
    snippet,
)
from .search_hit import SearchHit
from .segmenter import CJK_RUN, Segmenter, bigram_tokens, char_tokens, load_segmenter
from .term_counts import HeldCounts
from .vector_catch_up import VectorCatchUp, VectorStore

# Measured on our own sets (benchmarks/retrieval_quality.py, docs/benchmarks.md).
CANDIDATES = 60  # proposed by the lexical side, then scored again
CHAR_CANDIDATES = 20  # proposed by the question's characters alone, then scored again
DENSE_CANDIDATES = 40  # proposed by the dense side
QUERY_WORD_CHARS = 8  # the longest stretch of a question looked up as a word
QUESTION_TERMS = 48  # a longer text (a pack's outline) is searched by its rarest bigrams
DENSE_WEIGHT = 0.3  # how far a fully confident semantic match alone goes (0–1)
WEAK_SCORE = 0.12  # below: the hit is marked weak (an off-book question reaches 0.05–0.25)
FLOOR_SCORE = 0.04  # below: left out
ENTITY_PRIOR = 0.01  # per entity named by both the query and the chunk
RECENCY_PRIOR = 0.01  # scaled by how late in the book the chunk is
EMBED_KINDS = ("chapter_summary", "scene_summary")
SORT_WINDOW = 16  # batches fetched at once and sorted by length before embedding
# what the lexicon's documents hold; another value re-indexes all. 4: the book's names laid over
# a shared dictionary, always one word (jieba, names added, cut 那高俅 and 悟空闻 across them)
LEXICON_FORMAT = "5:titles"
Progress = Callable[[int, int], None]


def fuse(lexical: float, semantic: float) -> float:
    """Independent evidence, combined: a passage's score only rises with semantic evidence,
    so a decisive lexical match keeps its place, and a paraphrase with no shared word reaches
    at most DENSE_WEIGHT."""
    return 1 - (1 - lexical) * (1 - DENSE_WEIGHT * semantic)


def folded_text(chunk: dict[str, Any]) -> str:
    """A chunk's text as search reads it: kept when it was cut, folded now for one cut by a
    version that did not keep it."""
    kept: str | None = chunk["folded"]
    if kept is None:
        return fold(chunk["text"])
    return kept or chunk["text"]


def pending_chapters(index: Connection, vectors: sqlite3.Connection) -> int:
    """About how many chapters the next search must index first: those committed since the
    index last caught up (every chapter when it never did, or was made by another version).
    Cheap, and needs neither the segmenter nor the embedder."""
    seq = commit_ops.get_meta(index, "commit_seq") or "0"
    synced = vector_store.synced_seq(vectors)
    current = vector_store.get_meta(vectors, "lexicon_format") == LEXICON_FORMAT
    if current and synced == seq:
        return 0
    if current and synced and synced.isdigit():
        return len(commit_ops.chapters_committed_since(index, int(synced)))
    return len(commit_ops.chapter_commit_ids(index, None))


class Retrieval:
    def __init__(
        self,
        store: SQLiteStore,
        lexicon: LexicalIndex,
        index: Connection,
        aliases: Callable[[], AliasIndex],
        embedder: Embedder | None = None,
        shared: VectorStore | None = None,
    ) -> None:
        """`shared`: the vectors a shared store keeps for the book (PostgreSQL), which this
        machine's `vectors.db` catches up on and gives what it embeds to."""
        self.store = store
        self.lexicon = lexicon
        self.index = index
        self.aliases = aliases
        self.embedder = embedder
        self._announced = False
        self._folded_kept = False  # every chunk's folded text is kept (vectors.db 0004)
        self._segmenter: Segmenter | None = None
        self._loaded_seq: str | None = None  # the sync our lexical reader last saw
        self._dense = DenseMatrix()
        self._dense_failed = False
        self._stats_key: tuple[str, int | None] | None = None  # (store generation, as_of)
        self._doc_freq: dict[tuple[str, str], int] = {}
        self._documents = 0
        self._count_as_of: int | None = None  # the chapter filter the counts need (None: none)
        self._held_counts = HeldCounts(lexicon.count_holding)
        self.shared = None if shared is None else VectorCatchUp(store, shared)

    def segmenter(self) -> Segmenter:
        """Built on first use, over the process's dictionary (loaded once); the book's names
        are laid over it at each use."""
        if self._segmenter is None:
            self._segmenter = load_segmenter()
        return self._segmenter

    # -- keeping in step with index.db --------------------------------------------------------

    def stale_chapters(self, since: str | None = None) -> tuple[list[int], list[int]]:
        """(chapters to re-cut, chapters to drop). With `since`, the commit sequence last
        synced, only the chapters committed (or retracted) after it are compared: one new
        chapter of a 10,000-chapter book is one comparison, not 10,000."""
        chapters = (
            commit_ops.chapters_committed_since(self.index, int(since))
            if since and since.isdigit()
            else None
        )
        wanted = commit_ops.chapter_commit_ids(self.index, chapters)
        have = vector_store.chapter_state(self.store.conn, chapters)
        recut = sorted(c for c, commit_id in wanted.items() if have.get(c) != commit_id)
        return recut, sorted(set(have) - set(wanted))

    def _format_current(self) -> bool:
        return vector_store.get_meta(self.store.conn, "lexicon_format") == LEXICON_FORMAT

    def sync(self, progress: Progress | None = None) -> int:
        """Bring the chunks and the lexical index up to the book's commits; returns how many
        chapters were re-cut or dropped."""
        lexicon = self.lexicon
        meta = commit_ops.all_meta(self.index)  # one read: on PostgreSQL, a round trip
        seq, book = meta.get("commit_seq") or "0", meta.get("book_id") or ""
        synced = vector_store.synced_seq(self.store.conn)
        another_book = (vector_store.get_meta(self.store.conn, "book_id") or "") != book
        if lexicon.made_empty() or not self._format_current() or another_book:
            # a deleted (or never made) index, one made by an older version, or one of another
            # book under the same name: every chapter
            with self.store.atomic() as conn, lexicon.writing() as writer:
                writer.delete_all()
                if another_book:
                    vector_store.forget_book(conn)
                    vector_store.set_meta(conn, "book_id", book)
                vector_store.forget_chapter_states(conn)
                vector_store.set_synced_seq(conn, "")
                vector_store.set_meta(conn, "lexicon_format", LEXICON_FORMAT)
            synced = ""
        if not self._folded_kept:
            self._keep_folded()
        if synced == seq:
            if self._loaded_seq != synced:  # another process indexed since we last looked
                lexicon.reload()
                self._loaded_seq = synced
            return 0  # nothing committed since the last sync: skip comparing every chapter
        recut, dropped = self.stale_chapters(synced)
        if recut or dropped:
            self._recut(recut, dropped, progress)
        if recut and self.shared is not None and self.embedder is not None:
            self.shared.after_recut(self.embedder.name, recut)
        with self.store.atomic() as conn:
            vector_store.set_synced_seq(conn, seq)
        self._loaded_seq = seq
        return len(recut) + len(dropped)

    def _keep_folded(self) -> None:
        """Once a book: keep the folded text of the chunks an older version cut without it
        (their vectors stay; a re-cut would drop them)."""
        if vector_store.get_meta(self.store.conn, "folded_kept") != "1":
            with self.store.atomic() as conn:
                rows = vector_store.chunks_never_folded(conn)
                vector_store.set_folded(conn, [(r, text, fold(text)) for r, text in rows])
                vector_store.set_meta(conn, "folded_kept", "1")
        self._folded_kept = True

    def reindex(self, progress: Progress | None = None) -> int:
        """Cut and index every chapter again (after a rebuild). Forgetting the chapter states
        would hide the chapters retracted since the last sync from `stale_chapters` (it drops
        only what they list): their chunks and lexicon documents go first, here."""
        wanted = commit_ops.chapter_commit_ids(self.index, None)
        with self.store.atomic() as conn, self.lexicon.writing() as lexicon:
            lexicon.delete_all()  # every chapter is indexed again below
            vector_store.delete_chapters(conn, vector_store.chunk_chapters(conn) - set(wanted))
            vector_store.forget_chapter_states(conn)
            vector_store.set_synced_seq(conn, "")
        return self.sync(progress)

    def _recut(self, recut: list[int], dropped: list[int], progress: Progress | None) -> None:
        """Cut the chapters into chunks and index them, in one `vectors.db` transaction. The
        lexical index commits last inside it: a crash leaves these chapters stale in
        `chapter_state`, and the next sync deletes and redoes them in both stores."""
        # the write path's parsing, only when chapters are cut: a search in step never loads it
        from ..write.chapter_result import parse_chapter_result
        from .chunker import chapter_chunks

        segmenter = self.segmenter()
        aliases = self.aliases()
        with self.store.atomic() as conn, self.lexicon.writing() as lexicon:
            # another process (a search, the background embedder) may have cut some of them
            # while this one waited for the write lock: cutting them again would drop the
            # vectors embedded since
            wanted = commit_ops.chapter_commit_ids(self.index, recut)
            have = vector_store.chapter_state(conn, recut + dropped)
            recut = [c for c in recut if have.get(c) != wanted.get(c)]
            dropped = [c for c in dropped if c in have]
            vector_store.delete_chapters(conn, dropped + recut)
            for chapter in dropped + recut:
                lexicon.delete_chapter(chapter)
            for done, chapter in enumerate(recut, start=1):
                commit = commit_ops.current_commit(self.index, chapter)
                if commit is not None:
                    result = parse_chapter_result(commit["result"], chapter)
                    for chunk in chapter_chunks(result, commit["text"]):
                        mentions = aliases.find(chunk.text, fold=False)
                        entities = sorted({*chunk.entities, *(m.entity_id for m in mentions)})
                        folded = fold(chunk.text)
                        rowid = vector_store.insert_chunk(
                            conn,
                            chapter,
                            chunk.chunk_id,
                            chunk.kind,
                            chunk.seq,
                            chunk.text,
                            entities,
                            folded,
                        )
                        # the names found above, unless folding moved the text (traditional)
                        found = mentions if folded == chunk.text else None
                        lexicon.add(
                            rowid,
                            chapter,
                            " ".join(bigram_tokens(folded)),
                            " ".join(segmenter.words(folded, aliases, found)),
                            entities,
                            " ".join(char_tokens(folded)),
                        )
                    vector_store.set_chapter_state(conn, chapter, commit["commit_id"])
                if progress:
                    progress(done, len(recut))
            vector_store.next_generation(conn)

    # -- searching ----------------------------------------------------------------------------

    def _statistics(self, as_of: int | None) -> None:
        """The chunk count and term counts of the book as of chapter `as_of`, kept until the
        chunks change (in this process or another). As of N they are the counts of a book
        holding only chapters 1..N: later chapters change no score, no order and no cut."""
        key = (vector_store.generation(self.store.conn), as_of)
        if key != self._stats_key:
            self._stats_key = key
            self._doc_freq = {}
            # as of the last indexed chapter or later (a pack for the next chapter) every live
            # chunk counts, and a count without the chapter filter costs a third: the filter
            # is a pass over the chapter column for each of a question's dozens of terms
            self._count_as_of = as_of
            if as_of is not None:
                last = self.lexicon.last_chapter()
                if last is None or last <= as_of:
                    self._count_as_of = None
            self._documents = self.lexicon.count(self._count_as_of)

    def _count(self, column: str, term: str) -> int:
        key = (column, term)
        if key not in self._doc_freq:
            as_of = self._count_as_of
            if column == "phrase":  # a chunk holding the phrase holds each of its bigrams
                column, terms = "bigrams", tuple(bigram_tokens(term))
            else:
                terms = (term,)
            if as_of is None:
                self._doc_freq[key] = self.lexicon.count_holding(column, terms)
            else:  # from the count at a nearby chapter kept since an earlier search
                generation = self._stats_key[0] if self._stats_key else ""
                self._doc_freq[key] = self._held_counts.count(generation, column, terms, as_of)
        return self._doc_freq[key]

    def search(
        self,
        text: str,
        top_k: int = 10,
        as_of: int | None = None,
        columns: tuple[str, ...] = ("bigrams", "words", "chars", "dense"),
        entity_prior: bool = False,
        recency: bool = False,
        rescore: bool = True,
        keep_weak: bool = True,
        min_score: float = FLOOR_SCORE,
    ) -> list[SearchHit]:
        """The passages that answer `text` best, up to chapter `as_of`, with a calibrated score
        and what matched. A question none of whose terms occurs in the book finds nothing;
        passages with too little evidence are left out (FLOOR_SCORE) or marked weak.

        `columns=("bigrams",), rescore=False` is the plain bigram BM25 that every feature must
        beat; `entity_prior` (chunks naming the question's entities) and `recency` (later
        chapters) are measured and off: on real text neither helped on every set."""
        self.sync()
        self._statistics(as_of)
        folded = fold(text)
        query = self._question(folded, columns)
        if query.ideal <= 0:
            return []
        bm25 = self._propose(query, columns, as_of, top_k)
        if not query.found_anywhere:  # dense evidence alone proposes nothing either
            columns = tuple(c for c in columns if c != "dense")
        semantic = self._semantic(folded, as_of, set(bm25)) if "dense" in columns else {}
        candidates = set(bm25) | {r for r, s in semantic.items() if s > 0}
        chunks = vector_store.chunks_by_rowid(self.store.conn, sorted(candidates))
        chunks = {r: c for r, c in chunks.items() if as_of is None or c["chapter"] <= as_of}
        texts = {r: folded_text(c) for r, c in chunks.items()}
        matches = {r: score_passage(query, texts[r], marked=False) for r in chunks}
        # a passage sharing only characters must share enough of them: stray ones are noise
        chunks = {
            r: c
            for r, c in chunks.items()
            if matches[r].words_matched or holds_enough_characters(query, texts[r])
        }
        scores: dict[int, float] = {}
        for rowid in chunks:
            lexical = (
                matches[rowid].score if rescore else min(1.0, bm25.get(rowid, 0.0) / query.ideal)
            )
            dense = semantic.get(rowid)
            scores[rowid] = lexical if dense is None else fuse(lexical, dense)
        self._priors(scores, chunks, folded, entity_prior, recency)
        raw = {r: (matches[r].raw if rescore else bm25.get(r, 0.0)) for r in chunks}
        order = sorted(
            chunks,
            key=lambda r: (
                -round(scores[r], 9),
                -round(raw[r], 9),
                chunks[r]["chapter"],
                chunks[r]["seq"],
                chunks[r]["chunk_id"],
            ),
        )
        hits = []
        for rowid in order:
            weak = scores[rowid] < WEAK_SCORE or not matches[rowid].words_matched
            if scores[rowid] < min_score or (weak and not keep_weak):
                continue
            marked = score_passage(query, texts[rowid])  # its matches, for the snippet
            hits.append(self._hit(chunks[rowid], marked, scores[rowid], semantic.get(rowid), weak))
            if len(hits) == top_k:
                break
        return hits

    def _question(self, folded: str, columns: tuple[str, ...]) -> QueryTerms:
        """The question's terms and weights; none (ideal 0) when neither its bigrams nor words
        occur in the book and its characters cannot stand in for them."""
        bigrams = list(dict.fromkeys(bigram_tokens(folded)))
        long_text = len(bigrams) > QUESTION_TERMS
        if long_text:  # an outline: its rarest terms carry it (a term dictionary lookup each)
            frequency = {t: self.lexicon.term_frequency("bigrams", t) for t in bigrams}
            bigrams = sorted(bigrams, key=lambda t: (frequency[t], t))[:QUESTION_TERMS]
        words = self._query_words(folded) if "words" in columns and not long_text else []
        characters = char_tokens(folded) if "chars" in columns and not long_text else []
        query = query_terms(bigrams, words, self._count, self._documents, characters)
        if query.found_anywhere or can_stand_on_characters(query):
            return query
        return QueryTerms((), 0.0)

    def _propose(
        self, query: QueryTerms, columns: tuple[str, ...], as_of: int | None, top_k: int
    ) -> dict[int, float]:
        """Candidates (chunk rowid → tantivy's BM25): one query over the bigrams and longer
        words, and one over the characters for passages sharing nothing longer (scored 0 here:
        they are scored again like the others)."""
        terms: dict[str, list[str]] = {}
        for term in query.terms:
            if term.column == "bigrams" and "bigrams" in columns:
                terms.setdefault("bigrams", []).append(term.text)
            elif term.column == "phrase" and "words" in columns:
                terms.setdefault("words", []).append(term.text)
        bm25 = {}
        if query.found_anywhere and terms:
            bm25 = dict(self.lexicon.search(terms, as_of, max(CANDIDATES, 2 * top_k)))
        characters = [t.text for t in query.terms if t.column == "chars"]
        if characters and CHAR_CANDIDATES:
            # as many as the answer asks for (like the query above): tantivy's own statistics
            # still count deleted passages, so a short list could differ after a retraction
            limit = max(CHAR_CANDIDATES, 2 * top_k)
            by_chars = self.lexicon.search({"chars": characters}, as_of, limit)
            bm25.update((r, 0.0) for r, _ in by_chars if r not in bm25)
        return bm25

    def _query_words(self, folded: str) -> list[str]:
        """The question's words: every stretch of it (2 to 8 characters) that the segmenter
        made a word of somewhere in the book, confirmed in a live chunk. Looked up in the
        index's own vocabulary, so a search needs no segmenter (loading one costs a fresh
        process 0.3–2 s) and a name is a word exactly when the book has it as one."""
        stretches = [
            run[i : i + n]
            for run in CJK_RUN.findall(folded)
            for i in range(len(run) - 1)
            for n in range(2, min(QUERY_WORD_CHARS, len(run) - i) + 1)
        ]
        return [
            w
            for w in self.lexicon.known_terms("words", dict.fromkeys(stretches))
            if self._count("bigrams" if len(w) == 2 else "phrase", w) > 0  # by content, as of N
        ]

    @staticmethod
    def _hit(
        chunk: dict[str, Any], match: LexicalMatch, score: float, dense: float | None, weak: bool
    ) -> SearchHit:
        shown = snippet(chunk["text"], match)
        return SearchHit(
            chunk_id=chunk["chunk_id"],
            chapter=chunk["chapter"],
            kind=chunk["kind"],
            text=chunk["text"],
            score=score,
            entities=tuple(loads(chunk["entities_json"])),
            lexical=match.score,
            semantic=dense,
            matched=matched_terms(chunk["text"], match),
            snippet=shown.text,
            marks=shown.marks,
            weak=weak,
        )

    def _priors(
        self,
        scores: dict[int, float],
        chunks: dict[int, dict[str, Any]],
        folded: str,
        entity_prior: bool,
        recency: bool,
    ) -> None:
        if entity_prior:
            wanted = {m.entity_id for m in self.aliases().find(folded)}
            for rowid, chunk in chunks.items():
                scores[rowid] += ENTITY_PRIOR * len(wanted & set(loads(chunk["entities_json"])))
        if recency and chunks:
            latest = max(c["chapter"] for c in chunks.values())
            for rowid, chunk in chunks.items():
                scores[rowid] += RECENCY_PRIOR * min(1.0, chunk["chapter"] / max(1, latest))

    def _announce_endpoint(self) -> None:
        """The first time this user sends text to an embedding endpoint, say where; recorded per
        user (user_config.first_use_notice), never in the book, which may come from someone."""
        endpoint = getattr(self.embedder, "endpoint", None)
        if endpoint is None or self._announced:
            return
        self._announced = True
        notice = first_use_notice(endpoint)
        if notice:
            warnings.warn(notice, stacklevel=3)

    def _semantic(self, folded: str, as_of: int | None, also: set[int]) -> dict[int, float]:
        """Calibrated semantic scores (0–1) of the passages closest to the question and of
        the lexical candidates `also`: every passage with a vector, up to `as_of`, against the
        in-memory matrix."""
        if self.embedder is None or self._dense_failed:
            return {}
        try:
            import numpy  # noqa: F401
        except ImportError:
            return {}
        self._announce_endpoint()
        if self.shared is not None:  # what other machines embedded since (one round trip)
            self.shared.catch_up(self.embedder.name)
        dim = getattr(self.embedder, "dim", None)
        query = self.embedder.embed_query(folded)
        if not self._dense.load(self.store.conn, self.embedder.name, dim or len(query)):
            return {}
        nearest = self._dense.nearest(query, as_of, DENSE_CANDIDATES, also)
        if nearest.rows < 2:
            return {}
        return semantic_scores(nearest.cosines, nearest.mean, nearest.spread)

    # -- dense vectors ------------------------------------------------------------------------

    def embed(
        self,
        progress: Progress | None = None,
        batch: int = 32,
        kinds: tuple[str, ...] = EMBED_KINDS,
    ) -> dict[str, int]:
        """Fill missing vectors, committing each batch: stop it any time and run it again.
        With a shared store, the vectors it has are taken first (`reused`) and only the rest
        go to the model (`embedded`), then to the store for the other machines."""
        if self.embedder is None:
            return {"embedded": 0, "missing": 0, "reused": 0}
        self.sync()
        self._announce_endpoint()
        name = self.embedder.name
        reused = self.shared.catch_up(name) if self.shared is not None else 0
        total = vector_store.count_missing_vectors(self.store.conn, name, kinds)
        done = embedded = 0
        while window := vector_store.chunks_without_vectors(
            self.store.conn, name, kinds, batch * SORT_WINDOW
        ):
            # one machine at a time calls the model for the book, a window at a time: another
            # one waits, then takes these vectors instead of sending the same passages
            with self.shared.turn() if self.shared is not None else nullcontext():
                if self.shared is not None:
                    todo = self.shared.take_for(name, window)
                    done, reused = done + len(window) - len(todo), reused + len(window) - len(todo)
                    window = todo
                # batches of like length: a batch is padded to its longest passage
                window.sort(key=lambda chunk: len(chunk[1]))
                for start in range(0, len(window), batch):
                    done = self._embed_batch(window[start : start + batch], name, done)
                    embedded += len(window[start : start + batch])
                    if progress:
                        progress(done, total)
        return {"embedded": embedded, "missing": total - done, "reused": reused}

    def _embed_batch(self, todo: list[tuple[int, str, str, int]], name: str, done: int) -> int:
        """Embed and store one batch, committed on its own (in the shared store first, when
        there is one); returns how many are done."""
        assert self.embedder is not None
        vectors = self.embedder.embed_passages([chunk[1] for chunk in todo])
        if len(vectors) != len(todo):
            raise EndpointFailed(
                say("embedder_count", name=name, texts=len(todo), vectors=len(vectors))
            )
        dim = vector_store.vector_dim(self.store.conn, name)
        rows = []
        for (rowid, *_), vector in zip(todo, vectors, strict=True):
            packed = array("f", [float(v) for v in vector])
            dim = dim or len(packed)
            if len(packed) != dim:
                raise EndpointFailed(say("embedder_dimension", name=name, got=len(packed), dim=dim))
            rows.append((rowid, len(packed), packed.tobytes()))
        if self.shared is not None:
            self.shared.give(name, todo, [row[2] for row in rows])
        with self.store.atomic() as conn:
            vector_store.put_vectors(conn, name, rows)
        return done + len(rows)

    def stats(self) -> dict[str, int]:
        """Counts, and how many chapters the next search will re-cut first."""
        recut, dropped = self.stale_chapters()
        return {**vector_store.counts(self.store.conn), "stale_chapters": len(recut) + len(dropped)}
