"""Episodic memory in a pack: recent events of the entities in play, what recently changed about
them, and passages retrieved for the chapter.
"""

from __future__ import annotations

from ...messages import say
from ..chains import Version
from ..store import chain_ops, commit_ops, record_ops
from ..vocabulary import SCENE_MODES
from .gathering import Gathering
from .memory_pack import PackItem, Passage, Retriever, chapter_span, value_text
from .reasons import because
from .relevance_filter import field_importance

# a chapter's or a scene's summary says again what the chapter's summary in the pack says
SUMMARY_KINDS = frozenset({"chapter_summary", "scene_summary"})


def timeline(g: Gathering) -> list[PackItem]:
    items, seen = [], set()
    start = max(1, g.as_of - g.recipe.event_window + 1)
    # every entity's events read at once (one statement, not one per entity)
    events = record_ops.events_of_many(g.conn, list(g.in_play.entities), start, g.as_of)
    for entity_id, entity in g.in_play.entities.items():
        for event in events[entity_id]:
            if event.id in seen:
                continue
            seen.add(event.id)
            relevance = g.in_play.relevance[entity_id]
            score = g.scores.event * relevance * g.fresh(event.chapter)
            place = say("pack_at_place", place=event.location) if event.location else ""
            items.append(
                g.item(
                    layer="episodic",
                    category="timeline",
                    subject=event.id,
                    field_name="event",
                    value=event.event,
                    chapter=event.chapter,
                    source_type="timeline",
                    evidence=[{"chapter": event.chapter, "ref": f"timeline:{event.id}"}],
                    score=score,
                    why=because("event", entity.name, event.chapter),
                    line=say(
                        "pack_line_event",
                        chapter=event.chapter,
                        mode=_not_now(event.flashback),
                        event=event.event,
                        place=place,
                    ),
                )
            )
    return items


def history(g: Gathering) -> list[PackItem]:
    """For each field of an entity in play, the value it held until lately (if it changed
    within the event window), so a writer does not slip back to it. Only the latest
    superseded value per field: the current ones are in `character_state`."""
    items = []
    start = max(1, g.as_of - g.recipe.event_window + 1)
    # a value that ended inside the window may have begun long before it
    began = chain_ops.subjects_versions_between(
        g.conn,
        "fact",
        list(g.in_play.entities),
        max(1, g.as_of - g.recipe.recency_window),
        g.as_of,
    )
    for entity_id, entity in g.in_play.entities.items():
        latest: dict[str, Version] = {}
        for version in began[entity_id]:
            ended = version.valid_to
            if version.status == "tentative" or ended is None or ended > g.as_of:
                continue
            if ended < start:  # changed before the window: old history, not this scene's
                continue
            if ended > version.valid_from:  # a value replaced in its own chapter never held
                latest[version.field] = version
        for version in latest.values():
            ended = version.valid_to or g.as_of
            score = (
                g.scores.history
                * g.in_play.relevance[entity_id]
                * g.fresh(ended)
                * field_importance(version.field)
            )
            items.append(
                g.item(
                    layer="episodic",
                    category="character_state",
                    subject=entity_id,
                    field_name=version.field,
                    value=version.value,
                    chapter=version.valid_from,
                    source_type=version.source_type,
                    evidence=list(version.evidence),
                    score=score,
                    why=because("recent_change", entity.name, ended),
                    line=say(
                        "pack_line_was",
                        name=entity.name,
                        field=g.field_label(version.field),
                        value=value_text(version.value),
                        span=chapter_span(version.valid_from, ended - 1),
                    ),
                    status="contradicted" if version.status == "contradicted" else "outdated",
                )
            )
    return items


def episodic(
    g: Gathering, retriever: Retriever | None, events: list[PackItem], working: list[PackItem]
) -> list[PackItem]:
    """Passages retrieved for the outline (or older summaries where the cast acted), except
    those repeating a summary the pack already holds in its working memory."""
    text = " ".join(filter(None, [g.request.outline, g.request.query]))
    if retriever is not None and text:
        passages = retriever(text, g.as_of, 8)
    else:
        passages = _summaries_of(g, events)
    summaries = [_compact(i.value) for i in working if i.field == "summary"]
    summarised = {i.source_chapter for i in working if i.field == "summary"}
    passages = [
        p
        for p in passages
        if not (p.kind in SUMMARY_KINDS and p.chapter in summarised)
        and not _repeats(_compact(p.text), summaries)
    ]
    return [
        g.item(
            layer="episodic",
            category=p.kind,
            subject=p.chunk_id,
            field_name="passage",
            value=p.text,
            chapter=p.chapter,
            source_type=p.kind,
            evidence=[{"chapter": p.chapter, "ref": p.chunk_id}],
            score=p.score,
            why=because("passage", p.kind, p.chapter),
            line=say("pack_line_passage", chapter=p.chapter, text=" ".join(p.text.split())),
        )
        for p in passages
        if p.chapter <= g.as_of
    ]


def _compact(text: object) -> str:
    return "".join(str(text).split())


def _repeats(passage: str, summaries: list[str]) -> bool:
    return any(passage in summary or summary in passage for summary in summaries if summary)


def _summaries_of(g: Gathering, events: list[PackItem]) -> list[Passage]:
    """Without a retriever: summaries of older chapters where the entities in play acted."""
    recent_start = g.as_of - g.recipe.recent_chapters + 1
    chapters: dict[int, float] = {}
    for event in events:
        if event.source_chapter and event.source_chapter < recent_start:
            chapters[event.source_chapter] = max(chapters.get(event.source_chapter, 0), event.score)
    passages = []
    for chapter, score in sorted(chapters.items(), key=lambda kv: -kv[1])[:6]:
        rows = commit_ops.chapter_rows(g.conn, start=chapter, end=chapter)
        if rows and rows[0].summary:
            passages.append(
                Passage(
                    chunk_id=f"summary:ch{chapter:04d}",
                    chapter=chapter,
                    kind="chapter_summary",
                    text=rows[0].summary,
                    score=g.scores.summary_passage * score,
                )
            )
    return passages


def _not_now(mode: str | None) -> str:
    """〔回忆〕 before an event remembered or dreamt: it put nobody anywhere."""
    return say("pack_scene_mode", mode=SCENE_MODES.label(mode)) if mode else ""
