"""Light scans for ranking: the sections of a pack that grow with the book (open threads, rules
in force) are ranked from a few columns pulled out of the state index in SQL, and only the
winners are loaded whole (`chain_ops.versions_by_id`). Candidates come in the order of their
ids, never of rows: ties rank the same on either store."""

from __future__ import annotations

import sqlite3
from functools import lru_cache

from ..chains import OpenThread, RuleInForce, Version
from .chain_ops import STATE_HOLDS, versions_by_id
from .index_store import loads


def thread_candidates(conn: sqlite3.Connection, as_of: int) -> list[OpenThread]:
    """The threads open at `as_of`, read from the state index alone, in the order of their ids:
    threads that score alike keep that order in a pack, on either store (a row id would not:
    a copied book numbers its rows anew)."""
    cursor = conn.execute(
        "SELECT id, json_extract(value_json, '$.due_chapter'), "
        "json_extract(value_json, '$.urgency'), json_extract(value_json, '$.related'), "
        f"json_extract(value_json, '$.last_chapter') FROM versions WHERE {STATE_HOLDS} "
        "ORDER BY subject",
        ("thread", "open", as_of, as_of),
    )
    return list(map(OpenThread._make, cursor))


def pressing_threads(conn: sqlite3.Connection, as_of: int, limit: int) -> list[Version]:
    """The `limit` threads open at `as_of` that press most: overdue first, then those due
    soonest, then the most recently moved; ranked in SQL, only those read whole."""
    rows = conn.execute(
        f"SELECT id, due, last FROM (SELECT id, json_extract(value_json, '$.due_chapter') AS due, "
        f"json_extract(value_json, '$.last_chapter') AS last FROM versions "
        f"WHERE {STATE_HOLDS}) open_threads "
        "ORDER BY (due IS NOT NULL AND due < ?) DESC, due IS NULL, due, last DESC NULLS LAST, id "
        "LIMIT ?",
        ("thread", "open", as_of, as_of, as_of, limit),
    ).fetchall()
    versions = versions_by_id(conn, [r[0] for r in rows]) if rows else {}
    return [versions[r[0]] for r in rows]


def rule_candidates(conn: sqlite3.Connection, as_of: int) -> list[RuleInForce]:
    """The rules in force at `as_of`, read from the state index alone; thousands at 10,000
    chapters, each built once per (rule, wording, start): a pack meets the same ones again,
    and then gets the same objects (their texts keep their hashes for the pack's own caches).
    In the order of their ids, so that rules scoring alike rank the same on either store."""
    return [
        _rule_in_force(subject, value_json, since)
        for subject, value_json, since in conn.execute(
            f"SELECT subject, value_json, valid_from FROM versions WHERE {STATE_HOLDS} "
            "ORDER BY subject",
            ("rule", "in_force", as_of, as_of),
        )
    ]


@lru_cache(maxsize=1 << 15)
def _rule_in_force(subject: str, value_json: str, since: int) -> RuleInForce:
    value = loads(value_json)
    return RuleInForce(subject, value.get("rule", ""), value.get("domain"), since)
