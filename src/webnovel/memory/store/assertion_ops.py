"""The assertions of the temporal chains: what each chapter said about a fact, a relation, a
thread or a rule, in the order it said it. The chains' versions are folded from them
(`chain_ops`); a retraction deletes a chapter's assertions and the chains it touched replay.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..chains import Assertion, Family
from .connection import Connection, Row
from .index_store import dumps, loads

_COLUMNS = "id, family, key, subject, field, obj, chapter, seq, payload_json"


def assertion_from_row(row: Row) -> Assertion:
    """An assertion from a row of `_COLUMNS` (by name)."""
    return Assertion(
        family=row["family"],
        key=row["key"],
        subject=row["subject"],
        field=row["field"],
        obj=row["obj"],
        chapter=row["chapter"],
        seq=row["seq"],
        payload=loads(row["payload_json"]),
        id=row["id"],
    )


def insert_assertions(conn: Connection, assertions: Iterable[Assertion]) -> None:
    conn.executemany(
        "INSERT INTO assertions (family, key, subject, field, obj, chapter, seq, payload_json) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (a.family, a.key, a.subject, a.field, a.obj, a.chapter, a.seq, dumps(a.payload))
            for a in assertions
        ],
    )


def chapter_contribution(
    conn: Connection, chapter: int
) -> tuple[set[str], set[tuple[Family, str]], set[str]]:
    """What a chapter stands for before its commit replaces it: the entities it introduces,
    the (family, key) chains it asserts, the entities active in it. The three statements go
    out before any answer is read: on PostgreSQL (a pipeline) one round trip, not three."""
    cursors = [
        conn.execute(sql, (chapter,))
        for sql in (
            "SELECT DISTINCT entity_id FROM entity_intros WHERE chapter = ?",
            "SELECT DISTINCT family, key FROM assertions WHERE chapter = ?",
            "SELECT DISTINCT entity_id FROM activities WHERE chapter = ?",
        )
    ]
    introduced, chains, active = (cursor.fetchall() for cursor in cursors)
    return (
        {r[0] for r in introduced},
        {(r[0], r[1]) for r in chains},
        {r[0] for r in active},
    )


def delete_chapter_assertions(conn: Connection, chapter: int) -> None:
    """Retract what a chapter asserted (`chapter_contribution` names its chains, read before)."""
    conn.execute("DELETE FROM assertions WHERE chapter = ?", (chapter,))


def assertion_at(conn: Connection, family: Family, key: str, chapter: int) -> Assertion | None:
    """The last assertion a chapter made about a chain (what set a version that began there)."""
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM assertions "
        "WHERE family = ? AND key = ? AND chapter = ? ORDER BY seq DESC LIMIT 1",
        (family, key, chapter),
    ).fetchone()
    return assertion_from_row(row) if row else None


def chapter_assertions(conn: Connection, chapter: int) -> list[Assertion]:
    """Everything one chapter asserted, in the order it said it."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM assertions WHERE chapter = ? ORDER BY seq, id",
        (chapter,),
    ).fetchall()
    return [assertion_from_row(r) for r in rows]


def assertions_about(conn: Connection, family: Family, obj: str) -> list[Assertion]:
    """Every assertion of a family about one object (all knowledge of one secret), in order."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM assertions WHERE obj = ? AND family = ? ORDER BY chapter, seq",
        (obj, family),
    ).fetchall()
    return [assertion_from_row(r) for r in rows]


def removals(conn: Connection, field: str, start: int) -> list[tuple[str, int, str]]:
    """(subject, chapter, value) of every `remove` from a set field in chapter `start` or
    later, in chapter order."""
    rows = conn.execute(
        "SELECT subject, chapter, payload_json FROM assertions WHERE chapter >= ? "
        "AND family = 'fact' AND field = ? AND payload_json LIKE ? ORDER BY chapter, seq",
        (start, field, '%"remove"%'),
    )
    out = []
    for subject, chapter, payload_json in rows:
        payload = loads(payload_json)
        if payload.get("op") == "remove" and isinstance(payload.get("value"), str):
            out.append((str(subject), int(chapter), str(payload["value"])))
    return out
