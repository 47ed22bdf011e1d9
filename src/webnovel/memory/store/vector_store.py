"""SQL for `vectors.db`: retrieval chunks and optional dense vectors.

`vectors.db` is derived from `index.db`. `chapter_state` records which commit each chapter's chunks
were cut from, so the retrieval layer can tell exactly which chapters are stale after a commit,
a revision or a rebuild, and re-cut only those. The chunks' lexical index lives beside it, in
tantivy (`lexical_index.py`); a chunk's rowid is its document's key there.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from .index_store import dumps, rows_in
from .migrations import Migration

VECTOR_MIGRATIONS: list[Migration] = [
    (
        "0001_chunks",
        """
    CREATE TABLE chunks (
        id INTEGER PRIMARY KEY,
        chunk_id TEXT NOT NULL UNIQUE,
        chapter INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        entities_json TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX chunks_by_chapter ON chunks(chapter);
    -- rowid = chunks.id; the original text stays in `chunks` for display
    CREATE VIRTUAL TABLE chunks_fts USING fts5(bigrams, words, tokenize = 'unicode61');
    CREATE TABLE chapter_state (
        chapter INTEGER PRIMARY KEY,
        commit_id TEXT NOT NULL
    );
    CREATE TABLE vectors (
        chunk_rowid INTEGER PRIMARY KEY,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vec BLOB NOT NULL
    );
    """,
    ),
    (
        "0002_vocabulary",
        """
    -- per-column document counts of every term, to query only a question's rarer terms
    CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'col');
    CREATE TABLE IF NOT EXISTS vectors_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    ),
    (
        "0003_lexicon_in_tantivy",
        """
    -- The lexical index moved to tantivy (.webnovel/lexicon/): FTS5 ranked every matching row.
    -- Forgetting every chapter's state makes the next search re-cut and index them all.
    DROP TABLE chunks_vocab;
    DROP TABLE chunks_fts;
    DELETE FROM chapter_state;
    DELETE FROM vectors_meta WHERE key = 'synced_seq';
    """,
    ),
    (
        "0004_folded_text",
        """
    -- The text as search reads it (folding.py), kept at cut time so a search does not fold
    -- every candidate again: '' when folding leaves the text as it is, NULL for a chunk cut
    -- before this column (filled once by the next search, folded live until then).
    ALTER TABLE chunks ADD COLUMN folded TEXT;
    """,
    ),
]


# `vectors_meta` key prefix: the place in a shared store's order of vectors taken up to, per model
SHARED_SEEN = "shared_seen:"


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM vectors_meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO vectors_meta VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def synced_seq(conn: sqlite3.Connection) -> str | None:
    """The index.db commit sequence the chunks were last brought up to."""
    return get_meta(conn, "synced_seq")


def set_synced_seq(conn: sqlite3.Connection, seq: str) -> None:
    set_meta(conn, "synced_seq", seq)


def chapter_state(conn: sqlite3.Connection, chapters: list[int] | None = None) -> dict[int, str]:
    """The commit each chapter's chunks were cut from (of these chapters only, when given)."""
    if chapters is None:
        return dict(conn.execute("SELECT chapter, commit_id FROM chapter_state").fetchall())
    sql = "SELECT chapter, commit_id FROM chapter_state WHERE chapter IN ({marks})"
    return {row[0]: row[1] for row in rows_in(conn, sql, chapters)}


def chunk_chapters(conn: sqlite3.Connection) -> set[int]:
    """The chapters that have chunks, whatever `chapter_state` says of them."""
    return {row[0] for row in conn.execute("SELECT DISTINCT chapter FROM chunks")}


def delete_chapters(conn: sqlite3.Connection, chapters: Iterable[int]) -> None:
    for chapter in chapters:
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE chapter = ?", (chapter,))]
        conn.executemany("DELETE FROM vectors WHERE chunk_rowid = ?", [(i,) for i in ids])
        conn.execute("DELETE FROM chunks WHERE chapter = ?", (chapter,))
        conn.execute("DELETE FROM chapter_state WHERE chapter = ?", (chapter,))
    next_generation(conn)


def insert_chunk(
    conn: sqlite3.Connection,
    chapter: int,
    chunk_id: str,
    kind: str,
    seq: int,
    text: str,
    entities: list[str],
    folded: str | None = None,
) -> int:
    """Store one chunk; returns its rowid (its key in the lexical index). `folded`: its text as
    search reads it (None: not known, folded at each search)."""
    cursor = conn.execute(
        "INSERT INTO chunks (chunk_id, chapter, kind, seq, text, entities_json, folded) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (chunk_id, chapter, kind, seq, text, dumps(entities), _folded_column(text, folded)),
    )
    return int(cursor.lastrowid or 0)


def _folded_column(text: str, folded: str | None) -> str | None:
    return None if folded is None else "" if folded == text else folded


def chunks_never_folded(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """(rowid, text) of the chunks cut before their folded text was kept."""
    return conn.execute("SELECT id, text FROM chunks WHERE folded IS NULL").fetchall()


def set_folded(conn: sqlite3.Connection, rows: list[tuple[int, str, str]]) -> None:
    """Keep the folded text of chunks cut without it: (rowid, text, folded) each."""
    conn.executemany(
        "UPDATE chunks SET folded = ? WHERE id = ?",
        [(_folded_column(text, folded), rowid) for rowid, text, folded in rows],
    )


def set_chapter_state(conn: sqlite3.Connection, chapter: int, commit_id: str) -> None:
    conn.execute(
        "INSERT INTO chapter_state VALUES (?, ?) ON CONFLICT(chapter) DO UPDATE "
        "SET commit_id = excluded.commit_id",
        (chapter, commit_id),
    )


def forget_chapter_states(conn: sqlite3.Connection) -> None:
    """Every chapter is stale again (the lexical index was lost and is made anew)."""
    conn.execute("DELETE FROM chapter_state")


def forget_book(conn: sqlite3.Connection) -> None:
    """Every chunk, vector and chapter state gone: the folder now names another book (a
    shared store's book deleted and made anew under its name)."""
    conn.execute("DELETE FROM vectors")
    conn.execute("DELETE FROM chunks")
    conn.execute("DELETE FROM chapter_state")
    conn.execute("DELETE FROM vectors_meta WHERE key LIKE ?", (SHARED_SEEN + "%",))
    next_generation(conn)


def chunks_by_chunk_id(
    conn: sqlite3.Connection, chunk_ids: list[str]
) -> dict[str, tuple[int, str]]:
    """chunk id → (rowid, text) of those of `chunk_ids` that are cut here."""
    sql = "SELECT chunk_id, id, text FROM chunks WHERE chunk_id IN ({marks})"
    return {row[0]: (row[1], row[2]) for row in rows_in(conn, sql, chunk_ids)}


def rowids_with_vectors(conn: sqlite3.Connection, model: str, rowids: list[int]) -> set[int]:
    sql = "SELECT chunk_rowid FROM vectors WHERE model = ? AND chunk_rowid IN ({marks})"
    return {row[0] for row in rows_in(conn, sql, rowids, params=(model,))}


def chunks_by_rowid(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, dict[str, Any]]:
    marks = ",".join("?" * len(rowids))
    rows = conn.execute(
        f"SELECT id, chunk_id, chapter, kind, seq, text, entities_json, folded FROM chunks "
        f"WHERE id IN ({marks})",
        rowids,
    ).fetchall()
    return {
        r[0]: {
            "chunk_id": r[1],
            "chapter": r[2],
            "kind": r[3],
            "seq": r[4],
            "text": r[5],
            "entities_json": r[6],  # parsed by the caller for the few chunks it returns
            "folded": r[7],  # '': the text as it is; None: not kept (cut by an older version)
        }
        for r in rows
    }


def chunks_without_vectors(
    conn: sqlite3.Connection, model: str, kinds: tuple[str, ...], limit: int
) -> list[tuple[int, str, str, int]]:
    """(rowid, text, chunk id, chapter) of chunks of these kinds still without a vector."""
    marks = ",".join("?" * len(kinds))
    return conn.execute(
        "SELECT c.id, c.text, c.chunk_id, c.chapter FROM chunks c LEFT JOIN vectors v ON v.chunk_rowid = c.id "
        f"AND v.model = ? WHERE v.chunk_rowid IS NULL AND c.kind IN ({marks}) "
        "ORDER BY c.chapter, c.seq LIMIT ?",
        (model, *kinds, limit),
    ).fetchall()


def count_missing_vectors(conn: sqlite3.Connection, model: str, kinds: tuple[str, ...]) -> int:
    marks = ",".join("?" * len(kinds))
    return int(
        conn.execute(
            "SELECT COUNT(*) FROM chunks c LEFT JOIN vectors v ON v.chunk_rowid = c.id "
            f"AND v.model = ? WHERE v.chunk_rowid IS NULL AND c.kind IN ({marks})",
            (model, *kinds),
        ).fetchone()[0]
    )


def count_without_vectors(conn: sqlite3.Connection, kinds: tuple[str, ...]) -> int:
    """Chunks of these kinds that hold no vector of any model (a chunk holds one at most):
    what tells a commit, with no model loaded, that there is something to embed."""
    marks = ",".join("?" * len(kinds))
    return int(
        conn.execute(
            f"SELECT COUNT(*) FROM chunks c WHERE c.kind IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_rowid = c.id)",
            kinds,
        ).fetchone()[0]
    )


def put_vectors(conn: sqlite3.Connection, model: str, rows: list[tuple[int, int, bytes]]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO vectors (chunk_rowid, model, dim, vec) VALUES (?, ?, ?, ?)",
        [(rowid, model, dim, blob) for rowid, dim, blob in rows],
    )
    next_generation(conn)


def vector_dim(conn: sqlite3.Connection, model: str) -> int | None:
    """The size of the vectors stored for `model`, or None when there are none yet."""
    row = conn.execute("SELECT dim FROM vectors WHERE model = ? LIMIT 1", (model,)).fetchone()
    return int(row[0]) if row else None


def all_vectors(conn: sqlite3.Connection, model: str, dim: int) -> list[tuple[int, int, bytes]]:
    """(chunk rowid, chapter, vector) of every vector of `model` that has `dim` dimensions."""
    return conn.execute(
        "SELECT v.chunk_rowid, c.chapter, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_rowid "
        "WHERE v.model = ? AND v.dim = ? ORDER BY v.chunk_rowid",
        (model, dim),
    ).fetchall()


def every_vector(conn: sqlite3.Connection) -> Iterator[tuple[str, str, str, int, bytes]]:
    """(model, chunk id, chunk text, chapter, vector) of every vector kept here, model by
    model, read as they are taken (a whole book's vectors and texts are hundreds of MB)."""
    yield from conn.execute(
        "SELECT v.model, c.chunk_id, c.text, c.chapter, v.vec FROM vectors v "
        "JOIN chunks c ON c.id = v.chunk_rowid ORDER BY v.model, c.chapter, c.seq"
    )


def generation(conn: sqlite3.Connection) -> str:
    """Moves on whenever chunks or vectors change, in any process: what a reader caches from
    `vectors.db` (the vector matrix, term counts) is good while it stays the same."""
    return get_meta(conn, "generation") or "0"


def next_generation(conn: sqlite3.Connection) -> None:
    set_meta(conn, "generation", str(int(generation(conn)) + 1))


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    return {
        "chunks": conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0],
        "vectors": conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0],
        "chapters": conn.execute("SELECT COUNT(*) FROM chapter_state").fetchone()[0],
    }
