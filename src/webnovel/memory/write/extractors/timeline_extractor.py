"""Timeline events and scenes, with the entities that take part in them.

A scene or event that is not now (a flashback, a dream: `mode`) is kept and shown as such, but
the people in it are only `recalled` there: the dead may be remembered, and it moves nobody now.
"""

from __future__ import annotations

from dataclasses import replace

from ...records import TimelineEvent
from ..chain_folds import Activity
from ..chapter_inputs import ChapterResult
from . import Extraction, Resolve


def extract_timeline(result: ChapterResult, resolve: Resolve) -> Extraction:
    out = Extraction()
    n = result.chapter
    for i, event in enumerate(result.timeline_events):
        participants = tuple(dict.fromkeys(resolve(ref)[0] for ref in event.participants))
        out.events.append(
            TimelineEvent(
                id=f"ev-{n}-{i}",
                chapter=n,
                event=event.event,
                time_hint=event.time_hint,
                participants=participants,
                location=event.location,
                event_type=event.event_type,
            )
        )
        out.events[-1] = replace(out.events[-1], flashback=event.mode)
        out.activities += [
            Activity(entity_id=p, chapter=n, kind=_acting("event", event.mode), mention=ref)
            for p, ref in zip(participants, event.participants, strict=False)
        ]
    for scene in result.scenes:
        # an import's scenes list the names found in their text: mentions, not acting (while the
        # result is still the import's own: `import_shape.names_found`)
        scene_kind = "mentioned" if result.names_found else _acting("scene", scene.mode)
        characters = tuple(dict.fromkeys(resolve(ref)[0] for ref in scene.characters))
        out.scenes.append(
            {
                "index": scene.index,
                "location": scene.location,
                "characters": list(characters),
                "summary": scene.summary,
                "content": scene.content,
                "mode": scene.mode,
                "time": scene.time,
            }
        )
        out.activities += [
            Activity(entity_id=c, chapter=n, kind=scene_kind, mention=ref)
            for c, ref in zip(characters, scene.characters, strict=False)
        ]
    return out


def _acting(kind: str, mode: str | None) -> str:
    return "recalled" if mode else kind


def only_recalled(result: ChapterResult, resolve: Resolve) -> set[str]:
    """Who is in the chapter's scenes that are not now and in none of its present ones: an
    appearance of theirs is a memory or a dream, not a presence."""
    present: set[str] = set()
    recalled: set[str] = set()
    for scene in result.scenes:
        ids = {resolve(ref)[0] for ref in scene.characters}
        (recalled if scene.mode else present).update(ids)
    return recalled - present
