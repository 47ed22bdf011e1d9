"""What a revision reads and keeps: every version and entity row as plain tuples (an impact
compares them before and after a trial commit), and the book's published line."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from typing import Any, NamedTuple

from .commit_ops import get_meta, set_meta
from .connection import Connection

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


_VERSION_COLUMNS = (
    "family",
    "key",
    "subject",
    "field",
    "obj",
    "value_json",
    "valid_from",
    "valid_to",
    "status",
)
_SELECTED = ", ".join(_VERSION_COLUMNS)


def watch_versions(conn: Connection) -> bool:
    """Inside a trial on SQLite: temporary triggers log every version row the write path
    deletes, updates or inserts (before and after), so an impact reads what the commit changed
    instead of the whole table twice. False elsewhere (PostgreSQL): read the whole table.
    The trial's rollback takes the triggers and their log away; `seen_versions` drops them."""
    if not isinstance(conn, sqlite3.Connection):
        return False
    conn.execute(f"CREATE TEMP TABLE impact_seen (side, {_SELECTED})")
    old = ", ".join(f"OLD.{c}" for c in _VERSION_COLUMNS)
    new = ", ".join(f"NEW.{c}" for c in _VERSION_COLUMNS)
    for name, event, inserts in (
        ("impact_deleted", "DELETE", [("old", old)]),
        ("impact_updated", "UPDATE", [("old", old), ("new", new)]),
        ("impact_inserted", "INSERT", [("new", new)]),
    ):
        body = " ".join(
            f"INSERT INTO impact_seen VALUES ('{side}', {values});" for side, values in inserts
        )
        conn.execute(f"CREATE TEMP TRIGGER {name} AFTER {event} ON main.versions BEGIN {body} END")
    return True


def seen_versions(conn: Connection) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The version rows the write path took away and wrote (as `version_rows` gives them),
    since `watch_versions`; the watch ends."""
    rows = conn.execute(f"SELECT side, {_SELECTED} FROM impact_seen").fetchall()
    for name in ("impact_deleted", "impact_updated", "impact_inserted"):
        conn.execute(f"DROP TRIGGER temp.{name}")
    conn.execute("DROP TABLE temp.impact_seen")
    old = [tuple(row)[1:] for row in rows if row[0] == "old"]
    new = [tuple(row)[1:] for row in rows if row[0] == "new"]
    return old, new


def chain_rows(conn: Connection, chains: Iterable[tuple[str, str]]) -> list[tuple[Any, ...]]:
    """The versions of these chains (family, key) as they stand."""
    found: list[tuple[Any, ...]] = []
    for family, key in chains:
        found += [
            tuple(row)
            for row in conn.execute(
                f"SELECT {_SELECTED} FROM versions WHERE family = ? AND key = ?", (family, key)
            )
        ]
    return found


def version_rows(conn: Connection) -> list[tuple[Any, ...]]:
    """Every version of the book as a plain tuple in `VersionRow`'s order: one read (35,000
    rows at 2,000 chapters, a fifth of a second), which an impact makes twice inside its
    trial; only the rows that differ are made `VersionRow`s."""
    return [tuple(row) for row in conn.execute(f"SELECT {_SELECTED} FROM versions")]


def entity_rows(conn: Connection) -> dict[str, EntityRow]:
    return {
        row[0]: EntityRow(row[0], row[1], bool(row[2]), row[3])
        for row in conn.execute("SELECT id, name, tentative, intro_chapter FROM entities")
    }


def published_through(conn: Connection) -> int | None:
    """The last chapter readers have (`webnovel publish --through N`); None: none published."""
    value = get_meta(conn, PUBLISHED_KEY)
    return int(value) if value and value.isdigit() and int(value) > 0 else None


def set_published_through(conn: Connection, chapter: int) -> None:
    set_meta(conn, PUBLISHED_KEY, str(chapter))


def mark_published_revision(conn: Connection, seq: int, published: int) -> None:
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


def text_source(conn: Connection, chapter: int) -> str | None:
    """The file the text of the chapter's current commit came from, if one was named."""
    row = conn.execute(
        "SELECT c.text_source FROM chapters ch JOIN commits c ON c.seq = ch.commit_seq "
        "WHERE ch.chapter = ?",
        (chapter,),
    ).fetchone()
    return row[0] if row else None


def retracted_text(conn: Connection, chapter: int) -> tuple[str, str | None] | None:
    """The text (and its file) of the commit a retracted chapter last stood on: what committing
    it again without a text brings back. None when that commit had no text, or the chapter was
    never committed. Asked only when the chapter has no current commit."""
    row = conn.execute(
        "SELECT text, text_source FROM commits WHERE chapter = ? AND commit_id NOT LIKE ? "
        "ORDER BY seq DESC LIMIT 1",
        (chapter, "retract:%"),
    ).fetchone()
    return (row[0], row[1]) if row is not None and row[0] else None


def text_sources(conn: Connection) -> list[TextSource]:
    """Each committed chapter whose text came from a named file: the file, the text's hash, and
    whether its result is stale (the text was edited after the result was made)."""
    # No ORDER BY: sorting in SQL made SQLite walk commits by chapter, reading each commit's
    # text to reach these columns; the partial index (0011) holds them (sorted here).
    return sorted(
        TextSource(row[0], row[1], row[2], bool(row[3]))
        for row in conn.execute(
            "SELECT c.chapter, c.text_source, c.text_hash, c.stale FROM commits c "
            "JOIN chapters ch ON ch.chapter = c.chapter AND ch.commit_seq = c.seq "
            "WHERE c.text_source IS NOT NULL"
        )
    )


def stale_chapters(conn: Connection) -> list[int]:
    """Chapters whose current text was edited after their result was made (`sync`)."""
    return sorted(
        row[0]
        for row in conn.execute(  # by the partial index of 0011, as text_sources
            "SELECT c.chapter FROM commits c "
            "JOIN chapters ch ON ch.chapter = c.chapter AND ch.commit_seq = c.seq "
            "WHERE c.stale = 1"
        )
    )


def remember_text_source(conn: Connection, chapter: int, source: str, hash_of_text: str) -> None:
    """Name the file the chapter's current text came from, when the commit that brought it did
    not (a book imported before imports remembered their files, imported again unchanged): the
    text and result stay as they are, only where the text lives is learnt."""
    conn.execute(
        "UPDATE commits SET text_source = ?, text_hash = ? "
        "WHERE seq = (SELECT commit_seq FROM chapters WHERE chapter = ?)",
        (source, hash_of_text, chapter),
    )


def source_of_same_text(conn: Connection, chapter: int, text: str) -> str | None:
    """The file the chapter's current text came from, when `text` is that text: a new result
    committed with the same text (a model's extraction of an imported chapter) still has its
    text in that file."""
    row = conn.execute(
        "SELECT c.text_source, c.text_hash FROM chapters ch JOIN commits c ON c.seq = ch.commit_seq "
        "WHERE ch.chapter = ?",
        (chapter,),
    ).fetchone()
    if row is None or row[0] is None or row[1] != text_hash(text):
        return None
    return str(row[0])
