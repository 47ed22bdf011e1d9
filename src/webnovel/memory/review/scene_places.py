"""Places held against scenes: where a draft's present scenes put people, against where memory
has them, and the previous chapter's ending against the first scene.

A scene at a place memory knows (an entity of type 地点, or somewhere someone has been) that puts
someone somewhere other than memory's current place for them, while the chapter records no move
of theirs, is advice `scene_location` (medium), naming both places and the chapter that set the
first; a recorded move silences it. The ending check (`location_continuity`,
low) speaks only when neither explains the change: no move recorded to the first scene's place,
nobody in it already there by memory. A flashback or a dream puts nobody anywhere.
"""

from __future__ import annotations

from typing import Any

from ...messages import say
from ..chains import chain_key
from ..packs.relevance_filter import bigrams
from ..store import chain_ops, commit_ops, entity_ops, name_ops
from ..store.connection import Connection
from ..write.chapter_inputs import ChapterResult, SceneInput

Finding = tuple[str, str, Any, Any, str | None, tuple[dict[str, Any], ...]]


def same_place(a: str, b: str) -> bool:
    """赤炎城 and 赤炎城客栈 are one place; 黑风谷 and 城主府 are not."""
    return a in b or b in a or bool(bigrams(a) & bigrams(b))


def known_place(conn: Connection, place: str, as_of: int) -> bool:
    """A place memory knows: an entity of type 地点, or somewhere someone has been by `as_of`.
    A spot inside one (周伯的屋子 in 青石镇) is not: a scene there contradicts nobody."""
    for entity_id in name_ops.resolve_reference(conn, place):
        entity = entity_ops.get_entity(conn, entity_id)
        if entity is not None and entity.type == "地点":
            return True
    return chain_ops.value_held(conn, "location", place, as_of)


def _id(conn: Connection, ref: str) -> str | None:
    found = name_ops.resolve_reference(conn, ref)
    return found[0] if found else None


def _moved(conn: Connection, draft: ChapterResult) -> dict[str, list[str]]:
    """entity id → the places the chapter records them moving to."""
    moves: dict[str, list[str]] = {}
    for change in draft.state_changes:
        entity_id = _id(conn, change.ref) if change.field == "location" else None
        if entity_id is not None:
            moves.setdefault(entity_id, []).append(str(change.new))
    return moves


def _present(draft: ChapterResult) -> list[SceneInput]:
    return sorted((s for s in draft.scenes if not s.mode), key=lambda s: s.index)


def scene_locations(conn: Connection, draft: ChapterResult) -> list[Finding]:
    """(kind, message, expected, found, entity, evidence) for each person a present scene puts
    somewhere memory does not have them, with no move recorded; run with the draft applied."""
    n = draft.chapter
    moves = _moved(conn, draft)
    said: set[str] = set()
    out: list[Finding] = []
    for scene in _present(draft):
        if not scene.location or not known_place(conn, scene.location, n - 1):
            continue
        people = [i for ref in scene.characters if (i := _id(conn, ref)) is not None]
        for entity_id in people:
            if entity_id in moves or entity_id in said:
                continue
            version = chain_ops.version_at(conn, "fact", chain_key(entity_id, "location"), n - 1)
            if version is None or not isinstance(version.value, str):
                continue
            if same_place(version.value, scene.location):
                continue
            said.add(entity_id)
            name = entity_ops.entity_names(conn, [entity_id]).get(entity_id, entity_id)
            message = say(
                "pack_scene_elsewhere",
                chapter=n,
                scene=scene.index,
                who=name,
                place=scene.location,
                memory=version.value,
                since=version.valid_from,
            )
            evidence = (
                {"chapter": version.valid_from, "ref": f"state:{entity_id}:location"},
                {"chapter": n, "ref": f"scene:{n}:{scene.index}"},
            )
            out.append(
                ("scene_location", message, version.value, scene.location, entity_id, evidence)
            )
    return out


def ending_continuity(conn: Connection, draft: ChapterResult) -> list[Finding]:
    """The previous chapter's ending against this chapter's first present scene, when both are
    given and nothing explains the change (a move to it, someone already there)."""
    as_of = draft.chapter - 1
    scenes = _present(draft)
    if not scenes or as_of < 1:
        return []
    rows = commit_ops.chapter_rows(conn, start=as_of, end=as_of)
    ending = rows[0].meta.get("ending") if rows else None
    first = scenes[0]
    if not isinstance(ending, dict) or not ending.get("location") or not first.location:
        return []
    before, after = str(ending["location"]), first.location
    if same_place(before, after):
        return []
    moves = _moved(conn, draft)
    for ref in first.characters:
        entity_id = _id(conn, ref)
        if entity_id is None:
            continue
        if any(same_place(place, after) for place in moves.get(entity_id, [])):
            return []  # a move explains it
        version = chain_ops.version_at(conn, "fact", chain_key(entity_id, "location"), as_of)
        there = version is not None and isinstance(version.value, str)
        if there and version is not None and same_place(str(version.value), after):
            return []  # they were already there
    message = say("pack_ending_elsewhere", before=before, after=after)
    evidence = ({"chapter": as_of, "ref": f"chapter_meta:ch{as_of:04d}:ending"},)
    return [("location_continuity", message, before, after, None, evidence)]
