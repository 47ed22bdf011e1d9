"""Entities, their names and aliases, introductions, and who was active when (the activity rows
themselves are written and read by `activity_ops`).

An entity row is derived from its introductions (`entities_new` of any chapter; the earliest one
names it). An entity referenced but never introduced is kept as `tentative`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..schema import Entity, Introduction
from .connection import Connection, Row
from .index_store import dumps, loads, rows_in


def insert_intros(
    conn: Connection, chapter: int, intros: Iterable[tuple[int, dict[str, Any]]]
) -> None:
    conn.executemany(
        "INSERT INTO entity_intros (entity_id, chapter, seq, name, type, tier, "
        "description, aliases_json, is_protagonist, revealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (entity_id, chapter, seq) DO UPDATE SET name = excluded.name, "
        "type = excluded.type, tier = excluded.tier, description = excluded.description, "
        "aliases_json = excluded.aliases_json, is_protagonist = excluded.is_protagonist, "
        "revealed = excluded.revealed",
        [
            (
                e["id"],
                chapter,
                seq,
                e["name"],
                e.get("type"),
                e.get("tier"),
                e.get("desc"),
                dumps(list(e.get("aliases", ()))),
                int(bool(e.get("is_protagonist"))),
                int(bool(e.get("revealed"))),
            )
            for seq, e in intros
        ],
    )


def delete_chapter_intros(conn: Connection, chapter: int) -> None:
    """The chapter's introductions go (`introduced_in` names them, read before)."""
    conn.execute("DELETE FROM entity_intros WHERE chapter = ?", (chapter,))


def touch_entity_spans(conn: Connection, entity_ids: list[str]) -> None:
    """Refresh entities' first and last chapter of activity (their intros are unchanged): one
    statement for a chapter's entities (on PostgreSQL, not a round trip each)."""
    for start in range(0, len(entity_ids), 500):
        part = entity_ids[start : start + 500]
        conn.execute(
            "UPDATE entities SET "
            "first_chapter = MIN(COALESCE(intro_chapter, 2147483647), COALESCE((SELECT "
            "MIN(a.chapter) FROM activities a WHERE a.entity_id = entities.id), 2147483647)), "
            "last_chapter = MAX(COALESCE(intro_chapter, 0), COALESCE((SELECT MAX(a.chapter) "
            "FROM activities a WHERE a.entity_id = entities.id), 0)) "
            f"WHERE id IN ({','.join('?' * len(part))})",
            part,
        )


def ensure_tentative_entity(conn: Connection, reference: str, chapter: int) -> None:
    conn.execute(
        "INSERT INTO entities (id, name, tentative, first_chapter, "
        "last_chapter) VALUES (?, ?, 1, ?, ?) ON CONFLICT DO NOTHING",
        (reference, reference, chapter, chapter),
    )
    conn.execute(
        "INSERT INTO aliases (alias, entity_id, kind) VALUES (?, ?, 'id') ON CONFLICT DO NOTHING",
        (reference, reference),
    )


def rederive_entity(conn: Connection, entity_id: str) -> None:
    """Recompute one entity's row and aliases from its introductions and references."""
    intros = conn.execute(
        "SELECT chapter, name, type, tier, description, aliases_json, is_protagonist, revealed "
        "FROM entity_intros WHERE entity_id = ? ORDER BY chapter, seq",
        (entity_id,),
    ).fetchall()
    span = conn.execute(
        "SELECT MIN(chapter), MAX(chapter) FROM activities WHERE entity_id = ?", (entity_id,)
    ).fetchone()
    conn.execute("DELETE FROM aliases WHERE entity_id = ?", (entity_id,))
    if not intros:
        if span[0] is None and not _asserted_about(conn, entity_id):
            conn.execute("DELETE FROM entities WHERE id = ?", (entity_id,))
            return
        conn.execute(
            "INSERT INTO entities (id, name, tentative, first_chapter, last_chapter) "
            "VALUES (?, ?, 1, ?, ?) ON CONFLICT(id) DO UPDATE SET tentative = 1, "
            # an entity whose introductions were all taken back keeps nothing they said
            "name = excluded.name, type = NULL, tier = NULL, description = NULL, "
            "is_protagonist = 0, intro_chapter = NULL, first_chapter = excluded.first_chapter, "
            "last_chapter = excluded.last_chapter",
            (entity_id, entity_id, *span),
        )
        conn.execute("INSERT INTO aliases VALUES (?, ?, 'id')", (entity_id, entity_id))
        return
    first = intros[0]

    def pick(column: str) -> Any:
        return next((row[column] for row in intros if row[column]), None)

    chapters = [first["chapter"], *(c for c in span if c is not None)]
    conn.execute(
        "INSERT INTO entities (id, name, type, tier, description, is_protagonist, tentative, "
        "intro_chapter, first_chapter, last_chapter) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?) "
        "ON CONFLICT(id) DO UPDATE SET name=excluded.name, type=excluded.type, "
        "tier=excluded.tier, description=excluded.description, "
        "is_protagonist=excluded.is_protagonist, tentative=0, "
        "intro_chapter=excluded.intro_chapter, first_chapter=excluded.first_chapter, "
        "last_chapter=excluded.last_chapter",
        (
            entity_id,
            _current_name(intros),
            pick("type") or "角色",
            pick("tier"),
            pick("description"),
            int(any(row["is_protagonist"] for row in intros)),
            first["chapter"],
            min(chapters),
            max(chapters),
        ),
    )
    conn.executemany(
        "INSERT INTO aliases VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        [
            (alias, entity_id, kind)
            for alias, kind in _name_kinds(entity_id, intros, _current_name(intros)).items()
        ],
    )


def _current_name(intros: list[Row]) -> str:
    """The name an entity goes by after these introductions: its latest revealed name (血衣堂主
    → 厉沉), else the name it was introduced with."""
    named = next((row for row in reversed(intros) if row["revealed"]), intros[0])
    return str(named["name"])


def _name_kinds(entity_id: str, intros: Iterable[Row], name: str) -> dict[str, str]:
    """Every name an entity answers to, with its kind (id, name or alias): `name` is its name
    now, and a name it was known by before a reveal is an alias."""
    names = {entity_id: "id", name: "name"}
    for row in intros:
        names.setdefault(row["name"], "alias")
        for alias in loads(row["aliases_json"]):
            names.setdefault(alias, "alias")
    return names


def _asserted_about(conn: Connection, entity_id: str) -> bool:
    """Whether any assertion still names the entity (as subject or as a relation's target)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM assertions WHERE subject = ?) "
        "OR EXISTS (SELECT 1 FROM assertions WHERE obj = ?)",
        (entity_id, entity_id),
    ).fetchone()
    return bool(row[0])


def reference_signatures(conn: Connection, ids: Iterable[str]) -> dict[str, tuple[Any, ...] | None]:
    """What decides which references resolve to each entity: its names with their kinds,
    whether it is settled, and its introduction (None: no such entity). When a chapter's
    commit changes an entity's signature, later chapters may read their references anew."""
    # every statement sent before any answer is read: one round trip on PostgreSQL
    cursors = [
        (
            entity_id,
            conn.execute(
                "SELECT tentative, intro_chapter FROM entities WHERE id = ?", (entity_id,)
            ),
            conn.execute(
                "SELECT alias, kind FROM aliases WHERE entity_id = ? ORDER BY alias", (entity_id,)
            ),
        )
        for entity_id in ids
    ]
    out: dict[str, tuple[Any, ...] | None] = {}
    for entity_id, entity, aliases in cursors:
        row = entity.fetchone()
        names = aliases.fetchall()
        out[entity_id] = (row[0], row[1], *map(tuple, names)) if row else None
    return out


def chapters_referring_to(
    conn: Connection, ids: Iterable[str], after: int, before: int = 2**31 - 1
) -> set[int]:
    """Chapters after `after` (and before `before`) whose references resolved to any of these
    entities: in activity, as the subject or object of an assertion, or in a secret's `about`
    or `unaware`. A chapter's every resolved reference lands in one of these. (Secrets are
    found through the chapter index: appending a chapter, or rebuilding, reads nothing after
    it.)"""
    # every statement sent before any answer is read: on PostgreSQL (a pipeline) they share
    # one round trip instead of five an entity
    cursors = [
        conn.execute(sql, {"e": entity_id, "n": after, "b": before})
        for entity_id in ids
        for sql in (
            "SELECT DISTINCT chapter FROM activities WHERE entity_id = :e "
            "AND chapter > :n AND chapter < :b",
            "SELECT DISTINCT chapter FROM assertions WHERE subject = :e "
            "AND chapter > :n AND chapter < :b",
            "SELECT DISTINCT chapter FROM assertions WHERE obj = :e "
            "AND chapter > :n AND chapter < :b",
            "SELECT DISTINCT a.chapter FROM assertions a, json_each(a.payload_json, '$.about') j "
            "WHERE +a.family = 'secret' AND a.chapter > :n AND a.chapter < :b AND j.value = :e",
            "SELECT DISTINCT a.chapter FROM assertions a, json_each(a.payload_json, '$.unaware') j "
            "WHERE +a.family = 'secret' AND a.chapter > :n AND a.chapter < :b AND j.value = :e",
        )
    ]
    return {r[0] for cursor in cursors for r in cursor.fetchall()}


def rename_entity_rows(conn: Connection, old: str, new: str) -> None:
    conn.execute("UPDATE activities SET entity_id = ? WHERE entity_id = ?", (new, old))
    conn.execute("UPDATE timeline_participants SET entity_id = ? WHERE entity_id = ?", (new, old))
    conn.execute(
        "DELETE FROM timeline_participants WHERE entity_id = :e AND rowid NOT IN "
        "(SELECT MIN(rowid) FROM timeline_participants WHERE entity_id = :e GROUP BY event_id)",
        {"e": new},
    )
    conn.execute("DELETE FROM entities WHERE id = ?", (old,))
    conn.execute("DELETE FROM aliases WHERE entity_id = ?", (old,))
    conn.execute("DELETE FROM conflicts WHERE scope = ?", (f"entity:{old}",))


def intro_chapters(conn: Connection, entity_id: str) -> list[int]:
    """Chapters that introduce the entity as new (a `revealed` re-introduction does not)."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT chapter FROM entity_intros WHERE entity_id = ? AND revealed = 0 "
            "ORDER BY chapter",
            (entity_id,),
        )
    ]


def get_entity(conn: Connection, entity_id: str) -> Entity | None:
    # One statement, the aliases gathered beside the row: on PostgreSQL each statement waits a
    # round trip, and a pack reads a few dozen entities. (Sorted here: the order an aggregate
    # sees its rows in is not promised; code point order is SQLite's and COLLATE "C"'s.)
    row = conn.execute(
        "SELECT e.*, (SELECT json_group_array(a.alias) FROM aliases a "
        "WHERE a.entity_id = e.id AND a.kind = 'alias') AS alias_list "
        "FROM entities e WHERE e.id = ?",
        (entity_id,),
    ).fetchone()
    if row is None:
        return None
    return entity_from_row(row, sorted(loads(row["alias_list"]) or ()))


def get_entities(conn: Connection, ids: Iterable[str]) -> dict[str, Entity]:
    """`get_entity` of many ids in one statement per 500; an id with no entity is left out."""
    rows = rows_in(
        conn,
        "SELECT e.*, (SELECT json_group_array(a.alias) FROM aliases a "
        "WHERE a.entity_id = e.id AND a.kind = 'alias') AS alias_list "
        "FROM entities e WHERE e.id IN ({marks})",
        sorted(set(ids)),
    )
    return {row["id"]: entity_from_row(row, sorted(loads(row["alias_list"]) or ())) for row in rows}


def entity_from_row(row: Row, aliases: list[str]) -> Entity:
    return Entity(
        id=row["id"],
        name=row["name"],
        type=row["type"] or "角色",
        tier=row["tier"],
        desc=row["description"],
        aliases=tuple(aliases),
        is_protagonist=bool(row["is_protagonist"]),
        tentative=bool(row["tentative"]),
        first_chapter=row["first_chapter"],
    )


def intro_state(conn: Connection, entity_id: str) -> Introduction | None:
    """How an entity stands for resolving references; None when there is no such entity."""
    row = conn.execute(
        "SELECT tentative, intro_chapter FROM entities WHERE id = ?", (entity_id,)
    ).fetchone()
    return Introduction(settled=not row[0], chapter=row[1]) if row else None


def intro_states(conn: Connection, ids: list[str]) -> dict[str, Introduction]:
    """`intro_state` of many entities in one statement; those with no row are left out."""
    rows = rows_in(
        conn, "SELECT id, tentative, intro_chapter FROM entities WHERE id IN ({marks})", ids
    )
    return {r[0]: Introduction(settled=not r[1], chapter=r[2]) for r in rows}


def intro_chapters_of(conn: Connection, ids: list[str]) -> dict[str, list[int]]:
    """`intro_chapters` of many entities in one statement (an entity with none is left out)."""
    rows = rows_in(
        conn,
        "SELECT DISTINCT entity_id, chapter FROM entity_intros WHERE revealed = 0 "
        "AND entity_id IN ({marks})",
        ids,
    )
    out: dict[str, list[int]] = {}
    for entity_id, chapter in sorted((r[0], r[1]) for r in rows):
        out.setdefault(entity_id, []).append(chapter)
    return out


def count_settled(conn: Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM entities WHERE tentative = 0").fetchone()[0])


def recent_entities(conn: Connection, limit: int) -> list[str]:
    """Settled entities by their latest activity, newest first; the protagonist always first."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT id FROM entities WHERE tentative = 0 "
            "ORDER BY is_protagonist DESC, last_chapter DESC, id LIMIT ?",
            (limit,),
        )
    ]


def list_entities(conn: Connection, as_of: int | None, entity_type: str | None) -> list[Entity]:
    """Settled entities (introduced by `as_of`; None: all), in order of appearance."""
    if as_of is not None:
        return _entities_known_at(conn, as_of, entity_type)
    rows = conn.execute(
        "SELECT * FROM entities WHERE tentative = 0 AND (? IS NULL OR type = ?) "
        "ORDER BY first_chapter, id",
        (entity_type, entity_type),
    ).fetchall()
    aliases: dict[str, list[str]] = {}
    for entity_id, alias in conn.execute(
        "SELECT entity_id, alias FROM aliases WHERE kind = 'alias' ORDER BY alias"
    ):
        aliases.setdefault(entity_id, []).append(alias)
    return [entity_from_row(r, aliases.get(r["id"], [])) for r in rows]


def _entities_known_at(
    conn: Connection,
    as_of: int,
    entity_type: str | None,
    ids: Iterable[str] | None = None,
) -> list[Entity]:
    """The cast as chapter `as_of` knew it: introductions up to `as_of` decide the name, type
    and aliases, so a name or alias revealed later is not shown. Only `ids`, when given."""
    sql = (
        "SELECT i.*, e.first_chapter FROM entity_intros i JOIN entities e ON e.id = i.entity_id "
        "WHERE i.chapter <= ?{only} ORDER BY i.entity_id, i.chapter, i.seq"
    )
    if ids is None:
        rows = conn.execute(sql.format(only=""), (as_of,)).fetchall()
    else:
        wanted, rows = sorted(set(ids)), []
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            only = f" AND i.entity_id IN ({','.join('?' * len(part))})"
            rows += conn.execute(sql.format(only=only), (as_of, *part)).fetchall()
    intros: dict[str, list[Row]] = {}
    for row in rows:
        intros.setdefault(row["entity_id"], []).append(row)
    out = []
    for entity_id, seen in intros.items():

        def pick(column: str, seen: list[Row] = seen) -> Any:
            return next((row[column] for row in seen if row[column]), None)

        name = _current_name(seen)
        kinds = _name_kinds(entity_id, seen, name)
        aliases = sorted(name for name, kind in kinds.items() if kind == "alias")
        entity = Entity(
            id=entity_id,
            name=name,
            type=pick("type") or "角色",
            tier=pick("tier"),
            desc=pick("description"),
            aliases=tuple(aliases),
            is_protagonist=any(row["is_protagonist"] for row in seen),
            tentative=False,
            first_chapter=seen[0]["first_chapter"],
        )
        if entity_type is None or entity.type == entity_type:
            out.append(entity)
    return sorted(out, key=lambda e: (e.first_chapter or 0, e.id))


def entities_known_at(conn: Connection, ids: Iterable[str], as_of: int) -> list[Entity]:
    """These entities as chapter `as_of` knew them (those not yet introduced are left out), in
    order of appearance."""
    return _entities_known_at(conn, as_of, None, ids)


def recently_introduced(conn: Connection, as_of: int, limit: int) -> list[str]:
    """The entities introduced last by chapter `as_of`, newest first."""
    rows = conn.execute(
        "SELECT entity_id FROM entity_intros WHERE chapter <= ? ORDER BY chapter DESC, seq DESC "
        "LIMIT ?",
        (as_of, 4 * limit),
    )
    return list(dict.fromkeys(r[0] for r in rows))[:limit]


def find_protagonist(conn: Connection) -> Entity | None:
    row = conn.execute(
        "SELECT id FROM entities WHERE is_protagonist = 1 ORDER BY first_chapter LIMIT 1"
    ).fetchone()
    return get_entity(conn, row[0]) if row else None


def entity_names(conn: Connection, ids: Iterable[str]) -> dict[str, str]:
    ids = list(set(ids))
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return dict(
        conn.execute(f"SELECT id, name FROM entities WHERE id IN ({marks})", ids).fetchall()
    )


def names_known_at(conn: Connection, ids: Iterable[str], as_of: int) -> dict[str, str]:
    """Each entity's name as chapter `as_of` knew it: that of its first introduction by then,
    or of the latest one by then that revealed a truer name (血衣堂主 → 厉沉)."""
    sql = (
        "SELECT entity_id, name, revealed FROM entity_intros "
        "WHERE chapter <= ? AND entity_id IN ({marks}) ORDER BY entity_id, chapter, seq"
    )
    ids = list(set(ids))
    out: dict[str, str] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for entity_id, name, revealed in conn.execute(sql.format(marks=marks), (as_of, *part)):
            if entity_id not in out or revealed:
                out[entity_id] = name
    return out


def named_as_known_at(
    conn: Connection, entities: dict[str, Entity], as_of: int
) -> dict[str, Entity]:
    """These entities under the names chapter `as_of` knew them by (林砚 before a rename from
    chapter 5 on, 血衣堂主 before the chapter that reveals 厉沉); the name each bears now is kept
    among its aliases, so what was written under it (an item in someone's 物品) is still found."""
    then = names_known_at(conn, entities, as_of)
    out = {}
    for entity_id, entity in entities.items():
        name = then.get(entity_id, entity.name)
        if name != entity.name:
            aliases = tuple(sorted({*entity.aliases, entity.name} - {name}))
            entity = replace(entity, name=name, aliases=aliases)
        out[entity_id] = entity
    return out


def count_known_at(conn: Connection, as_of: int | None) -> int:
    return int(
        conn.execute(
            "SELECT COUNT(DISTINCT entity_id) FROM entity_intros WHERE chapter <= ?",
            (as_of if as_of is not None else 2**62,),
        ).fetchone()[0]
    )


def alias_pairs(conn: Connection, entity_ids: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Every (alias, entity id) of settled entities (of these only, when given): the alias
    automaton's input."""
    if entity_ids is None:
        return conn.execute(
            "SELECT a.alias, a.entity_id FROM aliases a JOIN entities e ON e.id = a.entity_id "
            "WHERE e.tentative = 0"
        ).fetchall()
    pairs: list[tuple[str, str]] = []
    for entity_id in entity_ids:
        pairs += conn.execute(
            "SELECT a.alias, a.entity_id FROM aliases a JOIN entities e ON e.id = a.entity_id "
            "WHERE e.tentative = 0 AND a.entity_id = ?",
            (entity_id,),
        ).fetchall()
    return pairs


def introduced_in(conn: Connection, chapters: Iterable[int] | None = None) -> dict[int, set[str]]:
    """chapter → the entities it introduces (in these chapters only, when given)."""
    out: dict[int, set[str]] = {}
    if chapters is None:
        rows = conn.execute("SELECT chapter, entity_id FROM entity_intros").fetchall()
    else:
        rows = []
        for chapter in chapters:
            rows += conn.execute(
                "SELECT chapter, entity_id FROM entity_intros WHERE chapter = ?", (chapter,)
            ).fetchall()
    for chapter, entity_id in rows:
        out.setdefault(chapter, set()).add(entity_id)
    return out


def cooccurring(
    conn: Connection, entity_id: str, as_of: int | None, limit: int
) -> list[tuple[str, int, int]]:
    """(other entity, chapters both appear or act in, the last of them) up to `as_of`, most
    shared first: who shares chapters with whom, not a relation."""
    return [
        (str(r[0]), int(r[1]), int(r[2]))
        for r in conn.execute(
            "SELECT b.entity_id, COUNT(DISTINCT a.chapter), MAX(a.chapter) FROM activities a "
            "JOIN activities b ON b.chapter = a.chapter AND b.entity_id != a.entity_id "
            "JOIN entities e ON e.id = b.entity_id AND e.tentative = 0 "
            "WHERE a.entity_id = ? AND a.chapter <= ? "
            "GROUP BY b.entity_id ORDER BY 2 DESC, 3 DESC, 1 LIMIT ?",
            (entity_id, as_of if as_of is not None else 2**62, limit),
        )
    ]


def active_between(conn: Connection, start: int, end: int, limit: int) -> list[str]:
    """Entities most active in chapters [start, end], most active first."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT entity_id FROM activities WHERE chapter BETWEEN ? AND ? "
            "GROUP BY entity_id ORDER BY COUNT(*) DESC, MAX(chapter) DESC, entity_id LIMIT ?",
            (start, end, limit),
        )
    ]


def ids_of_type(conn: Connection, entity_type: str) -> set[str]:
    """The ids of the settled entities of one type (a book's 势力 are few)."""
    rows = conn.execute(
        "SELECT id FROM entities WHERE type = ? AND tentative = 0", (entity_type,)
    ).fetchall()
    return {str(r[0]) for r in rows}


def kinds_of(conn: Connection, ids: list[str]) -> dict[str, str]:
    """Each entity's type ("" for an old book's row with none); those with no row left out."""
    rows = rows_in(conn, "SELECT id, type FROM entities WHERE id IN ({marks})", ids)
    return {str(r[0]): str(r[1] or "") for r in rows}
