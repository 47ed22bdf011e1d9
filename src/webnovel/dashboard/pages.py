"""What each dashboard page shows, as typed values for its template (view_models.py).

Everything is read through the facade as of chapter N, so a page shows what the book knew at N
and nothing later; the reader wiki is made from the same functions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..book import hand_edits
from ..book.coverage import coverage
from ..book.project import Project
from ..book.rulebook import RECIPES, SEVERITIES, rule_for
from ..book.values import Conflict, Entity, MemoryItem
from ..book.words import CONFLICT_KIND, SECTION, SEVERITY, TASK, label, sizes_shown
from ..messages import say
from . import time_view
from .commit_lines import recent_lines
from .graph_view import relation_group
from .view_models import (
    Appearances,
    Axis,
    Bar,
    Card,
    CharacterPage,
    CharactersPage,
    Chart,
    ConflictCard,
    ConflictsPage,
    EventRow,
    FieldRow,
    HitRow,
    OverviewPage,
    PackPage,
    RelationRow,
    SearchPage,
    SectionRow,
    Segment,
    Snapshot,
    TimelinePage,
)

if TYPE_CHECKING:
    from ..book.values import SearchHit

CHART_BARS = 240  # a chart of 10,000 chapters shows bins, not bars
SETTLED_SHOWN = 30
CARDS_PER_PAGE = 48
TIER_ORDER = {"主角": 0, "核心": 1, "重要": 2, "反派": 2, "次要": 3, "配角": 3, "装饰": 5}
TIMELINE_PAGE = 200


def show(value: Any) -> str:
    """A stored value as an author reads it."""
    if value is None:
        return say("value_none")
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return say("argument_list_separator").join(show(v) for v in value) or say("value_empty")
    return json.dumps(value, ensure_ascii=False)


def field_rows(book: Project, facts: Sequence[MemoryItem]) -> list[FieldRow]:
    """Facts as (the book's Chinese name of the field, the value, since which chapter), in the
    order the book's vocabulary lists its fields (realm, location, status … then the book's own),
    so every card reads alike; a field no vocabulary knows comes last, under its own name."""
    rank = {key: at for at, key in enumerate(field_order(book, {f.field for f in facts}))}
    ranked = sorted(facts, key=lambda f: rank[f.field])  # stable: a field's facts keep their order
    return [FieldRow(book.fields.label(f.field), show(f.value), f.valid_from) for f in ranked]


def field_order(book: Project, keys: Iterable[str]) -> list[str]:
    """Field keys in the order the book's vocabulary lists them, unknown ones last by name."""
    order = {key: at for at, key in enumerate(book.fields.values)}
    return sorted(keys, key=lambda key: (order.get(key, len(order)), key))


def binned(
    values: Sequence[tuple[int, float | None]], bars: int, pick: str, axis: Axis
) -> list[Bar]:
    """(chapter, value) pairs as at most `bars` bars placed on a chapter axis: each bin's max,
    last or mean. Chapters with no value leave a gap."""
    present = [(c, float(v)) for c, v in values if v is not None]
    if not present:
        return []
    size = max(1, -(-len(present) // bars))
    bins = [present[start : start + size] for start in range(0, len(present), size)]
    heights = [_pick([v for _, v in part], pick) for part in bins]
    top = max(heights)
    out = []
    for part, value in zip(bins, heights, strict=True):
        span = axis.bar(part[0][0], part[-1][0])
        out.append(
            Bar(
                first=part[0][0],
                last=part[-1][0],
                value=value,
                x=span.left,
                w=span.width,
                height=round(100 * value / top, 2) if top else 0.0,
            )
        )
    return out


def _pick(numbers: list[float], pick: str) -> float:
    if pick == "max":
        return max(numbers)
    if pick == "last":
        return numbers[-1]
    return sum(numbers) / len(numbers)


# -- overview ------------------------------------------------------------------------------------


def overview(book: Project, as_of: int) -> OverviewPage:
    files = hand_edits.status(book)
    costs = book.chapter_costs(as_of)
    axis = Axis(1, as_of)
    progress = book.progress(as_of)
    open_threads = book.threads("open", as_of)
    overdue = [t for t in open_threads if t.overdue]
    conflicts = book.conflicts(as_of=as_of)
    return OverviewPage(
        clock=time_view.clock_shown(book, as_of),
        protagonist=protagonist_snapshot(book, as_of),
        # the same gaps `resume` and `stats` name, as of the page's chapter
        missing=[n for n in book.missing_chapters() if n <= as_of],
        published_through=book.store.commits.published_through(),
        edited=[e["chapter"] for e in files.edited if e["chapter"] <= as_of],
        stale=[n for n in files.stale if n <= as_of],
        coverage=coverage(book.store.commits, before=as_of + 1)["line"],
        counts=[
            (say("overview_chapters"), progress["chapters"]),
            (say("overview_words"), progress["words"]),
            (say("overview_entities"), progress["entities"]),
            (say("overview_open_threads"), len(open_threads)),
            (say("overview_overdue_threads"), len(overdue)),
            (say("overview_open_conflicts"), len(conflicts)),
        ],
        commits=recent_lines(book, as_of),
        conflicts=conflicts[:8],
        overdue=overdue[:8],
        charts=[
            Chart(
                title=say("chart_commit_ms"),
                bars=binned(
                    [(c["chapter"], c["elapsed_ms"]) for c in costs], CHART_BARS, "max", axis
                ),
                unit="ms",
            ),
            Chart(
                title=say("chart_index_kb"),
                bars=binned(
                    [
                        (c["chapter"], c["index_bytes"] / 1024 if c["index_bytes"] else None)
                        for c in costs
                    ],
                    CHART_BARS,
                    "last",
                    axis,
                ),
                unit="KB",
            ),
            Chart(
                title=say("chart_pack_tokens"),
                bars=binned(
                    [(c["chapter"], c["pack_tokens"]) for c in costs], CHART_BARS, "mean", axis
                ),
                unit="token",
            ),
        ],
        sizes=sizes_shown(book.sizes(), "store" in book.book),
    )


def protagonist_snapshot(book: Project, as_of: int) -> Snapshot | None:
    """主角快照: the protagonist as chapter `as_of` knew them (the name of then, every field that
    held then), or None when the book names no protagonist yet."""
    leads = [e for e in book.entities(as_of) if e.is_protagonist]
    if not leads:
        return None
    lead = min(leads, key=lambda e: (e.first_chapter or 0, e.id))
    facts = book.facts(lead.id, as_of)
    seen = book.appearances(lead.id, as_of)
    return Snapshot(
        entity=lead,
        facts=field_rows(book, facts),
        dead_since=death(book, facts),
        last_seen=seen[-1] if seen else None,
    )


def names_of(entities: Sequence[Entity]) -> dict[str, str]:
    return {e.id: e.name for e in entities}


# -- characters ----------------------------------------------------------------------------------


def death(book: Project, facts: Sequence[MemoryItem]) -> int | None:
    for item in facts:
        if (
            item.field == "status"
            and isinstance(item.value, str)
            and book.config.is_dead(item.value)
        ):
            return item.valid_from
    return None


def characters(book: Project, as_of: int, page: int = 1) -> CharactersPage:
    """Character cards, the protagonist first, then by tier and first appearance, a page at a
    time; places, factions and items listed by name."""
    everyone = book.entities(as_of)
    cast = sorted(
        (e for e in everyone if e.type == "角色"),
        key=lambda e: (not e.is_protagonist, TIER_ORDER.get(e.tier or "", 9), e.first_chapter or 0),
    )
    pages_count = max(1, -(-len(cast) // CARDS_PER_PAGE))
    page = min(max(page, 1), pages_count)
    shown = cast[(page - 1) * CARDS_PER_PAGE : page * CARDS_PER_PAGE]
    states = book.states([e.id for e in shown], as_of)
    cards = [
        Card(
            entity=entity,
            facts=field_rows(book, states[entity.id]),
            dead_since=death(book, states[entity.id]),
        )
        for entity in shown
    ]
    others = [e for e in everyone if e.type != "角色"]
    return CharactersPage(cards=cards, others=others, page=page, pages=pages_count, total=len(cast))


def character(book: Project, entity: Entity, as_of: int) -> CharacterPage:
    """One entity's page, as chapter `as_of` knew it."""
    facts = book.facts(entity.id, as_of)
    history = book.history(entity.id, as_of=as_of)
    axis = Axis(entity.first_chapter or 1, as_of)
    rows: dict[str, list[Segment]] = {}
    for item in history:
        span = axis.bar(item.valid_from, None if item.valid_to is None else item.valid_to - 1)
        rows.setdefault(item.field, []).append(
            Segment(
                value=show(item.value),
                valid_from=item.valid_from,
                valid_to=item.valid_to,
                status=item.status,
                left=span.left,
                width=span.width,
            )
        )
    seen = book.appearances(entity.id, as_of)
    relations = [
        RelationRow(
            edge=edge,
            other=edge.target_name if edge.source == entity.id else edge.source_name,
            outgoing=edge.source == entity.id,
            group=relation_group(edge.type),
        )
        for edge in book.relations(entity.id, as_of)
    ]
    return CharacterPage(
        entity=entity,
        facts=field_rows(book, facts),
        dead_since=death(book, facts),
        axis=axis,
        history=[(book.fields.label(field), rows[field]) for field in field_order(book, rows)],
        appearances=Appearances(
            count=len(seen), ticks=_ticks(axis, seen), last=seen[-1] if seen else None
        ),
        relations=relations,
        knows=book.knows(entity.id, as_of),
    )


def _ticks(axis: Axis, chapters: Sequence[int], most: int = 400) -> list[float]:
    """Where to mark chapters on an axis; a long book's marks are merged by position."""
    return sorted({round(axis.at(c) * most / 100) * 100 / most for c in chapters})


# -- timeline, conflicts, search, pack ----------------------------------------------------------


def timeline(
    book: Project, as_of: int, entity: Entity | None, before: int | None, story: bool = False
) -> TimelinePage:
    end = min(as_of, before - 1) if before else as_of
    who = entity.id if entity else None
    shown = book.timeline(end=end, entity=who, as_of=as_of, limit=TIMELINE_PAGE + 1)
    more = len(shown) > TIMELINE_PAGE
    shown = shown[-TIMELINE_PAGE:]
    if story:  # the same page of events, in the order they happen
        shown = book.timeline(
            start=shown[0].chapter if shown else None, end=end, entity=who, as_of=as_of, story=True
        )[-TIMELINE_PAGE:]
    names = book.names({p for e in shown for p in e.participants}, as_of)
    return TimelinePage(
        events=[
            EventRow(event=e, who=[names[p] for p in e.participants if p in names]) for e in shown
        ],
        earlier=shown[0].chapter if more and shown else None,
        entity=entity,
        entity_name=book.names([entity.id], as_of).get(entity.id) if entity else None,
        choices=sorted(set(names.values())),
        story=story,
        clock=time_view.clock_shown(book, as_of),
        track=time_view.track(book, entity.id, as_of) if entity else [],
    )


def conflicts(book: Project, as_of: int) -> ConflictsPage:
    every = book.conflicts(include_settled=True, as_of=as_of)
    waiting = sorted(  # the worst first, as the pack puts them; then the latest
        (_conflict_card(c) for c in every if c.status == "open"),
        key=lambda card: (SEVERITIES.index(card.severity), -card.conflict.chapter),
    )
    return ConflictsPage(
        open=waiting,
        settled=[_conflict_card(c) for c in every if c.status != "open"][-SETTLED_SHOWN:],
    )


def _conflict_card(c: Conflict) -> ConflictCard:
    rule = rule_for(c.kind)
    return ConflictCard(
        conflict=c,
        kind=label(CONFLICT_KIND, c.kind),
        severity=rule.severity,
        severity_name=label(SEVERITY, rule.severity),
        hint=rule.fix_hint,
        memory=[e for e in c.evidence if int(e.get("chapter", 0)) < c.chapter],
        this=[e for e in c.evidence if int(e.get("chapter", 0)) >= c.chapter],
    )


def search(book: Project, query: str, as_of: int) -> SearchPage:
    hits = book.search(query, top_k=20, as_of=as_of) if query.strip() else []
    return SearchPage(query=query, hits=[HitRow(hit=h, pieces=_snippet_pieces(h)) for h in hits])


def _snippet_pieces(hit: SearchHit) -> list[tuple[str, bool]]:
    """A hit's snippet cut into (text, matched) pieces, for the page to mark the matches."""
    pieces, at = [], 0
    for start, end in hit.marks:
        pieces += [(hit.snippet[at:start], False), (hit.snippet[start:end], True)]
        at = end
    pieces.append((hit.snippet[at:], False))
    return [p for p in pieces if p[0]]


def pack(book: Project, as_of: int, task: str) -> PackPage:
    built = book.build_memory_pack(task, chapter=as_of + 1, record=False)
    budget = max(1, built.budget_tokens)
    return PackPage(
        pack=built,
        task=task,
        tasks=[(t, label(TASK, t)) for t in RECIPES],
        sections=[
            SectionRow(
                name=label(SECTION, s.name),
                tokens=s.tokens,
                share=round(100 * s.tokens / budget, 2),
                entries=s.items,
            )
            for s in built.sections
        ],
        used_share=round(100 * built.used_tokens / budget, 2),
        prompt=built.render("prompt"),
    )
