"""Who is in play for the scene being written, beyond the names an outline gives.

An outline may be terse: "they escape the valley" names nobody, yet whoever stood in the last
scene of the chapter before is still there. So the cast of chapter N + 1 also takes, each with
its reason: the people of chapter N's last scene (where it ended), the point-of-view character,
whoever a thread due now (or overdue) or an open conflict of the last chapters names, and a few
people who shared recent scenes with those, weighted by how often and how lately.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..records import Conflict
from ..schema import Entity
from ..store import commit_ops, entity_ops, name_ops, record_ops
from ..store.connection import Connection
from ..store.index_store import loads
from ..store.ranking_scans import OpenThreads
from .reasons import Reason, because
from .relevance_filter import InPlay

SCENE_WINDOW = 5  # chapters of scenes that say who is around
LAST_SCENE = 0.9
POINT_OF_VIEW = 0.9
THREAD_DUE = 0.6
OPEN_CONFLICT = 0.8
CO_SCENE_MAX = 0.6  # a companion weighs less than anyone named for a reason of their own
CO_SCENE_CAP = 4  # companions added at most
THREADS_NAMING = 3  # the most pressing due threads whose people come into play
MAX_CAST = 8  # every person in play costs a pack their state and relations: the best few
DUE_AHEAD = 3  # a thread due this many chapters ahead is already this scene's business


@dataclass
class Surroundings:
    """What the cast was drawn from, kept for the sections that need it: the open conflicts
    of the last chapters, and who was near the cast in recent scenes (not all of them added)."""

    recent_conflicts: list[Conflict] = field(default_factory=list)
    near: set[str] = field(default_factory=set)
    pov: str | None = None  # the last chapter's point-of-view character


def extend_cast(
    conn: Connection,
    in_play: InPlay,
    as_of: int,
    chapter: int,
    open_threads: OpenThreads,
) -> Surroundings:
    """Adds the scene's people to `in_play` (see the module's docstring) and returns what they
    were found among."""
    around = Surroundings()
    named = set(in_play.entities)
    if as_of < 1:
        return around
    # a flashback or a dream puts nobody anywhere now: only the present's scenes say who is around
    scenes = [
        s
        for s in record_ops.scenes_between(conn, max(1, as_of - SCENE_WINDOW + 1), as_of)
        if not s["mode"]
    ]
    last = [s for s in scenes if s["chapter"] == as_of]
    in_last = [str(e) for e in last[-1]["characters"]] if last else []
    rows = commit_ops.chapter_rows(conn, start=as_of, end=as_of)
    pov = rows[0].meta.get("pov") if rows else None
    viewer = name_ops.resolve_reference(conn, pov)[:1] if isinstance(pov, str) and pov else []
    around.pov = viewer[0] if viewer else None
    due = _due_threads(open_threads, chapter)
    around.recent_conflicts = record_ops.list_conflicts(
        conn, up_to=as_of, since=max(1, as_of - SCENE_WINDOW + 1)
    )
    named_in_conflicts = [e for c in around.recent_conflicts for e in (c.entity_id, c.target) if e]
    # every one of them read at once (on PostgreSQL a read is a round trip), then added in turn
    known = _Entities(
        conn,
        [*in_last, *viewer, *(e for _, related in due for e in related), *named_in_conflicts],
        as_of,
    )
    for entity_id in in_last:
        _add(known, in_play, entity_id, as_of, LAST_SCENE, because("last_scene", as_of))
    for entity_id in viewer:
        _add(known, in_play, entity_id, as_of, POINT_OF_VIEW, because("point_of_view"))
    for due_chapter, related in due:
        for entity_id in related:
            _add(known, in_play, entity_id, as_of, THREAD_DUE, because("thread_names", due_chapter))
    for entity_id in named_in_conflicts:
        _add(known, in_play, entity_id, as_of, OPEN_CONFLICT, because("conflict_names"))
    _add_companions(conn, in_play, scenes, as_of, around)
    # the last scene's people and the point of view stay however many the outline names
    _keep_the_best(in_play, named | {e for e in (*in_last, *viewer) if e in in_play.entities})
    return around


def _keep_the_best(in_play: InPlay, kept: set[str]) -> None:
    """At most `MAX_CAST` people in play: those `kept` (named by the texts, in the last scene,
    the point of view) stay; of the others, the most relevant (in the order found, on a tie)."""
    added = [e for e in in_play.entities if e not in kept]
    room = max(0, MAX_CAST - len(kept))
    ranked = sorted(added, key=lambda e: -in_play.relevance[e])
    for entity_id in ranked[room:]:
        del in_play.entities[entity_id], in_play.relevance[entity_id], in_play.why[entity_id]


class _Entities:
    """The entities the cast may take, read in one statement; one not among them is read
    alone when asked. Each goes by the name chapter `as_of` knew it by."""

    def __init__(self, conn: Connection, ids: list[str], as_of: int) -> None:
        self._conn = conn
        self._as_of = as_of
        self._asked = set(ids)
        found = entity_ops.get_entities(conn, self._asked) if self._asked else {}
        self._found = entity_ops.named_as_known_at(conn, found, as_of)

    def get(self, entity_id: str) -> Entity | None:
        if entity_id in self._asked:
            return self._found.get(entity_id)
        entity = entity_ops.get_entity(self._conn, entity_id)
        if entity is None:
            return None
        return entity_ops.named_as_known_at(self._conn, {entity_id: entity}, self._as_of)[entity_id]


def _add(
    known: _Entities,
    in_play: InPlay,
    entity_id: str,
    as_of: int,
    relevance: float,
    why: Reason,
) -> bool:
    if entity_id in in_play.entities and in_play.relevance[entity_id] >= relevance:
        return False
    entity = known.get(entity_id)
    if entity is None or entity.tentative or entity.first_chapter is None:
        return False
    if entity.first_chapter > as_of:
        return False
    in_play.add(entity, relevance, why)
    return True


def _due_threads(open_threads: OpenThreads, chapter: int) -> list[tuple[int, list[str]]]:
    """(due chapter, related ids) of the open threads due
    from `SCENE_WINDOW` chapters ago to `DUE_AHEAD` chapters ahead, the nearest first: a thread
    left overdue for long is no longer a reason to bring its people into this scene (it stays
    in 本章须知 all the same), and one due in a few chapters is being worked towards now."""
    due = []
    for _, due_chapter, _, related, _ in open_threads:  # an OpenThread's fields
        if due_chapter is None or not related or related == "[]":
            continue
        if chapter - SCENE_WINDOW <= due_chapter <= chapter + DUE_AHEAD:
            due.append((int(due_chapter), [str(e) for e in loads(related) or []]))
    return sorted(due, key=lambda pair: (abs(pair[0] - chapter), pair[0]))[:THREADS_NAMING]


def _add_companions(
    conn: Connection,
    in_play: InPlay,
    scenes: list[dict[str, Any]],
    as_of: int,
    around: Surroundings,
) -> None:
    """People who shared recent scenes with the cast: weight = Σ over shared scenes of the
    scene's freshness × how many of the cast were in it; the best few come into play."""
    cast = set(in_play.entities)
    weight: dict[str, float] = {}
    via: dict[str, str] = {}
    for scene in scenes:
        people = [str(e) for e in scene["characters"]]
        present = [e for e in people if e in cast]
        if not present:
            continue
        fresh = 1.0 / (1 + as_of - int(scene["chapter"]))
        for entity_id in people:
            if entity_id in cast:
                continue
            around.near.add(entity_id)
            weight[entity_id] = weight.get(entity_id, 0.0) + fresh * len(present)
            via.setdefault(entity_id, present[0])
    best = sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:CO_SCENE_CAP]
    top = best[0][1] if best else 1.0
    known = _Entities(conn, [entity_id for entity_id, _ in best], as_of)
    for entity_id, w in best:
        relevance = CO_SCENE_MAX * (0.5 + 0.5 * w / top)
        why = because("shared_scenes", in_play.name(via[entity_id]))
        _add(known, in_play, entity_id, as_of, relevance, why)
