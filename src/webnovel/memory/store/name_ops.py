"""Which entity a name means: the one rule commit, review and queries share (id over name over
alias, settled over tentative, the latest introduced first), for one name or many at once."""

from __future__ import annotations

from collections.abc import Iterable

from ..schema import Entity
from .connection import Connection, Row
from .entity_ops import entity_from_row
from .index_store import loads, rows_in


def tentative_entities_named(conn: Connection, names: Iterable[str]) -> list[str]:
    names = list(names)
    marks = ",".join("?" * len(names))
    return [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM entities WHERE tentative = 1 AND id IN ({marks})", names
        )
    ]


_KIND_RANK = {"id": 0, "name": 1}  # then any alias


def resolve_references(conn: Connection, references: Iterable[str]) -> dict[str, list[str]]:
    """`resolve_reference` of many names in one statement (a commit resolves a few dozen; on
    PostgreSQL each statement waits a round trip). A name nothing answers to is left out."""
    rows = rows_in(
        conn,
        "SELECT a.alias, a.entity_id, a.kind, e.tentative, e.first_chapter FROM aliases a "
        "JOIN entities e ON e.id = a.entity_id WHERE a.alias IN ({marks})",
        sorted(set(references)),
    )
    found: dict[str, list[Row]] = {}
    for row in rows:
        found.setdefault(row["alias"], []).append(row)
    return {alias: best_matches(candidates) for alias, candidates in found.items()}


def best_matches(candidates: list[Row]) -> list[str]:
    """The ids tied for best among the rows a name matched (alias kind, entity's tentative
    and first chapter): id over name over alias, settled over tentative, the latest
    introduced first (an unknown first chapter last, as SQLite sorts NULL), then by id: the
    same on both stores, whatever order the rows come in."""
    ranks = sorted(
        (
            _KIND_RANK.get(r["kind"], 2),
            r["tentative"],
            r["first_chapter"] is None,
            -(r["first_chapter"] or 0),
            r["entity_id"],
        )
        for r in candidates
    )
    best = ranks[0][:2]
    return list(dict.fromkeys(r[4] for r in ranks if r[:2] == best))


def resolve_reference(conn: Connection, reference: str) -> list[str]:
    """The one rule for what a name means, used by commit, review and queries alike: the
    entities tied for best match (id over name over alias, settled over tentative), the most
    recently introduced first. Empty when nothing matches; more than one when ambiguous."""
    return resolve_references(conn, [reference]).get(reference, [])


def entities_named(conn: Connection, reference: str) -> list[Entity]:
    """`resolve_reference` with the entities themselves, in one statement (an as-of question
    names its entity first: on PostgreSQL that is one round trip, not two)."""
    rows = conn.execute(
        "SELECT a.kind, a.entity_id, e.*, (SELECT json_group_array(b.alias) FROM aliases b "
        "WHERE b.entity_id = e.id AND b.kind = 'alias') AS alias_list "
        "FROM aliases a JOIN entities e ON e.id = a.entity_id WHERE a.alias = ?",
        (reference,),
    ).fetchall()
    if not rows:
        return []
    entities = {r["id"]: entity_from_row(r, sorted(loads(r["alias_list"]) or ())) for r in rows}
    return [entities[i] for i in best_matches(rows)]


def revealed_intros(
    conn: Connection, entity_ids: list[str]
) -> list[tuple[str, int, str, list[str]]]:
    """Each reveal of these entities (a `revealed` re-introduction): the entity, its chapter, the
    name and the aliases it brought, by entity then chapter."""
    rows = rows_in(
        conn,
        "SELECT entity_id, chapter, name, aliases_json FROM entity_intros "
        "WHERE revealed = 1 AND entity_id IN ({marks})",
        entity_ids,
    )
    found = [(str(e), int(c), str(n), list(loads(a))) for e, c, n, a in rows]
    return sorted(found, key=lambda r: (r[0], r[1]))


def name_before(conn: Connection, entity_id: str, chapter: int) -> str | None:
    """The name the entity was last introduced by before `chapter`."""
    row = conn.execute(
        "SELECT name FROM entity_intros WHERE entity_id = ? AND chapter < ? "
        "ORDER BY chapter DESC, seq DESC LIMIT 1",
        (entity_id, chapter),
    ).fetchone()
    return str(row[0]) if row else None


def own_holder_of_name(conn: Connection, name: str, entity_id: str, chapter: int) -> str | None:
    """A settled entity other than `entity_id`, introduced by `chapter`, that answers to `name`
    by one of its own introductions (not by a reveal of someone else)."""
    holders = conn.execute(
        "SELECT a.entity_id FROM aliases a JOIN entities e ON e.id = a.entity_id "
        "WHERE a.alias = ? AND a.entity_id <> ? AND a.kind <> 'id' AND e.tentative = 0 "
        "ORDER BY a.entity_id",
        (name, entity_id),
    ).fetchall()
    for (other,) in holders:  # an alias row may come from a later reveal: check by the intros
        intros = conn.execute(
            "SELECT name, aliases_json FROM entity_intros WHERE entity_id = ? AND chapter <= ?",
            (other, chapter),
        ).fetchall()
        if any(name == own or name in loads(aliases) for own, aliases in intros):
            return str(other)
    return None


def names_shared_with(
    conn: Connection, entity_ids: list[str]
) -> tuple[dict[str, tuple[int, str, str]], list[tuple[str, int, str, str]]]:
    """In one statement: each of these settled entities' introduction (its earliest row in
    `entity_intros`: chapter, name, type; one that came in `revealed` is left out, what its
    reveal took being `reveal_takes_name`'s to say), and every introduction of a settled entity
    (a reveal too) under a name any of them was introduced with (entity, chapter, name, type)."""
    rows = rows_in(
        conn,
        "SELECT i.entity_id, i.chapter, i.seq, i.revealed, i.name, e.type FROM entity_intros i "
        "JOIN entities e ON e.id = i.entity_id WHERE e.tentative = 0 AND i.name IN "
        "(SELECT name FROM entity_intros WHERE entity_id IN ({marks}))",
        entity_ids,
    )
    ordered = sorted(tuple(r) for r in rows)
    wanted = set(entity_ids)
    first: dict[str, tuple[int, str, str] | None] = {}
    for entity_id, chapter, _, revealed, name, kind in ordered:
        if entity_id in wanted:
            intro = None if revealed else (int(chapter), str(name), str(kind or ""))
            first.setdefault(str(entity_id), intro)
    introductions = {e: intro for e, intro in first.items() if intro is not None}
    holders = sorted({(str(e), int(c), str(n), str(t or "")) for e, c, _, _, n, t in ordered})
    return introductions, holders


def namesakes_of(conn: Connection, entity_ids: list[str], taken_kind: str) -> set[str]:
    """In one statement: the settled entities introduced (or revealed) under a name one of these
    was introduced with, and those whose recorded `taken_kind` conflict names one of these."""
    sql = (
        "SELECT i.entity_id FROM entity_intros i JOIN entities e ON e.id = i.entity_id "
        "WHERE e.tentative = 0 AND i.name IN "
        "(SELECT name FROM entity_intros WHERE entity_id IN ({marks})) "
        "UNION SELECT entity_id FROM conflicts WHERE kind = ? AND entity_id IS NOT NULL "
        "AND target IN ({marks})"
    )
    rows: list[Row] = []
    for start in range(0, len(entity_ids), 400):  # the list is given twice: SQLite's bound
        part = entity_ids[start : start + 400]
        marks = ",".join("?" * len(part))
        rows += conn.execute(sql.format(marks=marks), (*part, taken_kind, *part)).fetchall()
    return {str(r[0]) for r in rows}
