"""Light scans for ranking: the sections of a pack that grow with the book (open threads, rules
in force) are ranked from a few columns pulled out of the state index in SQL, and only the
winners are loaded whole (`chain_ops.versions_by_id`). Candidates come in the order of their
ids, never of rows: ties rank the same on either store."""

from __future__ import annotations

import sqlite3
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

from ..chains import OpenThread, RuleInForce, Version
from .chain_ops import FOREVER, STATE_HOLDS, all_versions_in_state, known_at, versions_by_id
from .connection import Connection
from .index_store import loads


def thread_candidates(conn: Connection, as_of: int) -> list[OpenThread]:
    """The threads open at `as_of`, read from the state index alone, in the order of their ids:
    threads that score alike keep that order in a pack, on either store (a row id would not:
    a copied book numbers its rows anew)."""
    return list(map(OpenThread._make, thread_rows(conn, as_of)))


# an OpenThread's fields as a plain tuple: what a pack ranks threads by
ThreadRow = tuple[int, int | None, float | None, str | None, int | None]
_THREAD_FIELDS = (
    "id, json_extract(value_json, '$.due_chapter'), json_extract(value_json, '$.urgency'), "
    "json_extract(value_json, '$.related'), json_extract(value_json, '$.last_chapter')"
)


_COLUMNS = ("_ids", "_due", "_urgency", "_related", "_last")


class OpenThreads:
    """The threads open at a chapter in the order of their ids (subjects), an OpenThread's
    fields in columns, iterated as `ThreadRow`s. Columns, not an object per thread: 1,500 of
    them a pack at 10,000 chapters, held while it is made (and by a snapshot for the chapters
    asked), count towards the garbage collector's next collection, and a named tuple is walked
    by every full one. Tuples, not lists: a tuple of numbers and strings is one the collector
    stops tracking, where a full collection visits every item of a list (and each of the
    hundreds of thousands held costs it a cache miss)."""

    __slots__ = _COLUMNS
    _ids: tuple[int, ...]
    _due: tuple[int | None, ...]
    _urgency: tuple[float | None, ...]
    _related: tuple[str | None, ...]
    _last: tuple[int | None, ...]

    def __init__(self, rows: Iterable[Sequence[Any]] = ()) -> None:
        """From `ThreadRow`s, one alive at a time."""
        columns: list[list[Any]] = [[] for _ in _COLUMNS]
        for row in rows:
            for column, value in zip(columns, row, strict=True):
                column.append(value)
        for name, column in zip(_COLUMNS, columns, strict=True):
            setattr(self, name, tuple(column))

    def taken(self, positions: list[int]) -> OpenThreads:
        """These threads at `positions`, in that order."""
        out = OpenThreads()
        for name in _COLUMNS:
            column = getattr(self, name)
            setattr(out, name, tuple([column[i] for i in positions]))
        return out

    def __iter__(self) -> Iterator[ThreadRow]:
        return zip(self._ids, self._due, self._urgency, self._related, self._last, strict=True)

    def __len__(self) -> int:
        return len(self._ids)


def thread_rows(conn: Connection, as_of: int) -> OpenThreads:
    """`thread_candidates` in columns."""
    return OpenThreads(
        conn.execute(
            f"SELECT {_THREAD_FIELDS} FROM versions WHERE {STATE_HOLDS} ORDER BY subject",
            ("thread", "open", as_of, as_of),
        )
    )


class ThreadSpans:
    """Every thread version the state index tags open, with its span of chapters, read once
    for a snapshot: the threads open at any chapter are then picked from memory, in the order
    `thread_rows` gives them, without a statement. Reading them all costs once what reading
    those open at one chapter costs a pack ten times over (20,000 versions at 10,000
    chapters, ~1,500 open at a time), and a snapshot serves every later pack until the book
    changes. Each block of `BLOCK` chapters lists the versions open at some chapter of it, so
    a pick tests those only. Columns and arrays of ints: nothing the collector walks."""

    BLOCK = 128

    def __init__(self, conn: Connection) -> None:
        rows = sorted(  # as `thread_rows` orders them: a subject has one version open at a time
            conn.execute(
                f"SELECT subject, valid_from, {_THREAD_FIELDS}, IFNULL(valid_to, {FOREVER}) "
                "FROM versions WHERE family = 'thread' AND state = 'open' "
                "AND status != 'tentative'"
            ).fetchall(),
            key=lambda row: row[0],
        )
        self._threads = OpenThreads(row[2:-1] for row in rows)
        self._starts = array("q", (row[1] for row in rows))
        self._ends = array("q", (row[-1] for row in rows))
        # the last block holds every version open at or after its first chapter
        self._last = max(self._starts, default=0) // self.BLOCK
        blocks = [array("l") for _ in range(self._last + 1)]
        for position, (start, end) in enumerate(zip(self._starts, self._ends, strict=True)):
            for block in range(start // self.BLOCK, min((end - 1) // self.BLOCK, self._last) + 1):
                blocks[block].append(position)
        self._blocks = blocks

    def open_at(self, as_of: int) -> OpenThreads:
        """`thread_rows(conn, as_of)`, from memory."""
        if as_of < 0:
            return OpenThreads()
        starts, ends = self._starts, self._ends
        block = self._blocks[min(as_of // self.BLOCK, self._last)]
        return self._threads.taken([p for p in block if starts[p] <= as_of < ends[p]])


def pressing_threads(conn: Connection, as_of: int, limit: int) -> list[Version]:
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


def rule_candidates(conn: Connection, as_of: int) -> list[RuleInForce]:
    """The rules in force at `as_of`, read from the state index alone; thousands at 10,000
    chapters, each decoded once per (rule, wording, start): a pack meets the same ones again,
    and then gets the same texts (which keep their hashes for the pack's own caches).
    In the order of their ids, so that rules scoring alike rank the same on either store."""
    return [
        RuleInForce._make(_rule_fields(subject, value_json, since))
        for subject, value_json, since in conn.execute(
            f"SELECT subject, value_json, valid_from FROM versions WHERE {STATE_HOLDS} "
            "ORDER BY subject",
            ("rule", "in_force", as_of, as_of),
        )
    ]


RuleFields = tuple[str, str, str | None, int]


@lru_cache(maxsize=1 << 15)
def _rule_fields(subject: str, value_json: str, since: int) -> RuleFields:
    """A `RuleInForce`'s fields as a plain tuple: held for the process (here and in a
    snapshot), a named tuple is walked by every full garbage collection, this one is not."""
    value = loads(value_json)
    return subject, value.get("rule", ""), value.get("domain"), since


# -- held across packs ----------------------------------------------------------------------------

BookState = tuple[object, ...]
# a rule's bigrams with its domain's, and of its text alone (the pack layer's `rule_terms`)
RuleTerms = Callable[[str, str | None], tuple[tuple[str, ...], tuple[str, ...]]]


def book_state(conn: Connection) -> BookState | None:
    """A value that differs whenever the book's index may have changed since it was last read
    on this connection, or None when there is no such exact signal.

    SQLite's `data_version` changes when any other connection (another process, another
    handle in this one) commits; `total_changes` counts every row this connection ever
    inserted, updated or deleted, whatever wrote it (commit, retract, revision, rebuild,
    migration, import), and never goes back, even when a transaction rolls back. A
    PostgreSQL connection tells its own (`PgConnection.book_state`). Inside an open
    transaction (a review's trial of a draft) the rows seen are not committed ones: no
    snapshot is held then."""
    if not isinstance(conn, sqlite3.Connection):
        told = getattr(conn, "book_state", None)
        return told() if told is not None else None
    if conn.in_transaction:
        return None
    return conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes


# why a rule shares a term with the scene: its code, how many terms, and the rule
SharedRule = tuple[str, int, RuleInForce]


class Wordings:
    """Rule wordings (text and domain) by the bigrams they hold: an index of content, never
    stale (a revised rule is a new wording), kept by a book handle across the snapshots it
    makes, so a snapshot made after a commit indexes only that commit's new wordings. Its
    lists are arrays of ints: held for the process, they are nothing a full garbage collection
    walks."""

    LIMIT = 1 << 16  # wordings kept before starting over (a 10,000-chapter book has ~4,000)

    def __init__(self, rule_terms: RuleTerms) -> None:
        self._rule_terms = rule_terms
        self.ids: dict[tuple[str, str | None], int] = {}
        self.by_every: dict[str, array[int]] = {}  # bigram → wordings (text and domain)
        self.by_own: dict[str, array[int]] = {}  # bigram → wordings (text alone)

    def id_of(self, text: str, domain: str | None) -> int:
        key = (text, domain)
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.ids)
            every, own = self._rule_terms(text, domain)
            for term in every:
                self.by_every.setdefault(term, array("l")).append(found)
            for term in own:
                self.by_own.setdefault(term, array("l")).append(found)
        return found

    def full(self) -> bool:
        return len(self.ids) > self.LIMIT


class RankingSnapshot:
    """Every rule version of the book (all chapters) and every version that made someone dead,
    read at one state of it. A pack asks it for the rules in force and the dead as of its
    chapter instead of reading thousands of rows, and counts the terms each rule shares with
    its scene from the index of wordings. Made again after every change to the book."""

    CHAPTERS_KEPT = 16

    def __init__(self, conn: Connection, wordings: Wordings) -> None:
        # read from the state index alone and sorted here (in SQL, the order by subject would
        # take the subject index and every rule's row); same order as `rule_candidates`
        rows = sorted(
            conn.execute(
                f"SELECT subject, id, value_json, valid_from, IFNULL(valid_to, {FOREVER}) "
                "FROM versions WHERE family = 'rule' AND state = 'in_force' "
                "AND status != 'tentative'"
            ).fetchall(),
            key=lambda row: (row[0], row[1]),
        )
        self._wordings = wordings
        # tuples of tuples, strings and numbers: the collector stops tracking them, where it
        # would visit every item of a list at each full collection (`OpenThreads`)
        self._rules = tuple(
            _rule_fields(subject, text, since) for subject, _, text, since, _ in rows
        )
        self._starts = tuple(row[3] for row in rows)
        self._ends = tuple(row[4] for row in rows)
        at: dict[int, list[int]] = {}
        self._wording_of = array("l")  # rule position → its wording
        for position, (_, text, domain, _) in enumerate(self._rules):
            wording = wordings.id_of(text, domain)
            at.setdefault(wording, []).append(position)
            self._wording_of.append(wording)
        # wording → the rules (positions) worded so; tuples of ints, which the collector drops
        self._at = {wording: tuple(positions) for wording, positions in at.items()}
        # newest first, ties in the order of ids (heapq.nlargest's order over the scan above)
        self._by_recency = tuple(sorted(range(len(rows)), key=lambda p: (-self._starts[p], p)))
        self._recency_keys = tuple(-self._starts[p] for p in self._by_recency)
        self._dead = all_versions_in_state(conn, "fact", "dead")
        self._open: dict[int, OpenThreads] = {}  # the threads open at a chapter, once asked
        self._spans: ThreadSpans | None = None

    def open_threads(self, conn: Connection, as_of: int) -> OpenThreads:
        """`thread_rows(conn, as_of)`, kept for the chapters asked while the book is as it was
        read (packs for the next chapter, a pack and its review). The first chapter asked is
        read; from a second on, every thread version's span is (`ThreadSpans`, once) and the
        threads are picked from it: an agent that commits and asks packs for the next chapter
        never pays for spans, a reader going from chapter to chapter pays once."""
        found = self._open.get(as_of)
        if found is None:
            if self._spans is None and not self._open:
                found = thread_rows(conn, as_of)
            else:
                if self._spans is None:
                    self._spans = ThreadSpans(conn)
                found = self._spans.open_at(as_of)
            if len(self._open) >= self.CHAPTERS_KEPT:
                self._open.clear()
            self._open[as_of] = found
        return found

    @staticmethod
    def _shared(index: dict[str, array[int]], terms: frozenset[str]) -> Counter[int]:
        """Wording → how many of `terms` it holds. A term's list holds each wording once and
        the terms are a set: the count is the size of the intersection."""
        return Counter(chain.from_iterable(index.get(t, ()) for t in terms))

    def dead(self, as_of: int) -> list[Version]:
        """`chain_ops.versions_in_state(conn, "fact", "dead", as_of)`, from memory."""
        return [
            known_at(v, as_of)
            for v in self._dead
            if v.valid_from <= as_of and (v.valid_to is None or v.valid_to > as_of)
        ]

    def rules_sharing(
        self,
        as_of: int,
        every_terms: frozenset[str],
        own_terms: frozenset[str],
        newest: int,
        best: tuple[int, Callable[[int], float]] | None = None,
    ) -> tuple[list[SharedRule], list[RuleInForce]]:
        """The rules in force at `as_of` whose bigrams (with their domain's) meet `every_terms`
        ("rule_shares_outline") or else whose text's bigrams meet `own_terms`
        ("rule_shares_scene"), with how many terms they share, in the order of their ids;
        and the `newest` other rules in force, newest first (ties in the order of ids).

        With `best` (k, score of a count of shared terms), only the k sharing rules that a
        stable sort by that score puts first, still in the order of ids: a pack ranks 1,000–2,000
        sharing rules at 10,000 chapters and shows a few, and a list of them all, held while
        the pack is made, cost it a garbage collection of the youngest objects or two."""
        outline = self._shared(self._wordings.by_every, every_terms)
        scene = self._shared(self._wordings.by_own, own_terms)
        starts, ends, rules, at, wording_of = (
            self._starts,
            self._ends,
            self._rules,
            self._at,
            self._wording_of,
        )
        # the sharing wordings by the score of their count (the one count: all, at one score);
        # the rules in force with each, a bucket of the best scores after another, each in the
        # order of ids, until `best` has its k: the many rules that share one common bigram
        # with the scene are then never looked at
        limit, score = best if best is not None else (len(rules), lambda _: 0.0)
        scores = {n: score(n) for n in {*outline.values(), *scene.values()}}
        by_score: dict[float, list[int]] = {}
        for w, n in outline.items():
            by_score.setdefault(scores[n], []).append(w)
        for w, n in scene.items():
            if w not in outline:
                by_score.setdefault(scores[n], []).append(w)
        kept: list[int] = []
        for value in sorted(by_score, reverse=True):
            kept += sorted(
                p for w in by_score[value] for p in at.get(w, ()) if starts[p] <= as_of < ends[p]
            )
            if len(kept) >= limit:
                break
        in_force = sorted(kept[:limit])
        shared: list[SharedRule] = []
        for p in in_force:
            w = wording_of[p]
            if w in outline:
                shared.append(("rule_shares_outline", outline[w], RuleInForce._make(rules[p])))
            else:
                shared.append(("rule_shares_scene", scene[w], RuleInForce._make(rules[p])))
        recent = []
        if newest > 0:
            for p in self._by_recency[bisect_left(self._recency_keys, -as_of) :]:
                w = wording_of[p]
                if as_of < ends[p] and w not in outline and w not in scene:
                    recent.append(RuleInForce._make(rules[p]))
                    if len(recent) == newest:
                        break
        return shared, recent


class RankingCache:
    """A book handle's `RankingSnapshot`, made when a second pack finds the book as the first
    left it (`book_state`) and kept until it changes; none when it cannot say (then packs
    scan the state index as before). The first pack after a change scans: an agent that
    commits a chapter and asks one pack pays nothing for a snapshot it would not use again."""

    def __init__(self, rule_terms: RuleTerms) -> None:
        self._rule_terms = rule_terms
        self._wordings = Wordings(rule_terms)
        self._seen: BookState | None = None  # the state the last pack found
        self._state: BookState | None = None  # the state the snapshot was read at
        self._snapshot: RankingSnapshot | None = None

    def snapshot(self, conn: Connection) -> RankingSnapshot | None:
        state = book_state(conn)
        if state is None:
            return None
        if self._snapshot is not None and state == self._state:
            return self._snapshot
        seen, self._seen = self._seen, state
        if state != seen:
            return None
        if self._wordings.full():
            self._wordings = Wordings(self._rule_terms)
        held = RankingSnapshot(conn, self._wordings)
        if book_state(conn) == state:  # unchanged while it was read: keep it
            self._state, self._snapshot = state, held
        return held
