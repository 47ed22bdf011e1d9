"""The information gap a chapter must keep: what the narration holds back, and who in play does
not know what, said only where the records say so.

A character lacks an open secret when nothing records their learning it: not the plant's
`known_by`, not being its subject (unless `unaware`), not a `knowledge_changes` entry, not being
told it in a scene (a reveal's `to` or `scene`), not belonging to a 势力 that was told it. A
secret stops mattering when it is retired or its `thread` closes; a `fate` (生死) or
`whereabouts` (下落) secret about someone is moot for whoever has met that person in a present
scene since it was planted: they saw them alive, and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..records import Secret
from ..store import chain_ops, entity_ops, name_ops, record_ops
from ..store.connection import Connection
from .as_of_reads import knowers_by_secret, secrets

MOOT_WHEN_MET = ("fate", "whereabouts")


@dataclass(frozen=True, kw_only=True)
class Gap:
    """One piece of the information gap a chapter must keep: a reveal `due` in it, a secret
    the reader must not be told yet (`author_only`), or a character `unaware` of it (or one who
    only `suspects` it). `about` and `knowers` (ids) say between whom the gap lies."""

    secret: Secret
    kind: str
    entity_id: str | None = None
    about: frozenset[str] = frozenset()
    knowers: frozenset[str] = frozenset()
    listed_unaware: bool = False  # the plant says so: a record, not an absence of one


def information_gap(conn: Connection, as_of: int, chapter: int, characters: set[str]) -> list[Gap]:
    """For the open secrets that touch `characters` (about one of them, or known by one of
    them; and any due in `chapter`): what the narration must keep back, and who of them does
    not know it yet, by the records (see the module's docstring)."""
    knowing = knowers_by_secret(conn, as_of)
    states = {v.subject: v.value for v in chain_ops.versions_at(conn, "secret", as_of)}
    closed = _closed_threads(conn, as_of, {s["thread"] for s in states.values() if s.get("thread")})
    members = _members(conn, as_of, characters, knowing)
    gaps = []
    for secret in secrets(conn, as_of, knowing):
        state = states.get(secret.id, {})
        if secret.status != "open" or state.get("thread") in closed:
            continue
        held = knowing.get(secret.id, {})
        knows = {e for e, s in held.items() if s == "knows"}
        knows |= {e for e in characters if members.get(e, set()) & knows}
        about = set(state.get("about", ()))
        due_now = secret.reveal_due == chapter and not secret.reader_knows
        if due_now:
            gaps.append(Gap(secret=secret, kind="due"))
        if not (knows | about) & characters:
            continue
        if not secret.reader_knows and not due_now:
            gaps.append(Gap(secret=secret, kind="author_only"))
        lacking = characters - knows
        if state.get("kind") in MOOT_WHEN_MET and about and lacking:
            since = secret.planted_chapter or 1
            lacking -= record_ops.met_in_scenes(conn, about, lacking, since, as_of)
        between = {"about": frozenset(about), "knowers": frozenset(knows)}
        gaps += [
            Gap(
                secret=secret,
                kind="suspects" if held.get(e) == "suspects" else "unaware",
                entity_id=e,
                listed_unaware=e in state.get("unaware", ()),
                **between,
            )
            for e in sorted(lacking)
        ]
    return gaps


def _closed_threads(conn: Connection, as_of: int, thread_ids: set[str]) -> set[str]:
    """Of `thread_ids`, those resolved or abandoned as of the chapter."""
    if not thread_ids:
        return set()
    versions = chain_ops.versions_at(conn, "thread", as_of, subjects=sorted(thread_ids))
    return {v.subject for v in versions if v.value.get("status") in ("resolved", "abandoned")}


def _members(
    conn: Connection,
    as_of: int,
    characters: set[str],
    knowing: dict[str, dict[str, str]],
) -> dict[str, set[str]]:
    """character → the 势力 they belong to (their `faction`) among those that know a secret:
    what a sect was told, its members know."""
    told = {e for who in knowing.values() for e in who} - characters
    if not told or not characters:
        return {}
    sects = told & entity_ops.ids_of_type(conn, "势力")
    if not sects:
        return {}
    out: dict[str, set[str]] = {}
    for v in chain_ops.versions_at(
        conn, "fact", as_of, subjects=sorted(characters), field="faction"
    ):
        if isinstance(v.value, str | list):
            values: list[Any] = v.value if isinstance(v.value, list) else [v.value]
            ids = {i for value in values for i in name_ops.resolve_reference(conn, str(value))}
            out[v.subject] = ids & sects
    return out
