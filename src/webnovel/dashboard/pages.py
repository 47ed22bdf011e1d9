"""What each dashboard page shows, as plain values for its template.

Everything is read through the facade as of chapter N, so a page shows what the book knew at N
and nothing later; the reader wiki is made from the same functions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..labels import CONFLICT_KIND, FIELD, SECTION, SEVERITY, TASK, THREAD_KIND, label
from ..memory.packs.budget_manager import RECIPES
from ..memory.schema import Entity, RelationEdge, Thread
from ..memory.write.rulebook import rule_for
from ..project import Project
from . import graph_layout

DUE_SOON = 5  # chapters: an open thread due within this many is in the "due" lane
CHART_BARS = 240  # a chart of 10,000 chapters shows bins, not bars
RECENT_COMMITS = 12
SETTLED_SHOWN = 30
LANE_SHOWN = 20  # cards a lane shows on the board
LANE_OPENED = 400  # cards an opened lane shows
CARDS_PER_PAGE = 48
TIER_ORDER = {"主角": 0, "核心": 1, "重要": 2, "反派": 2, "次要": 3, "配角": 3, "装饰": 5}
RING_SHOWN = (24, 36)  # entities on the first and second ring of a centred graph
TIMELINE_PAGE = 200
GRAPH_NODES = 60  # the whole-cast graph shows the best-connected entities
GRAPH_SIZE = (960.0, 640.0)
NODE_RADIUS = 16.0
DENSE_EDGES = 120  # past this, one line per pair of entities
LABELLED_EDGES = 80  # past this, an edge's type shows on hover only

# Relation types by kind, for the graph's colours: the first group whose word the type holds.
RELATION_GROUPS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("hostile", "敌对", "#c8372d", ("敌", "仇", "对手", "追杀", "背叛", "杀")),
    ("mentor", "师门", "#3b6fd8", ("师", "徒", "同门")),
    ("love", "情感", "#d6457a", ("恋", "情", "爱", "夫", "妻", "婚", "倾心")),
    ("kin", "亲缘", "#b7791f", ("父", "母", "子", "女", "兄", "弟", "姐", "妹", "亲", "叔", "养")),
    ("ally", "友好", "#2f9e5b", ("友", "盟", "识", "伴", "恩", "效忠", "属")),
)
OTHER_GROUP = ("other", "其他", "#7a7a7a")


def relation_group(relation_type: str) -> tuple[str, str, str]:
    for key, name, colour, words in RELATION_GROUPS:
        if any(word in relation_type for word in words):
            return key, name, colour
    return OTHER_GROUP


def show(value: Any) -> str:
    """A stored value as an author reads it."""
    if value is None:
        return "（无）"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "、".join(show(v) for v in value) or "（空）"
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Axis:
    """Chapters `start`..`end` on a horizontal axis, in percent."""

    start: int
    end: int

    def at(self, chapter: int) -> float:
        span = max(1, self.end - self.start + 1)
        return round(100 * (min(max(chapter, self.start), self.end + 1) - self.start) / span, 2)

    def bar(self, first: int, last: int | None) -> dict[str, float]:
        left = self.at(first)
        right = self.at((last if last is not None else self.end) + 1)
        return {"left": left, "width": max(0.6, round(right - left, 2))}


def binned(
    values: Sequence[tuple[int, float | None]], bars: int, pick: str, axis: Axis
) -> list[dict]:
    """(chapter, value) pairs as at most `bars` bars placed on a chapter axis: each bin's max,
    last or mean. Chapters with no value leave a gap."""
    present = [(c, v) for c, v in values if v is not None]
    if not present:
        return []
    size = max(1, -(-len(present) // bars))
    out: list[dict[str, Any]] = []
    for start in range(0, len(present), size):
        part = present[start : start + size]
        numbers = [float(v) for _, v in part]
        value = {
            "max": max(numbers),
            "last": numbers[-1],
            "mean": sum(numbers) / len(numbers),
        }[pick]
        span = axis.bar(part[0][0], part[-1][0])
        out.append(
            {"from": part[0][0], "to": part[-1][0], "value": value, "x": span["left"]}
            | {"w": span["width"]}
        )
    top = max(bar["value"] for bar in out)
    for bar in out:
        bar["height"] = round(100 * bar["value"] / top, 2) if top else 0.0
    return out


# -- overview ------------------------------------------------------------------------------------


def overview(book: Project, as_of: int) -> dict[str, Any]:
    costs = book.chapter_costs(as_of)
    axis = Axis(1, as_of)
    log = book.commit_log(RECENT_COMMITS, as_of)
    progress = book.progress(as_of)
    open_threads = book.threads("open", as_of)
    overdue = [t for t in open_threads if t.overdue]
    conflicts = book.conflicts(as_of=as_of)
    return {
        "counts": [
            ("已提交章节", progress["chapters"]),
            ("总字数", progress["words"]),
            ("实体", progress["entities"]),
            ("未回收线索", len(open_threads)),
            ("逾期线索", len(overdue)),
            ("未决矛盾", len(conflicts)),
        ],
        "commits": [
            {
                "entry": entry,
                "changes": [
                    (name, getattr(entry.counts, key))
                    for key, name in (
                        ("added", "新增"),
                        ("superseded", "取代"),
                        ("contradicted", "推翻"),
                        ("tentative", "待定"),
                    )
                ]
                if entry.counts
                else [],
            }
            for entry in log
        ],
        "conflicts": conflicts[:8],
        "overdue": overdue[:8],
        "charts": [
            {
                "title": "提交耗时（毫秒）",
                "bars": binned(
                    [(c["chapter"], c["elapsed_ms"]) for c in costs], CHART_BARS, "max", axis
                ),
                "unit": "ms",
            },
            {
                "title": "记忆库大小（index.db，KB）",
                "bars": binned(
                    [
                        (c["chapter"], c["index_bytes"] / 1024 if c["index_bytes"] else None)
                        for c in costs
                    ],
                    CHART_BARS,
                    "last",
                    axis,
                ),
                "unit": "KB",
            },
            {
                "title": "记忆包用量（token）",
                "bars": binned(
                    [(c["chapter"], c["pack_tokens"]) for c in costs], CHART_BARS, "mean", axis
                ),
                "unit": "token",
            },
        ],
        "sizes": book.stats()["sizes_bytes"],
    }


def _names(entities: Sequence[Entity]) -> dict[str, str]:
    return {e.id: e.name for e in entities}


# -- characters ----------------------------------------------------------------------------------


def death(book: Project, facts: Sequence[Any]) -> int | None:
    for item in facts:
        if (
            item.field == "status"
            and isinstance(item.value, str)
            and book.config.is_dead(item.value)
        ):
            return int(item.valid_from)
    return None


def characters(book: Project, as_of: int, page: int = 1) -> dict[str, Any]:
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
        {
            "entity": entity,
            "facts": [
                (label(FIELD, f.field), show(f.value), f.valid_from) for f in states[entity.id]
            ],
            "dead_since": death(book, states[entity.id]),
        }
        for entity in shown
    ]
    others = [e for e in everyone if e.type != "角色"]
    return {
        "cards": cards,
        "others": others,
        "page": page,
        "pages": pages_count,
        "total": len(cast),
    }


def character(book: Project, entity: Entity, as_of: int) -> dict[str, Any]:
    facts = book.facts(entity.id, as_of)
    history = book.history(entity.id, as_of=as_of)
    names = _names(book.entities(as_of))
    axis = Axis(entity.first_chapter or 1, as_of)
    rows: dict[str, list[dict[str, Any]]] = {}
    for item in history:
        rows.setdefault(item.field, []).append(
            {
                "value": show(item.value),
                "from": item.valid_from,
                "to": item.valid_to,
                "status": item.status,
                **axis.bar(item.valid_from, None if item.valid_to is None else item.valid_to - 1),
            }
        )
    seen = book.appearances(entity.id, as_of)
    relations = [
        {
            "edge": edge,
            "other": names.get(edge.target if edge.source == entity.id else edge.source, "?"),
            "outgoing": edge.source == entity.id,
            "group": relation_group(edge.type),
        }
        for edge in book.relations(entity.id, as_of)
    ]
    return {
        "entity": entity,
        "facts": [(label(FIELD, f.field), show(f.value), f.valid_from) for f in facts],
        "dead_since": death(book, facts),
        "axis": axis,
        "history": [(label(FIELD, field), bars) for field, bars in rows.items()],
        "appearances": {
            "count": len(seen),
            "ticks": _ticks(axis, seen),
            "last": seen[-1] if seen else None,
        },
        "relations": relations,
        "knows": book.knows(entity.id, as_of),
    }


def _ticks(axis: Axis, chapters: Sequence[int], most: int = 400) -> list[float]:
    """Where to mark chapters on an axis; a long book's marks are merged by position."""
    return sorted({round(axis.at(c) * most / 100) * 100 / most for c in chapters})


# -- relation graph ------------------------------------------------------------------------------


def graph(book: Project, as_of: int, center: str | None, hops: int, recent: int) -> dict[str, Any]:
    """The relation graph as of a chapter: the best-connected entities, or the rings around
    one entity (the most recent relations first where there are too many to draw)."""
    focus = book.entity(center) if center else None
    if focus is not None and (focus.first_chapter is None or focus.first_chapter > as_of):
        focus = None  # not yet introduced as of this chapter
    hidden = 0
    if focus is not None:
        rings: list[list[str]] = []
        parent: dict[str, str] = {}
        shown = {focus.id}
        frontier = [focus.id]
        for depth in range(hops):
            newest_first = sorted(
                book.relation_graph(as_of, touching=frontier), key=lambda e: -e.valid_from
            )
            ring: list[str] = []
            for e in newest_first:
                for inner, other in ((e.source, e.target), (e.target, e.source)):
                    if inner in frontier and other not in shown and other not in ring:
                        if len(ring) < RING_SHOWN[min(depth, 1)]:
                            ring.append(other)
                            parent[other] = inner
                        else:
                            hidden += 1
            if not ring:
                break
            ring.sort(key=lambda n: (frontier.index(parent[n]), n))
            rings.append(ring)
            shown.update(ring)
            frontier = ring
        points = graph_layout.radial(focus.id, rings, parent)
    else:
        ranked = book.best_connected(as_of, GRAPH_NODES + 1)
        hidden = max(0, len(ranked) - GRAPH_NODES)  # at least one more, when there are more
        shown = {entity_id for entity_id, _ in ranked[:GRAPH_NODES]}
    edges = book.relation_graph(as_of, among=shown)
    if focus is None:
        points = graph_layout.spring(sorted(shown), [(e.source, e.target) for e in edges])
    width, height = GRAPH_SIZE
    canvas = graph_layout.to_canvas(points, width, height, 60)
    since = as_of - recent + 1
    visible = [e for e in edges if e.source in shown and e.target in shown]
    merged = 0
    if len(visible) > DENSE_EDGES:  # a hairball otherwise: one line per pair, the newest
        newest: dict[frozenset[str], RelationEdge] = {}
        for e in sorted(visible, key=lambda e: e.valid_from):
            newest[frozenset((e.source, e.target))] = e
        merged = len(visible) - len(newest)
        visible = list(newest.values())
    fresh = {n for e in visible if e.valid_from >= since for n in (e.source, e.target)}
    radius = {n: NODE_RADIUS * (1.4 if focus is not None and n == focus.id else 1) for n in shown}
    drawn = []
    for e, bend in zip(visible, _bends(visible), strict=True):
        path, middle = graph_layout.curve(
            canvas[e.source], canvas[e.target], bend, radius[e.source], radius[e.target] + 3
        )
        drawn.append(
            {
                "edge": e,
                "group": relation_group(e.type),
                "recent": e.valid_from >= since,
                "path": path,
                "label_at": middle,
            }
        )
    known = book.names(shown, as_of)
    nodes = [
        {
            "id": node,
            "name": known.get(node, node),
            "type": book.entity(node).type,
            "at": canvas[node],
            "r": radius[node],
            "center": focus is not None and node == focus.id,
            "recent": node in fresh,
        }
        for node in sorted(shown)
    ]
    used = {d["group"] for d in drawn}
    return {
        "nodes": nodes,
        "edges": drawn,
        "width": width,
        "height": height,
        "focus": focus,
        "focus_name": next((n["name"] for n in nodes if n["center"]), None),
        "hops": hops,
        "recent": recent,
        "since": since,
        "legend": [
            g for g in (*((k, n, c) for k, n, c, _ in RELATION_GROUPS), OTHER_GROUP) if g in used
        ],
        "hidden": hidden,
        "merged": merged,
        "labels": len(visible) <= LABELLED_EDGES,
        "choices": [n["name"] for n in nodes],
    }


def _bends(edges: Sequence[RelationEdge]) -> list[float]:
    """How far to bow each edge: relations between the same two entities fan out (a bow is to
    the left of the edge's own direction, so A→B and B→A part by themselves); a lone relation
    is straight."""
    pairs: dict[frozenset[str], int] = {}
    for e in edges:
        pair = frozenset((e.source, e.target))
        pairs[pair] = pairs.get(pair, 0) + 1
    seen: dict[tuple[str, str], int] = {}
    out = []
    for e in edges:
        k = seen.get((e.source, e.target), 0)
        seen[(e.source, e.target)] = k + 1
        out.append(0.0 if pairs[frozenset((e.source, e.target))] == 1 else 16.0 * (1 + k))
    return out


# -- threads -------------------------------------------------------------------------------------

LANES = (
    ("planted", "已埋设"),
    ("advanced", "推进中"),
    ("due", "临近到期"),
    ("overdue", "已逾期"),
    ("resolved", "已回收"),
    ("abandoned", "已放弃"),
)


def lane_of(thread: Thread, as_of: int) -> str:
    if thread.status in ("resolved", "abandoned"):
        return thread.status
    if thread.overdue:
        return "overdue"
    if thread.due_chapter is not None and thread.due_chapter - as_of <= DUE_SOON:
        return "due"
    if (thread.last_chapter or 0) > (thread.planted_chapter or 0):
        return "advanced"
    return "planted"


def threads_board(book: Project, as_of: int, opened: str | None = None) -> dict[str, Any]:
    """The board: each lane's most pressing threads; an `opened` lane shows many more of its
    own, and the others fold to their counts."""
    lanes: dict[str, list[Thread]] = {key: [] for key, _ in LANES}
    for thread in book.threads("open", as_of):
        lanes[lane_of(thread, as_of)].append(thread)
    lanes["resolved"] = book.threads("resolved", as_of)
    lanes["abandoned"] = book.threads("abandoned", as_of)
    # the most pressing first: overdue and due by due chapter, the rest newest first
    for key in ("due", "overdue"):
        lanes[key].sort(key=lambda t: (t.due_chapter or 0, -(t.urgency or 0)))
    for key in ("planted", "advanced", "resolved", "abandoned"):
        lanes[key].sort(key=lambda t: -(t.resolved_chapter or t.last_chapter or 0))
    axis = Axis(1, as_of)
    opened = opened if opened in lanes else None

    def shown(key: str) -> int:
        return LANE_OPENED if key == opened else 0 if opened else LANE_SHOWN

    return {
        "opened": opened,
        "lanes": [
            {
                "key": key,
                "name": name,
                "count": len(lanes[key]),
                "hidden": max(0, len(lanes[key]) - shown(key)),
                "threads": [
                    {
                        "thread": t,
                        "kind": label(THREAD_KIND, t.kind),
                        **axis.bar(
                            t.planted_chapter or 1,
                            min(as_of, t.resolved_chapter or t.due_chapter or as_of),
                        ),
                    }
                    for t in lanes[key][: shown(key)]
                ],
            }
            for key, name in LANES
        ],
    }


def thread(book: Project, thread_id: str, as_of: int) -> dict[str, Any] | None:
    steps = book.thread_history(thread_id, as_of)
    if not steps:
        return None
    names = _names(book.entities(as_of))
    return {
        "thread": steps[-1].thread,
        "kind": label(THREAD_KIND, steps[-1].thread.kind),
        "lane": dict(LANES)[lane_of(steps[-1].thread, as_of)],
        "related": [names.get(r, r) for r in steps[-1].thread.related if r in names],
        "steps": [
            {
                "step": step,
                "evidence": [
                    {
                        "chapter": e.get("chapter"),
                        "quote": e.get("quote"),
                        "passage": book.passage(int(e["chapter"]), e.get("quote"))
                        if isinstance(e.get("chapter"), int) and e["chapter"] <= as_of
                        else None,
                    }
                    for e in step.evidence
                ],
            }
            for step in steps
        ],
    }


# -- timeline, conflicts, search, pack ----------------------------------------------------------


def timeline(
    book: Project, as_of: int, entity: Entity | None, before: int | None
) -> dict[str, Any]:
    end = min(as_of, before - 1) if before else as_of
    who = entity.id if entity else None
    shown = book.timeline(end=end, entity=who, as_of=as_of, limit=TIMELINE_PAGE + 1)
    more = len(shown) > TIMELINE_PAGE
    shown = shown[-TIMELINE_PAGE:]
    names = book.names({p for e in shown for p in e.participants}, as_of)
    return {
        "events": [
            {"event": e, "who": [names[p] for p in e.participants if p in names]} for e in shown
        ],
        "earlier": shown[0].chapter if more and shown else None,
        "entity": entity,
        "entity_name": book.names([entity.id], as_of).get(entity.id) if entity else None,
        "choices": sorted(set(names.values())),
    }


def conflicts(book: Project, as_of: int) -> dict[str, Any]:
    every = book.conflicts(include_settled=True, as_of=as_of)

    def card(c: Any) -> dict[str, Any]:
        memory = [e for e in c.evidence if int(e.get("chapter", 0)) < c.chapter]
        this = [e for e in c.evidence if int(e.get("chapter", 0)) >= c.chapter]
        return {
            "conflict": c,
            "kind": label(CONFLICT_KIND, c.kind),
            "severity": rule_for(c.kind).severity,
            "severity_name": label(SEVERITY, rule_for(c.kind).severity),
            "hint": rule_for(c.kind).fix_hint,
            "memory": memory,
            "this": this,
        }

    return {
        "open": [card(c) for c in every if c.status == "open"],
        "settled": [card(c) for c in every if c.status != "open"][-SETTLED_SHOWN:],
    }


def search(book: Project, query: str, as_of: int) -> dict[str, Any]:
    hits = book.search(query, top_k=20, as_of=as_of) if query.strip() else []
    return {"query": query, "hits": hits}


def pack(book: Project, as_of: int, task: str) -> dict[str, Any]:
    built = book.build_memory_pack(task, chapter=as_of + 1, record=False)
    budget = max(1, built.budget_tokens)
    return {
        "pack": built,
        "task": task,
        "tasks": [(t, label(TASK, t)) for t in RECIPES],
        "sections": [
            {
                "name": label(SECTION, s.name),
                "tokens": s.tokens,
                "share": round(100 * s.tokens / budget, 2),
                "entries": s.items,
            }
            for s in built.sections
        ],
        "used_share": round(100 * built.used_tokens / budget, 2),
        "prompt": built.render("prompt"),
    }
