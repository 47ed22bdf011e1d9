"""Review's question about a gap that rests only on the absence of a record: a draft that puts
X in a present scene with the person a secret is about, for the first time since it was
planted, while nothing records X learning it, asks 「X 是否已得知…？」 (advice, never a conflict).
A `fate` or `whereabouts` secret needs no question: meeting the person settles it."""

from __future__ import annotations

from typing import Any

from ...messages import say
from ..read.knowledge_gap import information_gap
from ..store import entity_ops, name_ops, record_ops
from ..store.connection import Connection
from ..write.chapter_inputs import ChapterResult


def unrecorded_learning(
    conn: Connection, draft: ChapterResult
) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(person, secret id, message, evidence) for each question; run with the draft applied."""
    chapter = draft.chapter
    scenes = [
        [i for ref in scene.characters for i in name_ops.resolve_reference(conn, ref)[:1]]
        for scene in draft.scenes
        if not scene.mode
    ]
    people = {e for scene in scenes for e in scene}
    if not people:
        return []
    characters = {e.id for e in entity_ops.get_entities(conn, people).values() if e.type == "角色"}
    names = entity_ops.entity_names(conn, people)
    asked: set[tuple[str, str]] = set()
    out = []
    for gap in information_gap(conn, chapter, chapter + 1, characters):
        who = gap.entity_id
        if gap.kind != "unaware" or who is None or gap.listed_unaware:
            continue
        for scene in scenes:
            met = [p for p in gap.about if p in scene and p != who and who in scene]
            if not met or (who, gap.secret.id) in asked:
                continue
            since = gap.secret.planted_chapter or 1
            if record_ops.met_in_scenes(conn, set(met), {who}, since, chapter - 1):
                continue  # asked when they first met, if ever
            asked.add((who, gap.secret.id))
            message = say(
                "pack_did_they_learn",
                chapter=chapter,
                who=names.get(who, who),
                other=names.get(met[0], met[0]),
                content=gap.secret.content,
            )
            evidence = {"chapter": since, "ref": f"secret:{gap.secret.id}"}
            out.append((who, gap.secret.id, message, evidence))
    return out
