"""What each dashboard page shows, as plain values for its template.

Everything is read through the facade as of chapter N, so a page shows what the book knew at N
and nothing later; the reader wiki is made from the same functions.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..labels import CONFLICT_KIND, FIELD, SECTION, SEVERITY, TASK, THREAD_KIND, label
from ..memory.budget_manager import RECIPES
from ..memory.rulebook import rule_for
from ..memory.schema import Entity, RelationEdge, Thread
from ..project import Project
from . import graph_layout

DUE_SOON = 5  # chapters: an open thread due within this many is in the "due" lane
CHART_BARS = 240  # a chart of 10,000 chapters shows bins, not bars
RECENT_COMMITS = 12
SETTLED_SHOWN = 30
TIMELINE_PAGE = 200
GRAPH_NODES = 60  # the whole-cast graph shows the best-connected entities
GRAPH_SIZE = (960.0, 640.0)
NODE_RADIUS = 16.0

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
    entities = book.entities(as_of)
    open_threads = book.threads("open", as_of)
    overdue = [t for t in open_threads if t.overdue]
    conflicts = book.conflicts(as_of=as_of)
    chapters = [c for c in book.chapters() if c["chapter"] <= as_of]
    words = sum(c["word_count"] or 0 for c in chapters)
    return {
        "counts": [
            ("已提交章节", len(chapters)),
            ("总字数", words),
            ("实体", len(entities)),
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
        "names": _names(entities),
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


def characters(book: Project, as_of: int) -> dict[str, Any]:
    cards = []
    for entity in book.entities(as_of, "角色"):
        facts = book.facts(entity.id, as_of)
        cards.append(
            {
                "entity": entity,
                "facts": [(label(FIELD, f.field), show(f.value), f.valid_from) for f in facts],
                "dead_since": death(book, facts),
            }
        )
    others = [e for e in book.entities(as_of) if e.type != "角色"]
    return {"cards": cards, "others": others}


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
    entities = book.entities(as_of)
    names = _names(entities)
    edges = [e for e in book.relation_graph(as_of) if e.source in names and e.target in names]
    focus = book.entity(center) if center else None
    if focus is not None and focus.id not in names:
        focus = None  # not yet introduced as of this chapter
    if focus is not None:
        rings, parent = _rings(focus.id, edges, hops)
        shown = {focus.id, *(n for ring in rings for n in ring)}
        points = graph_layout.radial(focus.id, rings, parent)
    else:
        degree: dict[str, int] = {}
        for e in edges:
            degree[e.source] = degree.get(e.source, 0) + 1
            degree[e.target] = degree.get(e.target, 0) + 1
        ranked = sorted(degree, key=lambda n: (-degree[n], n))[:GRAPH_NODES]
        shown = set(ranked)
        points = graph_layout.spring(
            sorted(shown), [(e.source, e.target) for e in edges if e.source in shown]
        )
    width, height = GRAPH_SIZE
    canvas = graph_layout.to_canvas(points, width, height, 60)
    since = as_of - recent + 1
    visible = [e for e in edges if e.source in shown and e.target in shown]
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
    kinds = {e.id: e.type for e in entities}
    nodes = [
        {
            "id": node,
            "name": names[node],
            "type": kinds[node],
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
        "hops": hops,
        "recent": recent,
        "since": since,
        "legend": [
            g for g in (*((k, n, c) for k, n, c, _ in RELATION_GROUPS), OTHER_GROUP) if g in used
        ],
        "hidden": 0
        if focus is not None
        else max(0, len({n for e in edges for n in (e.source, e.target)}) - len(shown)),
        "entities": entities,
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


def _rings(
    center: str, edges: Sequence[RelationEdge], hops: int
) -> tuple[list[list[str]], dict[str, str]]:
    """Entities 1..hops links away from the centre, ring by ring (breadth first), and for each
    the inner entity that links it."""
    around: dict[str, set[str]] = {}
    for e in edges:
        around.setdefault(e.source, set()).add(e.target)
        around.setdefault(e.target, set()).add(e.source)
    depth = {center: 0}
    parent: dict[str, str] = {}
    queue = deque([center])
    rings: list[list[str]] = [[] for _ in range(hops)]
    while queue:
        node = queue.popleft()
        if depth[node] == hops:
            continue
        for other in sorted(around.get(node, ())):
            if other not in depth:
                depth[other] = depth[node] + 1
                parent[other] = node
                rings[depth[other] - 1].append(other)
                queue.append(other)
    return [ring for ring in rings if ring], parent


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


def threads_board(book: Project, as_of: int) -> dict[str, Any]:
    found = book.threads("all", as_of)
    lanes: dict[str, list[Thread]] = {key: [] for key, _ in LANES}
    for thread in found:
        lanes[lane_of(thread, as_of)].append(thread)
    hidden = {}
    for key in ("resolved", "abandoned"):
        lanes[key].sort(key=lambda t: -(t.resolved_chapter or t.last_chapter or 0))
        hidden[key] = max(0, len(lanes[key]) - SETTLED_SHOWN)
        lanes[key] = lanes[key][:SETTLED_SHOWN]
    axis = Axis(1, as_of)
    return {
        "lanes": [
            {
                "key": key,
                "name": name,
                "count": len(lanes[key]) + hidden.get(key, 0),
                "hidden": hidden.get(key, 0),
                "threads": [
                    {
                        "thread": t,
                        "kind": label(THREAD_KIND, t.kind),
                        **axis.bar(
                            t.planted_chapter or 1,
                            min(as_of, t.resolved_chapter or t.due_chapter or as_of),
                        ),
                    }
                    for t in lanes[key]
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
    events = book.timeline(end=end, entity=entity.id if entity else None, as_of=as_of)
    shown = events[-TIMELINE_PAGE:]
    names = _names(book.entities(as_of))
    return {
        "events": [
            {"event": e, "who": [names[p] for p in e.participants if p in names]} for e in shown
        ],
        "earlier": shown[0].chapter if len(events) > len(shown) and shown else None,
        "entity": entity,
        "entities": book.entities(as_of),
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
