"""What a revision reads and keeps: every version and entity row as plain tuples (an impact
compares them before and after a trial commit), and the book's published line."""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any, NamedTuple

from .commit_ops import get_meta, set_meta

PUBLISHED_KEY = "published_through"


class VersionRow(NamedTuple):
    """A version as an impact compares it: its chain, value, span and status, no evidence or
    record time (a replay writes those anew even when nothing changed)."""

    family: str
    key: str
    subject: str
    field: str
    obj: str | None
    value_json: str
    valid_from: int
    valid_to: int | None
    status: str


class EntityRow(NamedTuple):
    id: str
    name: str
    tentative: bool
    intro_chapter: int | None


def version_rows(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """Every version of the book as a plain tuple in `VersionRow`'s order: one read (35,000
    rows at 2,000 chapters, a fifth of a second), which an impact makes twice inside its
    trial; only the rows that differ are made `VersionRow`s."""
    return [
        tuple(row)
        for row in conn.execute(
            "SELECT family, key, subject, field, obj, value_json, valid_from, valid_to, status "
            "FROM versions"
        )
    ]


def entity_rows(conn: sqlite3.Connection) -> dict[str, EntityRow]:
    return {
        row[0]: EntityRow(row[0], row[1], bool(row[2]), row[3])
        for row in conn.execute("SELECT id, name, tentative, intro_chapter FROM entities")
    }


def published_through(conn: sqlite3.Connection) -> int | None:
    """The last chapter readers have (`webnovel publish --through N`); None: none published."""
    value = get_meta(conn, PUBLISHED_KEY)
    return int(value) if value and value.isdigit() and int(value) > 0 else None


def set_published_through(conn: sqlite3.Connection, chapter: int) -> None:
    set_meta(conn, PUBLISHED_KEY, str(chapter))


def mark_published_revision(conn: sqlite3.Connection, seq: int, published: int) -> None:
    """Log the commit (or retraction) at `seq` as a revision of a published chapter, made when
    the published line stood at `published`."""
    conn.execute("UPDATE commits SET published_through = ? WHERE seq = ?", (published, seq))


# -- chapters edited by hand --------------------------------------------------------------------


def text_hash(text: str) -> str:
    """The hash a text is remembered by (of its characters, whatever the file's encoding)."""
    return "b2:" + hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class TextSource(NamedTuple):
    chapter: int
    path: str
    text_hash: str
    stale: bool


def text_source(conn: sqlite3.Connection, chapter: int) -> str | None:
    """The file the text of the chapter's current commit came from, if one was named."""
    row = conn.execute(
        "SELECT c.text_source FROM chapters ch JOIN commits c ON c.seq = ch.commit_seq "
        "WHERE ch.chapter = ?",
        (chapter,),
    ).fetchone()
    return row[0] if row else None


def text_sources(conn: sqlite3.Connection) -> list[TextSource]:
    """Each committed chapter whose text came from a named file: the file, the text's hash, and
    whether its result is stale (the text was edited after the result was made)."""
    return [
        TextSource(row[0], row[1], row[2], bool(row[3]))
        for row in conn.execute(
            "SELECT ch.chapter, c.text_source, c.text_hash, c.stale FROM chapters ch "
            "JOIN commits c ON c.seq = ch.commit_seq WHERE c.text_source IS NOT NULL "
            "ORDER BY ch.chapter"
        )
    ]


def stale_chapters(conn: sqlite3.Connection) -> list[int]:
    """Chapters whose current text was edited after their result was made (`sync`)."""
    return [
        row[0]
        for row in conn.execute(
            "SELECT ch.chapter FROM chapters ch JOIN commits c ON c.seq = ch.commit_seq "
            "WHERE c.stale = 1 ORDER BY ch.chapter"
        )
    ]
