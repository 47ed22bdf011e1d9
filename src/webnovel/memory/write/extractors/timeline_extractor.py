"""Timeline events and scenes, with the entities that take part in them."""

from __future__ import annotations

from ...schema import TimelineEvent
from ..chapter_inputs import ChapterResult
from ..conflict_resolver import Activity
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
        out.activities += [
            Activity(entity_id=p, chapter=n, kind="event", mention=ref)
            for p, ref in zip(participants, event.participants, strict=False)
        ]
    for scene in result.scenes:
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
            Activity(entity_id=c, chapter=n, kind="scene", mention=ref)
            for c, ref in zip(characters, scene.characters, strict=False)
        ]
    return out
