"""Working memory and the semantic constraints of a pack: the outline, recent summaries and the
previous chapter's ending; the state of the entities in play; the dead and the information gap.
"""

from __future__ import annotations

from typing import Any

from ...messages import say
from ..chains import Version
from ..clock.shown import clock_now, clock_since, deadline_line
from ..read import as_of_reads, story_clock
from ..read import items as item_holders
from ..store import commit_ops
from ..vocabulary import chapter_named, ending_words
from . import gap_lines
from .gathering import Gathering, best
from .memory_pack import PackItem, value_text
from .reasons import because
from .relevance_filter import field_importance

OUTLINE_CHARS = 400


def working_memory(g: Gathering) -> list[PackItem]:
    items = []
    if g.request.outline:
        # one line, without Markdown headings, so it stays one item of the prompt's list
        outline = " ".join(
            line.strip().lstrip("#").strip()
            for line in g.request.outline.splitlines()
            if line.strip()
        )
        shown = outline[:OUTLINE_CHARS] + ("……" if len(outline) > OUTLINE_CHARS else "")
        outline_item = g.item(
            layer="working",
            category="outline",
            subject=f"ch{g.request.chapter}",
            field_name="outline",
            value=shown,
            chapter=None,
            source_type="outline",
            evidence=[],
            score=1.0,
            why=because("outline"),
            line=say("pack_line_outline", outline=shown),
        )
        outline_item.pinned = True
        items.append(outline_item)
    items += story_time(g)  # the recent context opens with the clock, after the outline
    rows = commit_ops.chapter_rows(
        g.conn,
        start=max(1, g.as_of - g.recipe.recent_chapters + 1),
        end=g.as_of,
    )
    for row in rows:
        chapter = row.chapter
        if row.summary:
            items.append(
                g.item(
                    layer="working",
                    category="story_state",
                    subject=f"ch{chapter}",
                    field_name="summary",
                    value=row.summary,
                    chapter=chapter,
                    source_type="summary",
                    evidence=[{"chapter": chapter, "ref": f"summary:ch{chapter:04d}"}],
                    score=g.scores.summary + g.scores.summary_step * (chapter - g.as_of),
                    why=because("recent_summary", chapter),
                    line=say(
                        "pack_line_summary",
                        named=chapter_named(chapter, row.title),
                        summary=row.summary,
                    ),
                )
            )
        ending = row.meta.get("ending")
        if chapter == g.as_of and isinstance(ending, dict) and ending:
            text = ending_words(ending)
            items.append(
                g.item(
                    layer="working",
                    category="story_state",
                    subject=f"ch{chapter}",
                    field_name="ending",
                    value=ending,
                    chapter=chapter,
                    source_type="chapter_meta",
                    evidence=[{"chapter": chapter, "ref": f"chapter_meta:ch{chapter:04d}"}],
                    score=g.scores.ending,
                    why=because("ending"),
                    line=say("pack_line_ending", chapter=chapter, ending=text),
                )
            )
    return items


DEADLINE_SOON_DAYS = 30  # a deadline this close in story time is 本章须知


def story_time(g: Gathering) -> list[PackItem]:
    """The clock the recent context opens with (the day, part of day, how long since the
    chapter before), and the deadlines in story time: passed ones and near ones are 本章须知.
    Nothing for a book that says no time."""
    clock = g.clock()
    if clock.day == 1 and clock.part is None and not clock.deadlines:
        return []  # a book that says no time (or not yet)
    now = g.item(
        layer="working",
        category="story_state",
        subject="story",
        field_name="clock",
        value=clock.to_dict(),
        chapter=None,  # first in the recent context, with the outline
        source_type="story_clock",
        evidence=[],
        score=1.0,
        why=because("story_clock"),
        line="- " + say("pack_clock", now=clock_now(clock), since=clock_since(clock)),
    )
    now.pinned = True
    items = [now]
    for deadline in clock.deadlines:
        if deadline.due_day is None or deadline.days_left is None:
            continue
        item = g.item(
            layer="working",
            category="open_loop",
            subject=deadline.thread_id,
            field_name="due_time",
            value=deadline.to_dict(),
            chapter=None,  # with the clock, before the recent chapters
            source_type="thread",
            evidence=[],
            score=1.0 if deadline.overdue else 0.9,
            why=because("deadline_passed", deadline.due_day)
            if deadline.overdue
            else because("deadline", deadline.due_day, deadline.days_left),
            line=f"- {deadline_line(deadline)}",
        )
        if deadline.overdue:
            item.must_know = "overdue"
        elif deadline.days_left <= DEADLINE_SOON_DAYS:
            item.must_know = "thread_due"
        items.append(item)
    return items


def character_state(g: Gathering) -> list[PackItem]:
    """The current state of the living people in play; of the dead, 本章须知 says they are."""
    items = []
    dead = {v.subject for v in g.dead()}
    living = [e for e in g.in_play.entities if e not in dead]
    facts = as_of_reads.facts_of_many(g.conn, living, g.as_of)  # one query for the cast
    for entity_id in living:
        entity = g.in_play.entities[entity_id]
        relevance = g.in_play.relevance[entity_id]
        for fact in facts[entity_id]:
            if fact.value == []:  # an emptied set (物品：（无）) says nothing a line would not
                continue
            score = relevance * field_importance(fact.field)
            value, line_value = fact.value, value_text(fact.value)
            if fact.field == "age":  # an age grows with the story clock: 十六岁 → 十九岁
                grown = story_clock.aged_value(
                    g.conn, fact.value, fact.valid_from, g.as_of, g.config.calendar
                )
                if grown is not None:
                    value, line_value = grown, say("pack_age_now", now=grown, said=line_value)
            item = g.item(
                layer="semantic",
                category="character_state",
                subject=entity_id,
                field_name=fact.field,
                value=value,
                chapter=fact.valid_from,
                source_type=fact.source_type,
                evidence=list(fact.evidence),
                score=score,
                why=because("of_entity", entity.name, g.in_play.why[entity_id]),
                line=say(
                    "pack_line_fact",
                    name=entity.name,
                    field=g.field_label(fact.field),
                    value=line_value,
                    source=_source(g, fact.evidence),
                    since=fact.valid_from,
                ),
            )
            if fact.field == "items" and fact.value:
                item.must_know = "items"
            items.append(item)
    return items + _holders(g, [e for e in living if g.in_play.entities[e].type == "物品"])


def _holders(g: Gathering, things: list[str]) -> list[PackItem]:
    """Who holds each item the scene names (an entity of type 物品 in play): a thing with one
    holder is handed over by that holder, or taken from them."""
    out = []
    for entity_id in things:
        entity = g.in_play.entities[entity_id]
        names = {entity.id, entity.name, *entity.aliases}
        held = item_holders.holder(g.conn, names, entity.name, g.as_of)
        if held is None:
            continue
        who = held.value if isinstance(held.value, str) else "、".join(held.value)
        item = g.item(
            layer="semantic",
            category="character_state",
            subject=entity_id,
            field_name="holder",
            value=held.value,
            chapter=held.valid_from,
            source_type="items",
            evidence=list(held.evidence),
            score=g.in_play.relevance[entity_id],
            why=because("of_entity", entity.name, g.in_play.why[entity_id]),
            line=say(
                "pack_line_fact",
                name=entity.name,
                field=g.field_label("holder"),
                value=who,
                source="",
                since=held.valid_from,
            ),
        )
        item.must_know = "items"
        out.append(item)
    return out


def constraints(g: Gathering) -> list[PackItem]:
    # hundreds are dead at 10,000 chapters: each is scored, and only the winners' reasons
    # are made (a reason's code and arguments until then)
    scored: list[tuple[float, tuple[Any, ...], Version]] = []
    dead_now = g.dead()
    for version in dead_now:
        if version.subject in g.in_play.entities:
            scored.append((g.scores.dead_in_play, ("dead_in_play",), version))
        elif version.subject in g.near:
            scored.append((g.scores.dead_in_play, ("dead_near",), version))
        else:
            score = g.scores.dead_elsewhere * g.fresh(version.valid_from)
            scored.append((score, ("died", version.valid_from), version))
    top = [(score, because(*why), version) for score, why, version in best(scored)]
    g.name_all(v.subject for _, _, v in top)  # one read for the dozens named below
    dead = [
        g.item(
            layer="semantic",
            category="active_constraints",
            subject=v.subject,
            field_name="status",
            value=v.value,
            chapter=v.valid_from,
            source_type=v.source_type,
            evidence=list(v.evidence),
            score=score,
            why=why,
            line=f"- {as_of_reads.dead_constraint(g.name(v.subject), v.value, v.valid_from)}",
        )
        for score, why, v in top
    ]
    for item in dead:
        if item.subject in g.in_play.entities or item.subject in g.near:
            item.must_know = "dead"
            # the scene may remember them: say how, so a memory is not written as a presence
            item.line += say("pack_dead_recalled")
    return dead + gap_lines.secrets(g, {v.subject for v in dead_now})


def _source(g: Gathering, evidence: tuple[dict[str, Any], ...]) -> str:
    """「据屠七所说，」 for a fact that is only someone's word (its evidence's `certainty`)."""
    first = evidence[0] if evidence else {}
    certainty = first.get("certainty")
    if not certainty:
        return ""
    who = g.name(first["said_by"]) if first.get("said_by") else ""
    key = {"rumor": "pack_rumor", "claimed": "pack_claimed"}.get(certainty, "pack_rumor")
    return say(key + ("_by" if who else ""), who=who)
