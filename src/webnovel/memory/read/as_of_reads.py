"""Reading temporal memory: facts, histories, relations, threads, rules and the timeline, as of
any chapter. The seed's graph memory, kept as temporal edges in SQLite.

Every function takes an open connection and answers from indexes; none replays history.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from ...errors import AmbiguousEntity, UnknownEntity
from ...messages import say
from ..chains import KnowledgePayload, Version, chain_key, how_learnt, knowledge_claim
from ..schema import (
    Entity,
    MemoryItem,
    ThreadState,
    status_as_of,
)
from ..store import activity_ops, assertion_ops, chain_ops, entity_ops, name_ops, record_ops
from ..store.connection import Connection
from ..store.index_store import dumps, loads

if TYPE_CHECKING:  # the records are made when first built (memory/records.py)
    from ..records import (
        Knowledge,
        RelationEdge,
        Secret,
        Thread,
        ThreadStep,
        TimelineEvent,
        WorldRule,
    )


def resolve_entity(conn: Connection, reference: str) -> Entity:
    """The entity a reference names: id, then name, then alias; raises when none or several."""
    found = name_ops.entities_named(conn, reference.strip())
    if not found:
        raise UnknownEntity(reference)
    if len(found) > 1:
        raise AmbiguousEntity(reference, [e.id for e in found])
    return found[0]


def version_item(version: Version, name: str, as_of: int | None) -> MemoryItem:
    digest = hashlib.blake2b(dumps(version.value).encode("utf-8"), digest_size=3).hexdigest()
    return MemoryItem(
        id=f"fact:{version.subject}:{version.field}:{version.valid_from}:{digest}",
        subject=version.subject,
        field=version.field,
        value=version.value,
        status=status_as_of(version.status, version.valid_from, version.valid_to, as_of),
        valid_from=version.valid_from,
        valid_to=version.valid_to,
        source_chapter=version.source_chapter,
        source_type=version.source_type,
        evidence=version.evidence,
        confidence=version.confidence,
        updated_at=version.recorded_at,
        subject_name=name,
    )


def name_as_of(conn: Connection, entity: Entity, as_of: int | None) -> str:
    """`names_as_of` of one entity: 林砚 as of chapter 3 when a rename gives 林默 from chapter 5
    on, 血衣堂主 before the chapter that reveals 厉沉."""
    if as_of is None:
        return entity.name
    return entity_ops.names_known_at(conn, [entity.id], as_of).get(entity.id, entity.name)


def fact(conn: Connection, entity: Entity, field: str, as_of: int | None) -> MemoryItem | None:
    version = chain_ops.version_at(conn, "fact", chain_key(entity.id, field), as_of)
    return version_item(version, name_as_of(conn, entity, as_of), as_of) if version else None


def facts_of(conn: Connection, entity: Entity, as_of: int | None) -> list[MemoryItem]:
    """Every field of one entity that holds at `as_of`."""
    found = chain_ops.versions_at(conn, "fact", as_of, subject=entity.id)
    name = name_as_of(conn, entity, as_of) if found else entity.name
    return [version_item(v, name, as_of) for v in found]


def facts_of_many(
    conn: Connection, entity_ids: list[str], as_of: int | None
) -> dict[str, list[MemoryItem]]:
    """`facts_of` for many entities in one query per 500."""
    out: dict[str, list[MemoryItem]] = {i: [] for i in entity_ids}
    names = names_as_of(conn, entity_ids, as_of)
    for start in range(0, len(entity_ids), 500):
        part = entity_ids[start : start + 500]
        for v in chain_ops.versions_at(conn, "fact", as_of, subjects=part):
            out[v.subject].append(version_item(v, names.get(v.subject, v.subject), as_of))
    return out


def history(
    conn: Connection, entity: Entity, field: str | None, as_of: int | None = None
) -> list[MemoryItem]:
    """Every version of one field (or of all fields), oldest first, as known at `as_of`."""
    versions = (
        chain_ops.chain_history(conn, "fact", chain_key(entity.id, field), as_of)
        if field is not None
        else chain_ops.subject_history(conn, "fact", entity.id, as_of)
    )
    name = name_as_of(conn, entity, as_of) if versions else entity.name
    return [version_item(v, name, None) for v in versions]


def _edge(version: Version, as_of: int | None, names: dict[str, str]) -> RelationEdge:
    from .. import records

    return records.RelationEdge(
        source=version.subject,
        target=version.obj or "",
        type=version.value,
        valid_from=version.valid_from,
        valid_to=version.valid_to,
        status=status_as_of(version.status, version.valid_from, version.valid_to, as_of),
        description=_description(version),
        evidence=version.evidence,
        confidence=version.confidence,
        source_name=names.get(version.subject, version.subject),
        target_name=names.get(version.obj or "", version.obj or ""),
    )


def _description(version: Version) -> str | None:
    quotes = [e.get("quote") for e in version.evidence if e.get("quote")]
    return quotes[0] if quotes else None


def relations(conn: Connection, entity: Entity, as_of: int | None) -> list[RelationEdge]:
    """Relations from or to the entity that hold at `as_of` (None: now)."""
    out = chain_ops.versions_at(conn, "rel", as_of, subject=entity.id)
    out += [
        v
        for v in chain_ops.versions_at(conn, "rel", as_of, obj=entity.id)
        if v.subject != entity.id
    ]
    return _named_edges(conn, out, as_of)


def relation_graph(
    conn: Connection,
    as_of: int | None,
    touching: list[str] | None = None,
    among: list[str] | None = None,
) -> list[RelationEdge]:
    """Relations that hold at `as_of` (from or to one of `touching`, or with both ends `among`,
    when given), their ends named as chapter `as_of` knew them, so a name revealed later is not
    shown."""
    if among is not None:
        found = chain_ops.versions_at(conn, "rel", as_of, subjects=among, objects=among)
    elif touching is not None:
        found = chain_ops.versions_at(conn, "rel", as_of, subjects=touching)
        seen = {v.row_id for v in found}
        found += [
            v
            for v in chain_ops.versions_at(conn, "rel", as_of, objects=touching)
            if v.row_id not in seen
        ]
    else:
        found = chain_ops.versions_at(conn, "rel", as_of)
    return _named_edges(conn, found, as_of)


def names_as_of(conn: Connection, ids: Iterable[str], as_of: int | None) -> dict[str, str]:
    """Entity id → name: as chapter `as_of` knew it (a name told later is not used), else the
    current name."""
    ids = set(ids)
    names = entity_ops.entity_names(conn, ids)
    if as_of is not None:
        names.update(entity_ops.names_known_at(conn, ids, as_of))
    return names


def _named_edges(
    conn: Connection, versions: list[Version], as_of: int | None
) -> list[RelationEdge]:
    names = names_as_of(conn, {i for v in versions for i in (v.subject, v.obj) if i}, as_of)
    return [_edge(v, as_of, names) for v in versions]


def best_connected(conn: Connection, as_of: int | None, limit: int) -> list[tuple[str, int]]:
    return chain_ops.best_connected(conn, as_of, limit)


def appearances(conn: Connection, entity: Entity, as_of: int | None) -> list[int]:
    """The chapters, up to `as_of`, in which the entity appears or acts."""
    return activity_ops.activity_chapters(conn, entity.id, as_of)


def thread_history(conn: Connection, thread_id: str, as_of: int | None) -> list[ThreadStep]:
    """A thread's states, oldest first, as known at `as_of`; each with its evidence."""
    from .. import records

    return [
        records.ThreadStep(
            thread=thread_at(version, version.valid_to or as_of or version.valid_from),
            since=version.valid_from,
            evidence=version.evidence,
        )
        for version in chain_ops.chain_history(conn, "thread", thread_id, as_of)
    ]


def thread_at(version: Version, as_of: int) -> Thread:
    """A thread version as seen from chapter `as_of` (overdue when `as_of` is past its due)."""
    return thread_state_at(version.subject, version.value, as_of)


def thread_state_at(thread_id: str, state: ThreadState, as_of: int) -> Thread:
    """`thread_at` of a version known by its thread and state alone."""
    return _thread(thread_id, state, _past_due(state, as_of))


def _past_due(state: ThreadState, as_of: int) -> bool:
    due = state.get("due_chapter")
    return state["status"] == "open" and due is not None and as_of > due


def _listed_thread(thread_id: str, value_json: str, as_of: int) -> Thread:
    on_time, late, due = _thread_variants(thread_id, value_json)
    return late if late is not None and due is not None and as_of > due else on_time


# Listings at 10,000 chapters show the same thousand open threads again and again; a thread is an
# immutable value of its id and state text, with or without `overdue`, so both are built once.
@lru_cache(maxsize=1 << 15)
def _thread_variants(thread_id: str, value_json: str) -> tuple[Thread, Thread | None, int | None]:
    state = loads(value_json)
    due = state.get("due_chapter")
    late = (
        _thread(thread_id, state, True) if state["status"] == "open" and due is not None else None
    )
    return _thread(thread_id, state, False), late, due


def _thread(thread_id: str, state: ThreadState, overdue: bool) -> Thread:
    from .. import records

    due = state.get("due_chapter")
    return records.Thread(
        id=thread_id,
        kind=state.get("kind") or "open_loop",
        content=state.get("content") or "",
        status=state["status"],
        planted_chapter=state.get("planted_chapter"),
        due_chapter=due,
        resolved_chapter=state.get("resolved_chapter"),
        urgency=state.get("urgency"),
        overdue=overdue,
        related=tuple(state.get("related", ())),
        last_chapter=state.get("last_chapter"),
        progress=state.get("progress"),
        due_time=state.get("due_time"),
    )


def threads(conn: Connection, status: str, as_of: int | None, latest: int | None) -> list[Thread]:
    """The thread ledger as of a chapter; `latest` stands in for `as_of` when it is None."""
    point = as_of if as_of is not None else (latest or 0)
    if status == "all":
        found = [thread_at(v, point) for v in chain_ops.versions_at(conn, "thread", as_of)]
    else:  # open, overdue (open and past due), resolved, abandoned: use the state index
        state = "open" if status == "overdue" else status
        found = [
            _listed_thread(i, value, point)
            for i, value in chain_ops.thread_states(conn, state, as_of)
        ]
    if status == "overdue":
        found = [t for t in found if t.overdue]
    elif status != "all":
        found = [t for t in found if t.status == status]
    return sorted(found, key=lambda t: (t.planted_chapter or 0, t.id))


def rules(conn: Connection, as_of: int | None, domain: str | None) -> list[WorldRule]:
    from .. import records

    out = []
    for v in chain_ops.versions_in_state(conn, "rule", "in_force", as_of):
        if domain is not None and v.value.get("domain") != domain:
            continue
        out.append(
            records.WorldRule(
                id=v.subject,
                rule=v.value["rule"],
                domain=v.value.get("domain"),
                valid_from=v.valid_from,
                valid_to=v.valid_to,
                status=status_as_of(v.status, v.valid_from, v.valid_to, as_of),
                evidence=v.evidence,
            )
        )
    return sorted(out, key=lambda r: (r.valid_from, r.id))


def timeline(
    conn: Connection,
    start: int | None,
    end: int | None,
    entity: Entity | None,
    limit: int | None = None,
) -> list[TimelineEvent]:
    return record_ops.list_events(conn, start, end, entity.id if entity else None, limit)


def dead_constraint(name: str, status: str, since: int) -> str:
    """The hard rule a dead character imposes, worded once for the pack and the scratchpad."""
    return say("dead_constraint", name=name, since=since, status=status)


# -- secrets and knowledge ----------------------------------------------------------------------


def knowers_by_secret(conn: Connection, as_of: int | None) -> dict[str, dict[str, str]]:
    """secret id → {entity id: "knows" or "suspects"} as of a chapter, in one query."""
    out: dict[str, dict[str, str]] = {}
    for v in chain_ops.versions_at(conn, "know", as_of):
        out.setdefault(v.obj or v.field, {})[v.subject] = v.value
    return out


def secrets(
    conn: Connection,
    as_of: int | None,
    knowing: dict[str, dict[str, str]] | None = None,
) -> list[Secret]:
    """The book's secrets as of a chapter (retired ones included), with who knows them
    (`knowing`, when the caller has already read it)."""
    from .. import records

    knowing = knowers_by_secret(conn, as_of) if knowing is None else knowing
    versions = chain_ops.versions_at(conn, "secret", as_of)
    concerned = {e for v in versions for e in v.value.get("about", [])}
    # by the names chapter `as_of` knew (血衣堂主 before the chapter that reveals 厉沉)
    names = names_as_of(conn, {e for who in knowing.values() for e in who} | concerned, as_of)

    def named(secret_id: str, state: str) -> tuple[str, ...]:
        who = knowing.get(secret_id, {})
        return tuple(sorted(names.get(e, e) for e, s in who.items() if s == state))

    out = []
    for v in versions:
        state = v.value
        out.append(
            records.Secret(
                id=v.subject,
                content=state.get("content") or v.subject,
                status=state.get("status", "open"),
                reader_knows=bool(state.get("reader_knows")),
                reveal_due=state.get("reveal_due"),
                planted_chapter=state.get("planted_chapter"),
                revealed_chapter=state.get("revealed_chapter"),
                known_by=named(v.subject, "knows"),
                suspected_by=named(v.subject, "suspects"),
                about=tuple(names.get(e, e) for e in state.get("about", [])),
                unaware=tuple(names.get(e, e) for e in state.get("unaware", [])),
                kind=state.get("kind"),
                thread=state.get("thread"),
            )
        )
    return sorted(out, key=lambda s: (s.planted_chapter or 0, s.id))


def knows(conn: Connection, entity: Entity, as_of: int | None) -> list[Knowledge]:
    """What one character knows or suspects as of a chapter, since when, how and from whom."""
    from .. import records

    found = chain_ops.versions_at(conn, "know", as_of, subject=entity.id)
    contents = {
        v.subject: v.value.get("content") or v.subject
        for v in chain_ops.versions_at(conn, "secret", as_of)
    }
    learned: dict[str, KnowledgePayload] = {}  # the assertion that began each version
    for v in found:
        assertion = assertion_ops.assertion_at(conn, "know", v.key, v.valid_from)
        learned[v.key] = knowledge_claim(assertion) if assertion else {}
    # both named as chapter `as_of` knew them, as `secrets` names who knows
    sources = names_as_of(
        conn, {entity.id} | {source for p in learned.values() if (source := p.get("from"))}, as_of
    )
    out = []
    for v in found:
        payload = learned[v.key]
        first = v.evidence[0] if v.evidence else {}
        source = payload.get("from")
        out.append(
            records.Knowledge(
                entity_id=entity.id,
                entity_name=sources.get(entity.id, entity.name),
                secret_id=v.field,
                content=contents.get(v.field, v.field),
                state=v.value,
                since=v.valid_from,
                how=how_learnt(payload) or first.get("quote"),
                source=source,
                evidence=v.evidence,
                source_name=sources.get(source, source) if source else None,
            )
        )
    return sorted(out, key=lambda k: (k.since, k.secret_id))
