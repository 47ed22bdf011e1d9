"""Assertions and versions of the temporal chains (facts, relations, threads, rules).

As-of lookups use `valid_from <= N AND (valid_to IS NULL OR valid_to > N)` over indexes keyed by
chain or subject, so no answer replays history. Every version read as of chapter N is seen as it
was known at N (`known_at`): what a later chapter did to it (closing it, contradicting it) is not
shown, so an as-of answer equals the answer of a book that holds only chapters 1..N.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..chains import KEY_SEPARATOR, Assertion, Family, Version, chain_key
from .assertion_ops import assertion_from_row
from .connection import Connection, Row
from .index_store import dumps, loads, rows_in

_VERSION_COLUMNS = (
    "id, family, key, subject, field, obj, value_json, valid_from, valid_to, "
    "status, source_chapter, source_type, confidence, evidence_json, recorded_at, state"
)
FOREVER = 4611686018427387904  # stands in for an open interval's end in the state index
_HOLDS = "valid_from <= :n AND (valid_to IS NULL OR valid_to > :n)"
# Settled versions in a state at chapter ? (family, state, N, N), as the state index serves it.
STATE_HOLDS = (
    "family = ? AND state = ? AND IFNULL(valid_to, 4611686018427387904) > ? "
    "AND valid_from <= ? AND status != 'tentative'"
)


def known_at(version: Version, as_of: int | None) -> Version:
    """A version as chapter `as_of` knew it (None: as known now).

    A later chapter may close a version (superseded, contradicted) or stop a tentative one; as of
    N that has not happened yet, so the interval is open and the status is the one it had. Evidence
    written after N is left out.
    """
    if as_of is None:
        return version
    if version.valid_to is not None and version.valid_to > as_of:
        status = "tentative" if version.status == "tentative" else "active"
        version = replace(version, valid_to=None, status=status)
    if any(_chapter_of(e) > as_of for e in version.evidence):
        evidence = tuple(e for e in version.evidence if _chapter_of(e) <= as_of)
        version = replace(version, evidence=evidence)
    return version


def _chapter_of(evidence: dict[str, Any]) -> int:
    chapter = evidence.get("chapter")
    return chapter if isinstance(chapter, int) else 0


def _version(row: Row, evidence: bool = True, as_of: int | None = None) -> Version:
    return known_at(_version_row(row, evidence), as_of)


def _version_row(row: Row, evidence: bool) -> Version:
    # by position (`_VERSION_COLUMNS`' order): a pack builds hundreds, and a name costs a
    # search of the row's columns each
    (
        row_id,
        family,
        key,
        subject,
        field,
        obj,
        value_json,
        valid_from,
        valid_to,
        status,
        source_chapter,
        source_type,
        confidence,
        evidence_json,
        recorded_at,
        state,
    ) = row
    return Version(
        family=family,
        key=key,
        subject=subject,
        field=field,
        obj=obj,
        value=loads(value_json),
        valid_from=valid_from,
        valid_to=valid_to,
        status=status,
        source_chapter=source_chapter,
        source_type=source_type,
        confidence=confidence,
        evidence=tuple(loads(evidence_json)) if evidence else (),
        row_id=row_id,
        recorded_at=recorded_at,
        state=state,
    )


# -- writing ----------------------------------------------------------------------------------


_REPLAY_BATCH = 300  # chains a statement; 3 parameters each stay far below SQLite's limit
_WANTED = "WITH wanted(family, key, since) AS (VALUES {rows}) "
_V_COLUMNS = ", ".join("v." + c.strip() for c in _VERSION_COLUMNS.split(","))


def replay_inputs(
    conn: Connection, starts: dict[tuple[Family, str], int]
) -> dict[tuple[Family, str], tuple[list[Version], list[Assertion]]]:
    """For every chain, what its replay starts from: the versions open just before its start,
    and its assertions from the start on. Two statements per `_REPLAY_BATCH` chains instead of
    two per chain, both sent before either is read: on PostgreSQL each chain's reads cost a
    round trip, and a commit touches dozens of chains."""
    found: dict[tuple[Family, str], tuple[list[Version], list[Assertion]]] = {
        chain: ([], []) for chain in starts
    }
    wanted = sorted(starts.items())
    for at in range(0, len(wanted), _REPLAY_BATCH):
        part = wanted[at : at + _REPLAY_BATCH]
        params = [value for (family, key), since in part for value in (family, key, since)]
        head = _WANTED.format(rows=", ".join("(?, ?, ?)" for _ in part))
        # Two lookups on (family, key, valid_to) per chain: the open versions, and those closed
        # at or after its start; neither reads the versions that ended before it, however long
        # the chain. (The `+` keeps the planner off the index by start, which would scan every
        # earlier version.)
        opened = conn.execute(
            head + f"SELECT {_V_COLUMNS} FROM wanted JOIN versions v ON v.family = wanted.family "
            "AND v.key = wanted.key AND v.valid_to IS NULL AND +v.valid_from < wanted.since "
            f"UNION ALL SELECT {_V_COLUMNS} FROM wanted JOIN versions v "
            "ON v.family = wanted.family AND v.key = wanted.key "
            "AND v.valid_to >= wanted.since AND +v.valid_from < wanted.since",
            params,
        )
        asserted = conn.execute(
            head + "SELECT a.id, a.family, a.key, a.subject, a.field, a.obj, a.chapter, a.seq, "
            "a.payload_json FROM wanted JOIN assertions a ON a.family = wanted.family "
            "AND a.key = wanted.key AND a.chapter >= wanted.since",
            params,
        )
        for row in opened.fetchall():
            found[(row["family"], row["key"])][0].append(_version(row))
        for row in asserted.fetchall():
            found[(row["family"], row["key"])][1].append(assertion_from_row(row))
    for versions, assertions in found.values():
        versions.sort(key=lambda v: (v.valid_from, v.row_id or 0))
        assertions.sort(key=lambda a: (a.chapter, a.seq, a.id or 0))
    return found


def delete_versions_after(conn: Connection, starts: dict[tuple[Family, str], int]) -> None:
    """Delete the versions of many chains from each chain's own start chapter on."""
    conn.executemany(
        "DELETE FROM versions WHERE family = ? AND key = ? AND valid_from >= ?",
        [(family, key, since) for (family, key), since in sorted(starts.items())],
    )


def write_versions(conn: Connection, versions: Iterable[Version], recorded_at: str) -> None:
    updates, inserts = [], []
    for v in versions:
        if v.row_id is not None:
            updates.append((v.valid_to, v.status, v.row_id))
        else:
            inserts.append(
                (
                    v.family,
                    v.key,
                    v.subject,
                    v.field,
                    v.obj,
                    dumps(v.value),
                    v.valid_from,
                    v.valid_to,
                    v.status,
                    v.source_chapter,
                    v.source_type,
                    v.confidence,
                    dumps(list(v.evidence)),
                    recorded_at,
                    v.state,
                )
            )
    conn.executemany("UPDATE versions SET valid_to = ?, status = ? WHERE id = ?", updates)
    conn.executemany(
        "INSERT INTO versions (family, key, subject, field, obj, value_json, valid_from, "
        "valid_to, status, source_chapter, source_type, confidence, evidence_json, recorded_at, "
        "state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        inserts,
    )


def rename_subject(conn: Connection, old: str, new: str) -> set[tuple[Family, str, str]]:
    """Point every assertion naming entity `old` at `new` (a tentative entity adopted by its
    introduction); drop the old chains' versions. Returns (family, old key, new key) triples."""
    rows = conn.execute(
        "SELECT id, family, key, subject, obj, payload_json FROM assertions "
        "WHERE subject = ? OR obj = ? OR (family IN ('thread', 'know') AND "
        "payload_json LIKE ?)",
        (old, old, f"%{old}%"),
    ).fetchall()
    moved = set()
    for row in rows:
        new_key = KEY_SEPARATOR.join(
            new if p == old else p for p in row["key"].split(KEY_SEPARATOR)
        )
        payload = loads(row["payload_json"])
        if row["family"] == "thread":
            payload["related"] = sorted(
                {new if r == old else r for r in payload.get("related", [])}
            )
        if row["family"] == "know" and payload.get("from") == old:
            payload["from"] = new
        for item in payload.get("evidence", []):  # refs like state_change:<entity>:<field>:<n>
            item["ref"] = ":".join(new if p == old else p for p in item["ref"].split(":"))
        conn.execute(
            "DELETE FROM versions WHERE family = ? AND key = ?", (row["family"], row["key"])
        )
        conn.execute(
            "UPDATE assertions SET key = ?, subject = ?, obj = ?, payload_json = ? WHERE id = ?",
            (
                new_key,
                new if row["subject"] == old else row["subject"],
                new if row["obj"] == old else row["obj"],
                dumps(payload),
                row["id"],
            ),
        )
        moved.add((row["family"], row["key"], new_key))
    return moved


# -- reading ----------------------------------------------------------------------------------


def version_at(conn: Connection, family: Family, key: str, as_of: int | None) -> Version | None:
    """The settled (non-tentative) version of a chain holding at `as_of` (None: now)."""
    if as_of is None:
        row = conn.execute(
            f"SELECT {_VERSION_COLUMNS} FROM versions WHERE family = ? AND key = ? "
            "AND valid_to IS NULL AND status != 'tentative' LIMIT 1",
            (family, key),
        ).fetchone()
    else:
        row = conn.execute(
            f"SELECT {_VERSION_COLUMNS} FROM versions WHERE family = :f AND key = :k AND {_HOLDS} "
            "AND status != 'tentative' ORDER BY valid_from DESC LIMIT 1",
            {"f": family, "k": key, "n": as_of},
        ).fetchone()
    return _version(row, as_of=as_of) if row else None


def chain_history(
    conn: Connection, family: Family, key: str, as_of: int | None = None
) -> list[Version]:
    """Every version of one chain, oldest first; as of `as_of`, those begun by then."""
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE family = ? AND key = ? "
        "AND valid_from <= ? ORDER BY valid_from, id",
        (family, key, FOREVER if as_of is None else as_of),
    ).fetchall()
    return [_version(r, as_of=as_of) for r in rows]


def dead_versions_of(conn: Connection, keys: list[str]) -> dict[str, list[Version]]:
    """The versions tagged dead of many status chains, oldest first, in one statement (a
    chain with none is left out): all the per-entity checks need, read without the rest of a
    status that may change every chapter (through the state index: `+key` keeps the planner
    off the index by key, which would scan the whole chain)."""
    rows = rows_in(
        conn,
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE family = 'fact' AND +key IN ({{marks}}) "
        "AND state = 'dead'",
        keys,
    )
    out: dict[str, list[Version]] = {}
    for row in sorted(rows, key=lambda r: (r["key"], r["valid_from"], r["id"])):
        out.setdefault(row["key"], []).append(_version(row))
    return out


def subject_history(
    conn: Connection, family: Family, subject: str, as_of: int | None = None
) -> list[Version]:
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE family = ? AND subject = ? "
        "AND valid_from <= ? ORDER BY field, valid_from, id",
        (family, subject, FOREVER if as_of is None else as_of),
    ).fetchall()
    return [_version(r, as_of=as_of) for r in rows]


def _named_marks(params: dict[str, Any], prefix: str, values: list[str]) -> str:
    """Bind `values` as :prefix0, :prefix1, … and return the marks for an IN list."""
    for i, value in enumerate(values):
        params[f"{prefix}{i}"] = value
    return ",".join(f":{prefix}{i}" for i in range(len(values))) or "NULL"


def versions_at(
    conn: Connection,
    family: Family,
    as_of: int | None,
    *,
    subject: str | None = None,
    subjects: list[str] | None = None,
    obj: str | None = None,
    objects: list[str] | None = None,
    field: str | None = None,
    include_tentative: bool = False,
    evidence: bool = True,
) -> list[Version]:
    """Versions holding at `as_of` (None: open now), optionally for some subjects or objects;
    without `evidence` (not decoded: a reader that wants only values)."""
    where = ["family = :f", "valid_to IS NULL" if as_of is None else _HOLDS]
    params: dict[str, Any] = {"f": family, "n": as_of, "s": subject, "o": obj, "fd": field}
    if field is not None:
        where.append("field = :fd")
    if subject is not None:
        where.append("subject = :s")
    if subjects is not None:
        where.append(f"subject IN ({_named_marks(params, 's', subjects)})")
    if objects is not None:
        where.append(f"obj IN ({_named_marks(params, 'o', objects)})")
    if obj is not None:
        where.append("obj = :o")
    if not include_tentative:
        where.append("status != 'tentative'")
    # Read by object, the versions are sorted here: to spare a sort, SQLite would walk the
    # subject index over every version of the family instead of the object index (at 10,000
    # chapters: 101 ms against 9 ms for a pack's relations).
    by_object = objects is not None or obj is not None
    order = "" if by_object else " ORDER BY subject, field, valid_from, id"
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE {' AND '.join(where)}{order}", params
    ).fetchall()
    versions = [_version(r, evidence, as_of) for r in rows]
    if by_object:
        versions.sort(key=lambda v: (v.subject, v.field, v.valid_from, v.row_id or 0))
    return versions


# What ranks a relation: (row id, subject, field, object, value JSON, first chapter), with its
# evidence JSON left undecoded. A version read whole costs a pack ~30 µs (sixteen columns, two
# JSON values, a frozen dataclass and, for one a later chapter closed, a copy): a pack ranks a
# hundred or more relations and shows fewer, and decodes the evidence of those it shows only
# (`evidence_known_at`).
RelationRow = tuple[int, str, str, str | None, str, int, str]


def relation_rows_at(
    conn: Connection,
    as_of: int | None,
    *,
    subjects: list[str] | None = None,
    objects: list[str] | None = None,
) -> list[RelationRow]:
    """The settled relations holding at `as_of` (None: now) from `subjects` or to `objects`,
    the versions `versions_at(conn, "rel", ...)` reads, in its order; what a later chapter did
    to one (closed it) changes none of these columns but the evidence (`evidence_known_at`)."""
    where = ["family = 'rel'", "valid_to IS NULL" if as_of is None else _HOLDS]
    params: dict[str, Any] = {"n": as_of}
    if subjects is not None:
        where.append(f"subject IN ({_named_marks(params, 's', subjects)})")
    if objects is not None:
        where.append(f"obj IN ({_named_marks(params, 'o', objects)})")
    where.append("status != 'tentative'")
    by_object = objects is not None  # sorted here, as `versions_at` does (and why)
    order = "" if by_object else " ORDER BY subject, field, valid_from, id"
    rows: list[RelationRow] = [
        (row_id, subject, field, obj, value_json, valid_from, evidence_json)
        for row_id, subject, field, obj, value_json, valid_from, evidence_json in conn.execute(
            "SELECT id, subject, field, obj, value_json, valid_from, evidence_json FROM versions "
            f"WHERE {' AND '.join(where)}{order}",
            params,
        )
    ]
    if by_object:
        rows.sort(key=lambda r: (r[1], r[2], r[5], r[0]))
    return rows


def evidence_known_at(evidence_json: str, as_of: int | None) -> tuple[dict[str, Any], ...]:
    """A version's evidence as chapter `as_of` knew it (`known_at`)."""
    evidence = tuple(loads(evidence_json))
    if as_of is not None:
        evidence = tuple(e for e in evidence if _chapter_of(e) <= as_of)
    return evidence


def best_connected(conn: Connection, as_of: int | None, limit: int) -> list[tuple[str, int]]:
    """The entities with the most relations holding at `as_of`, most first, with their count:
    one scan of the relation versions, no values decoded. (A covering index would make it four
    times faster, but costs every commit 0.7 ms: the dashboard's graph is not worth that.)"""
    holds = "valid_to IS NULL" if as_of is None else _HOLDS
    rows = conn.execute(
        f"SELECT subject, obj FROM versions WHERE family = 'rel' AND {holds} "
        "AND status != 'tentative'",
        {"n": as_of},
    )
    degree = Counter(end for row in rows for end in row if end)
    return sorted(degree.items(), key=lambda item: (-item[1], item[0]))[:limit]


def subjects_versions_between(
    conn: Connection, family: Family, subjects: list[str], start: int, end: int
) -> dict[str, list[Version]]:
    """Versions of many subjects that began in chapters [start, end] (what changed recently),
    in one statement per 500 subjects."""
    rows = rows_in(
        conn,
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE family = ? "
        "AND valid_from BETWEEN ? AND ? AND subject IN ({marks})",
        list(dict.fromkeys(subjects)),
        params=(family, start, end),
    )
    out: dict[str, list[Version]] = {subject: [] for subject in subjects}
    for r in sorted(rows, key=lambda r: (r["valid_from"], r["id"])):
        out[r["subject"]].append(_version(r))
    return out


def versions_in_state(
    conn: Connection, family: Family, state: str, as_of: int | None, evidence: bool = True
) -> list[Version]:
    """Settled versions tagged `state` that hold at `as_of` (None: now), e.g. open threads or
    the dead. Served by the state index: it reads versions ending after `as_of`, not all."""
    end = as_of if as_of is not None else FOREVER - 1
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE {STATE_HOLDS} "
        "ORDER BY subject, valid_from, id",
        (family, state, end, end),
    ).fetchall()
    return [_version(r, evidence, as_of) for r in rows]


def all_versions_in_state(conn: Connection, family: Family, state: str) -> list[Version]:
    """Settled versions ever tagged `state`, as known now, in the order `versions_in_state`
    gives those holding at a chapter (each is seen as of a chapter through `known_at`)."""
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE {STATE_HOLDS} "
        "ORDER BY subject, valid_from, id",
        (family, state, -1, FOREVER),
    ).fetchall()
    return [_version_row(r, True) for r in rows]


def thread_states(conn: Connection, state: str, as_of: int | None) -> list[tuple[str, str]]:
    """(thread id, state JSON) of threads in `state` at `as_of` (None: now), read from the state
    index alone: a listing at 10,000 chapters returns a thousand, so no row is built into a
    version."""
    end = as_of if as_of is not None else FOREVER - 1
    return conn.execute(
        f"SELECT subject, value_json FROM versions WHERE {STATE_HOLDS}",
        ("thread", state, end, end),
    ).fetchall()


def versions_by_id(conn: Connection, row_ids: list[int]) -> dict[int, Version]:
    marks = ",".join("?" * len(row_ids))
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM versions WHERE id IN ({marks})", row_ids
    ).fetchall()
    return {r["id"]: _version(r) for r in rows}


def values_by_id(conn: Connection, row_ids: list[int]) -> dict[int, tuple[str, Any]]:
    """Each version's subject and value, by row id: what a thread's line is made of, without
    the fourteen other columns of a `Version` (`versions_by_id`)."""
    if not row_ids:
        return {}
    marks = ",".join("?" * len(row_ids))
    return {
        row_id: (subject, loads(value_json))
        for row_id, subject, value_json in conn.execute(
            f"SELECT id, subject, value_json FROM versions WHERE id IN ({marks})", row_ids
        )
    }


def field_use(conn: Connection) -> dict[str, int]:
    """Each fact field with the number of entities that have had a value for it."""
    rows = conn.execute(
        "SELECT field, COUNT(DISTINCT subject) FROM versions WHERE family = 'fact' "
        "GROUP BY field ORDER BY 2 DESC, field"
    )
    return {field: count for field, count in rows}


def item_sets(conn: Connection, as_of: int | None) -> list[tuple[Any, int]]:
    """Every settled `items` value held by chapter `as_of` (None: now), with the chapter it holds
    from, earliest first: what each person has carried."""
    rows = conn.execute(
        "SELECT value_json, valid_from FROM versions WHERE family = 'fact' AND field = 'items' "
        "AND status != 'tentative' AND valid_from <= ? ORDER BY valid_from",
        (as_of if as_of is not None else 2**62,),
    )
    return [(loads(value_json), int(valid_from)) for value_json, valid_from in rows]


def item_holders(conn: Connection, names: Iterable[str], as_of: int | None) -> list[str]:
    """The entities whose `items`, as of chapter `as_of`, hold any of these names (an item
    entity's name or aliases), in id order."""
    names = set(names)
    at = as_of if as_of is not None else 2**62
    found = set()
    for name in names:
        rows = conn.execute(
            "SELECT subject, value_json FROM versions WHERE family = 'fact' AND field = 'items' "
            "AND status != 'tentative' AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) "
            "AND instr(value_json, ?) > 0",
            (at, at, dumps(name)),
        )
        for subject, value_json in rows:
            value = loads(value_json)
            held = value if isinstance(value, list) else [value]
            if names & {str(v) for v in held}:
                found.add(subject)
    return sorted(found)


def ever_held(conn: Connection, names: Iterable[str], as_of: int | None) -> list[str]:
    """The entities whose `items` have held any of these names in a chapter up to `as_of`
    (None: ever), in id order: whose chains an item's history of holders is read from."""
    found = set()
    for name in set(names):
        rows = conn.execute(
            "SELECT subject, value_json FROM versions WHERE family = 'fact' AND field = 'items' "
            "AND status != 'tentative' AND valid_from <= ? AND instr(value_json, ?) > 0",
            (FOREVER if as_of is None else as_of, dumps(name)),
        )
        for subject, value_json in rows:
            value = loads(value_json)
            if name in {str(v) for v in (value if isinstance(value, list) else [value])}:
                found.add(subject)
    return sorted(found)


def held_since(conn: Connection, holder: str, names: set[str], as_of: int) -> int | None:
    """The chapter from which `holder` has held the item without a break, as of `as_of`."""
    since = None
    for version in reversed(chain_history(conn, "fact", chain_key(holder, "items"), as_of)):
        if version.status == "tentative" or version.valid_from > as_of:
            continue
        value = version.value if isinstance(version.value, list) else [version.value]
        if not names & {str(v) for v in value}:
            break
        since = version.valid_from
    return since


def value_held(conn: Connection, field: str, value: str, as_of: int) -> bool:
    """Whether any entity's `field` has held exactly `value` from a chapter up to `as_of`."""
    row = conn.execute(
        "SELECT 1 FROM versions WHERE family = 'fact' AND field = ? AND value_json = ? "
        "AND valid_from <= ? AND status != 'tentative' LIMIT 1",
        (field, dumps(value), as_of),
    ).fetchone()
    return row is not None
