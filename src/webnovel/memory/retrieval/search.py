"""Episodic retrieval: find the past passage an author or agent needs, in Chinese, as of any
chapter, with no network service.

`vectors.db` (the chunks) and the tantivy lexicon are projections of `index.db`, kept in step
lazily: before answering, `sync()` re-cuts exactly the chapters committed since it last ran (new,
revised, retracted). Ranking is one BM25 query over every character bigram and word of the
question, fused by reciprocal rank with dense vectors when an embedder has filled them; chunks
naming the entities the question names get a light prior.
"""

from __future__ import annotations

import sqlite3
import warnings
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import EndpointFailed
from ...user_config import first_use_notice
from ..read.aliases import AliasIndex, traditional_folder
from ..store import commit_ops, vector_store
from ..store.index_store import SQLiteStore
from ..store.lexical_index import LexicalIndex
from ..write.chapter_result import parse_chapter_result
from .chunker import chapter_chunks
from .embedders import Embedder
from .segmenter import Segmenter, bigram_tokens, load_segmenter

# Settings measured on two real texts (benchmarks/retrieval_quality.py, docs/benchmarks.md): one
# BM25 query over bigrams and words beats fusing the two rankings; a small RRF constant fuses the
# lexical ranking with the dense one, because the top ranks carry the signal.
RRF_K = 10
COLUMN_WEIGHTS = {"lexical": 1.0, "dense": 1.0}
CANDIDATES = 50
ENTITY_PRIOR = 0.1 / RRF_K  # per entity named by both the query and the chunk
RECENCY_PRIOR = 0.1 / RRF_K  # scaled by how late in the book the chunk is
EMBED_KINDS = ("chapter_summary", "scene_summary")
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SearchHit:
    chunk_id: str
    chapter: int
    kind: str
    text: str
    score: float
    entities: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "chapter": self.chapter,
            "kind": self.kind,
            "text": self.text,
            "score": round(self.score, 6),
            "entities": list(self.entities),
        }


class Retrieval:
    def __init__(
        self,
        store: SQLiteStore,
        lexicon: LexicalIndex,
        index: sqlite3.Connection,
        aliases: Callable[[], AliasIndex],
        embedder: Embedder | None = None,
    ) -> None:
        self.store = store
        self.lexicon = lexicon
        self.index = index
        self.aliases = aliases
        self.embedder = embedder
        self._announced = False
        self._segmenter: Segmenter | None = None
        self._segmenter_for: tuple[int, int] | None = None  # (automaton, its version)
        self._loaded_seq: str | None = None  # the sync our lexical reader last saw

    def segmenter(self) -> Segmenter:
        """Built on first use; when the book's names change (a commit), the new ones are added
        to it (loading the dictionary again would cost 60 ms a commit)."""
        current = self.aliases()
        if self._segmenter is None:
            self._segmenter = load_segmenter(current.names)
        elif self._segmenter_for != (id(current), current.version):
            self._segmenter.add_words(current.names)
        self._segmenter_for = (id(current), current.version)
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

    def sync(self, progress: Progress | None = None) -> int:
        """Bring the chunks and the lexical index up to the book's commits; returns how many
        chapters were re-cut or dropped."""
        lexicon = self.lexicon
        seq = commit_ops.get_meta(self.index, "commit_seq") or "0"
        synced = vector_store.synced_seq(self.store.conn)
        if lexicon.made_empty():  # a deleted (or never made) index: every chapter again
            with self.store.atomic() as conn:
                vector_store.forget_chapter_states(conn)
                vector_store.set_synced_seq(conn, "")
            synced = ""
        if synced == seq:
            if self._loaded_seq != synced:  # another process indexed since we last looked
                lexicon.reload()
                self._loaded_seq = synced
            return 0  # nothing committed since the last sync: skip comparing every chapter
        recut, dropped = self.stale_chapters(synced)
        if recut or dropped:
            self._recut(recut, dropped, progress)
        with self.store.atomic() as conn:
            vector_store.set_synced_seq(conn, seq)
        self._loaded_seq = seq
        return len(recut) + len(dropped)

    def reindex(self, progress: Progress | None = None) -> int:
        """Cut and index every chapter again (after a rebuild)."""
        with self.store.atomic() as conn:
            vector_store.forget_chapter_states(conn)
            vector_store.set_synced_seq(conn, "")
        return self.sync(progress)

    def _recut(self, recut: list[int], dropped: list[int], progress: Progress | None) -> None:
        """Cut the chapters into chunks and index them, in one `vectors.db` transaction. The
        lexical index commits last inside it: a crash leaves these chapters stale in
        `chapter_state`, and the next sync deletes and redoes them in both stores."""
        segmenter = self.segmenter()
        aliases = self.aliases()
        with self.store.atomic() as conn, self.lexicon.writing() as lexicon:
            vector_store.delete_chapters(conn, dropped + recut)
            for chapter in dropped + recut:
                lexicon.delete_chapter(chapter)
            for done, chapter in enumerate(recut, start=1):
                commit = commit_ops.current_commit(self.index, chapter)
                if commit is not None:
                    result = parse_chapter_result(commit["result"], chapter)
                    for chunk in chapter_chunks(result, commit["text"]):
                        entities = sorted(
                            {
                                *chunk.entities,
                                *(m.entity_id for m in aliases.find(chunk.text, fold=False)),
                            }
                        )
                        rowid = vector_store.insert_chunk(
                            conn,
                            chapter,
                            chunk.chunk_id,
                            chunk.kind,
                            chunk.seq,
                            chunk.text,
                            entities,
                        )
                        lexicon.add(
                            rowid,
                            chapter,
                            " ".join(bigram_tokens(chunk.text)),
                            " ".join(segmenter.words(chunk.text)),
                            entities,
                        )
                    vector_store.set_chapter_state(conn, chapter, commit["commit_id"])
                if progress:
                    progress(done, len(recut))

    # -- searching ----------------------------------------------------------------------------

    def search(
        self,
        text: str,
        top_k: int = 10,
        as_of: int | None = None,
        columns: tuple[str, ...] = ("bigrams", "words", "dense"),
        entity_prior: bool = False,
        recency: bool = False,
    ) -> list[SearchHit]:
        """Search over every term of the question: one BM25 query over the bigram and word
        columns, fused with dense vectors (when there are any) by reciprocal rank. With
        `columns=("bigrams",)` it is the plain bigram BM25 that every feature must beat.
        `entity_prior` (chunks naming the question's entities) and `recency` (later chapters)
        are measured and off: on real text neither helped on every set."""
        self.sync()
        text = traditional_folder()(text)  # 蕭炎 finds 萧炎 when OpenCC is installed
        rankings: list[tuple[str, list[int]]] = []
        terms: dict[str, list[str]] = {}
        if "bigrams" in columns:
            terms["bigrams"] = bigram_tokens(text)
        if "words" in columns:
            terms["words"] = self.segmenter().words(text)
        if terms:
            found = self.lexicon.search(terms, as_of, CANDIDATES)
            rankings.append(("lexical", [rowid for rowid, _ in found]))
        if "dense" in columns and self.embedder is not None:
            rankings.append(("dense", self._dense_ranking(text, as_of)))
        scores: dict[int, float] = {}
        for column, ranking in rankings:
            weight = COLUMN_WEIGHTS[column]
            for rank, rowid in enumerate(ranking, start=1):
                scores[rowid] = scores.get(rowid, 0.0) + weight / (RRF_K + rank)
        if not scores:
            return []
        chunks = vector_store.chunks_by_rowid(self.store.conn, list(scores))
        chunks = {r: c for r, c in chunks.items() if as_of is None or c["chapter"] <= as_of}
        if not chunks:
            return []
        if entity_prior:
            wanted = {m.entity_id for m in self.aliases().find(text)}
            for rowid, chunk in chunks.items():
                scores[rowid] += ENTITY_PRIOR * len(wanted & set(chunk["entities"]))
        if recency:
            latest = max(c["chapter"] for c in chunks.values())
            horizon = max(1, as_of if as_of is not None else latest)
            for rowid, chunk in chunks.items():
                scores[rowid] += RECENCY_PRIOR * min(1.0, chunk["chapter"] / horizon)
        best = sorted(chunks, key=lambda r: (-scores[r], chunks[r]["chapter"], r))[:top_k]
        return [
            SearchHit(
                chunks[r]["chunk_id"],
                chunks[r]["chapter"],
                chunks[r]["kind"],
                chunks[r]["text"],
                scores[r],
                tuple(chunks[r]["entities"]),
            )
            for r in best
        ]

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

    def _dense_ranking(self, text: str, as_of: int | None) -> list[int]:
        """Cosine ranking with numpy over the vectors of chunks up to `as_of`."""
        try:
            import numpy as np
        except ImportError:
            return []
        assert self.embedder is not None
        self._announce_endpoint()
        rows = vector_store.vectors_as_of(self.store.conn, self.embedder.name, as_of)
        if not rows:
            return []
        query = np.asarray(self.embedder.embed_query(text), dtype=np.float32)
        # Only vectors of the query's size compare with it (a book embedded before sizes were
        # checked may hold others; `rebuild` clears them).
        rows = [r for r in rows if r[1] == len(query)]
        if not rows:
            return []
        matrix = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(
            len(rows), len(query)
        )
        scores = matrix @ query
        order = np.argsort(-scores)[:CANDIDATES]
        return [rows[i][0] for i in order]

    # -- dense vectors ------------------------------------------------------------------------

    def embed(
        self,
        progress: Progress | None = None,
        batch: int = 32,
        kinds: tuple[str, ...] = EMBED_KINDS,
    ) -> dict[str, int]:
        """Fill missing vectors, committing each batch: stop it any time and run it again."""
        if self.embedder is None:
            return {"embedded": 0, "missing": 0}
        self.sync()
        self._announce_endpoint()
        name = self.embedder.name
        total = vector_store.count_missing_vectors(self.store.conn, name, kinds)
        done = 0
        dim: int | None = None
        while True:
            todo = vector_store.chunks_without_vectors(self.store.conn, name, kinds, batch)
            if not todo:
                break
            vectors = self.embedder.embed_passages([text for _, text in todo])
            if len(vectors) != len(todo):
                raise EndpointFailed(f"向量模型 {name} 为 {len(todo)} 段文本给了 {len(vectors)} 个向量")
            rows = []
            for (rowid, _), vector in zip(todo, vectors, strict=True):
                packed = array("f", [float(v) for v in vector])
                dim = dim or vector_store.vector_dim(self.store.conn, name) or len(packed)
                if len(packed) != dim:
                    raise EndpointFailed(
                        f"向量模型 {name} 给出长度 {len(packed)} 的向量，与本书已有的长度 {dim} "
                        "不一致；已存的向量保持不变（换了模型请改名或运行 webnovel rebuild）"
                    )
                rows.append((rowid, len(packed), packed.tobytes()))
            with self.store.atomic() as conn:
                vector_store.put_vectors(conn, name, rows)
            done += len(rows)
            if progress:
                progress(done, total)
        return {"embedded": done, "missing": total - done}

    def stats(self) -> dict[str, int]:
        """Counts, and how many chapters the next search will re-cut first."""
        recut, dropped = self.stale_chapters()
        return {**vector_store.counts(self.store.conn), "stale_chapters": len(recut) + len(dropped)}
