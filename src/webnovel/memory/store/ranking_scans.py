"""Light scans for ranking: the sections of a pack that grow with the book (open threads, rules
in force) are ranked from a few columns pulled out of the state index in SQL, and only the
winners are loaded whole (`chain_ops.versions_by_id`). Candidates come in the order of their
ids, never of rows: ties rank the same on either store."""

from __future__ import annotations

import sqlite3
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from itertools import chain

from ..chains import OpenThread, RuleInForce, Version
from .chain_ops import STATE_HOLDS, all_versions_in_state, known_at, versions_by_id
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


# -- held across packs ----------------------------------------------------------------------------

FOREVER = 4611686018427387904  # an open interval's end, as the state index holds it
BookState = tuple[int, int]
# a rule's bigrams with its domain's, and of its text alone (the pack layer's `rule_terms`)
RuleTerms = Callable[[str, str | None], tuple[frozenset[str], frozenset[str]]]


def book_state(conn: sqlite3.Connection) -> BookState | None:
    """A value that differs whenever the book's index may have changed since it was last read
    on this connection, or None when there is no such exact signal.

    SQLite's `data_version` changes when any other connection (another process, another
    handle in this one) commits; `total_changes` counts every row this connection ever
    inserted, updated or deleted, whatever wrote it (commit, retract, revision, rebuild,
    migration, import), and never goes back, even when a transaction rolls back. Inside an
    open transaction (a review's trial of a draft) the rows seen are not committed ones, and
    PostgreSQL has neither signal: no snapshot is held then."""
    if not isinstance(conn, sqlite3.Connection) or conn.in_transaction:
        return None
    return conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes


class _Spans:
    """Which of some (start, end) intervals hold at a chapter, without looking at them all: the
    chapters are cut into blocks, and each block lists the intervals holding anywhere in it, in
    their given order."""

    BLOCK = 128

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self._spans = spans
        last = max((s for s, _ in spans), default=0) // self.BLOCK
        self._blocks: list[list[int]] = [[] for _ in range(last + 1)]
        for i, (start, end) in enumerate(spans):
            for block in range(max(start, 0) // self.BLOCK, min((end - 1) // self.BLOCK, last) + 1):
                self._blocks[block].append(i)

    def holding(self, at: int) -> list[int]:
        """The intervals holding at `at` (start <= at < end), in their given order."""
        spans = self._spans
        block = self._blocks[min(max(at, 0) // self.BLOCK, len(self._blocks) - 1)]
        return [i for i in block if spans[i][0] <= at < spans[i][1]]


# why a rule shares a term with the scene: its code, how many terms, and the rule
SharedRule = tuple[str, int, RuleInForce]


class RankingSnapshot:
    """Every rule version and every open-thread version of the book (all chapters), read at
    one state of it, with an index of the rules by their bigrams. A pack asks it for the
    threads open and the rules in force as of its chapter instead of reading thousands of
    rows, and counts the terms each rule shares with its scene from the index."""

    def __init__(self, conn: sqlite3.Connection, rule_terms: RuleTerms) -> None:
        # same columns, same json_extract and same order as the scans above
        rows = conn.execute(
            f"SELECT valid_from, IFNULL(valid_to, {FOREVER}), id, "
            "json_extract(value_json, '$.due_chapter'), "
            "json_extract(value_json, '$.urgency'), json_extract(value_json, '$.related'), "
            "json_extract(value_json, '$.last_chapter') FROM versions "
            "WHERE family = 'thread' AND state = 'open' AND status != 'tentative' "
            "ORDER BY subject, id"
        ).fetchall()
        self._threads = [OpenThread(*row[2:]) for row in rows]
        self._thread_spans = _Spans([(row[0], row[1]) for row in rows])
        rows = conn.execute(
            f"SELECT subject, value_json, valid_from, IFNULL(valid_to, {FOREVER}) FROM versions "
            "WHERE family = 'rule' AND state = 'in_force' AND status != 'tentative' "
            "ORDER BY subject, id"
        ).fetchall()
        self._rules = [_rule_in_force(subject, text, since) for subject, text, since, _ in rows]
        self._starts = [row[2] for row in rows]
        self._ends = [row[3] for row in rows]
        self._by_every: dict[str, list[int]] = {}  # bigram → rules (text and domain) holding it
        self._by_own: dict[str, list[int]] = {}  # bigram → rules (text alone) holding it
        for position, rule in enumerate(self._rules):
            every, own = rule_terms(rule.text, rule.domain)
            for term in every:
                self._by_every.setdefault(term, []).append(position)
            for term in own:
                self._by_own.setdefault(term, []).append(position)
        self._dead = all_versions_in_state(conn, "fact", "dead")
        self._dead_spans = _Spans([(v.valid_from, v.valid_to or FOREVER) for v in self._dead])
        # newest first, ties in the order of ids (heapq.nlargest's order over the scan above)
        self._by_recency = sorted(range(len(rows)), key=lambda p: (-self._starts[p], p))
        self._recency_keys = [-self._starts[p] for p in self._by_recency]

    def open_threads(self, as_of: int) -> list[OpenThread]:
        """`thread_candidates(conn, as_of)`, from memory."""
        threads = self._threads
        return [threads[i] for i in self._thread_spans.holding(as_of)]

    def dead(self, as_of: int) -> list[Version]:
        """`chain_ops.versions_in_state(conn, "fact", "dead", as_of)`, from memory."""
        return [known_at(self._dead[i], as_of) for i in self._dead_spans.holding(as_of)]

    def rules_sharing(
        self, as_of: int, every_terms: frozenset[str], own_terms: frozenset[str], newest: int
    ) -> tuple[list[SharedRule], list[RuleInForce]]:
        """The rules in force at `as_of` whose bigrams (with their domain's) meet `every_terms`
        ("rule_shares_outline") or else whose text's bigrams meet `own_terms`
        ("rule_shares_scene"), with how many terms they share, in the order of their ids;
        and the `newest` other rules in force, newest first (ties in the order of ids)."""
        # a term's list holds each rule once and the terms are a set: a rule's count is
        # the size of its terms' intersection with them
        outline = Counter(chain.from_iterable(self._by_every.get(t, ()) for t in every_terms))
        scene = Counter(chain.from_iterable(self._by_own.get(t, ()) for t in own_terms))
        starts, ends, rules = self._starts, self._ends, self._rules
        shared: list[SharedRule] = []
        taken = set()
        for p in sorted(outline.keys() | scene.keys()):
            if starts[p] <= as_of < ends[p]:
                taken.add(p)
                if p in outline:
                    shared.append(("rule_shares_outline", outline[p], rules[p]))
                else:
                    shared.append(("rule_shares_scene", scene[p], rules[p]))
        recent = []
        if newest > 0:
            for p in self._by_recency[bisect_left(self._recency_keys, -as_of) :]:
                if as_of < ends[p] and p not in taken:
                    recent.append(rules[p])
                    if len(recent) == newest:
                        break
        return shared, recent


class RankingCache:
    """A book handle's `RankingSnapshot`, read again whenever `book_state` says the book may
    have changed; none when it cannot say (then packs scan the state index as before)."""

    def __init__(self, rule_terms: RuleTerms) -> None:
        self._rule_terms = rule_terms
        self._state: BookState | None = None
        self._snapshot: RankingSnapshot | None = None

    def snapshot(self, conn: sqlite3.Connection) -> RankingSnapshot | None:
        state = book_state(conn)
        if state is None:
            return None
        held = self._snapshot
        if held is None or state != self._state:
            held = RankingSnapshot(conn, self._rule_terms)
            if book_state(conn) != state:  # changed while it was read: use it, do not keep it
                return held
            self._state, self._snapshot = state, held
        return held
