"""The relation graph page (and the wiki's): which entities and relations to draw as of a chapter,
where, and in which colour. The layout itself is `graph_layout`'s."""

from __future__ import annotations

from collections.abc import Sequence

from ..book.project import Project
from ..book.values import RelationEdge
from . import graph_layout
from .view_models import DrawnEdge, GraphPage, Node, RelationKind

RING_SHOWN = (24, 36)  # entities on the first and second ring of a centred graph
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


def relation_group(relation_type: str) -> RelationKind:
    for key, name, colour, words in RELATION_GROUPS:
        if any(word in relation_type for word in words):
            return key, name, colour
    return OTHER_GROUP


TOGETHER = 12  # people listed as sharing chapters with the centre


def graph(book: Project, as_of: int, center: str | None, hops: int, recent: int) -> GraphPage:
    """The relation graph as of a chapter: the best-connected entities, or the rings around
    one entity (the most recent relations first where there are too many to draw)."""
    focus = book.entity(center) if center else None
    if focus is not None and (focus.first_chapter is None or focus.first_chapter > as_of):
        focus = None  # not yet introduced as of this chapter
    if focus is not None:
        rings, parent, hidden = _rings(book, focus.id, as_of, hops)
        shown = {focus.id, *(n for ring in rings for n in ring)}
        points = graph_layout.radial(focus.id, rings, parent)
        edges = book.relation_graph(as_of, among=shown)
    else:
        ranked = book.best_connected(as_of, GRAPH_NODES + 1)
        hidden = max(0, len(ranked) - GRAPH_NODES)  # at least one more, when there are more
        shown = {entity_id for entity_id, _ in ranked[:GRAPH_NODES]}
        edges = book.relation_graph(as_of, among=shown)
        points = graph_layout.spring(sorted(shown), [(e.source, e.target) for e in edges])
    edges, merged = _one_line_per_pair(edges) if len(edges) > DENSE_EDGES else (edges, 0)
    width, height = GRAPH_SIZE
    canvas = graph_layout.to_canvas(points, width, height, 60)
    since = as_of - recent + 1
    radius = {n: NODE_RADIUS * (1.4 if focus is not None and n == focus.id else 1) for n in shown}
    drawn = _drawn(edges, canvas, radius, since)
    fresh = {n for e in edges if e.valid_from >= since for n in (e.source, e.target)}
    known = book.names(shown, as_of)
    nodes = [
        Node(
            id=node,
            name=known.get(node, node),
            type=book.entity(node).type,
            at=canvas[node],
            r=radius[node],
            center=focus is not None and node == focus.id,
            recent=node in fresh,
        )
        for node in sorted(shown)
    ]
    used = {d.group for d in drawn}
    return GraphPage(
        nodes=nodes,
        edges=drawn,
        width=width,
        height=height,
        focus=focus,
        focus_name=next((n.name for n in nodes if n.center), None),
        hops=hops,
        recent=recent,
        since=since,
        legend=[
            g for g in (*((k, n, c) for k, n, c, _ in RELATION_GROUPS), OTHER_GROUP) if g in used
        ],
        hidden=hidden,
        merged=merged,
        labels=len(edges) <= LABELLED_EDGES,
        choices=[n.name for n in nodes],
        # who shares chapters with the centre: shown apart, never drawn as a relation
        together=book.cooccurrence(focus.id, as_of, TOGETHER) if focus is not None else [],
    )


def _rings(
    book: Project, center: str, as_of: int, hops: int
) -> tuple[list[list[str]], dict[str, str], int]:
    """Entities 1..hops links from the centre, ring by ring, newest relations first; for each,
    the inner entity that links it; and how many were left off full rings."""
    rings: list[list[str]] = []
    parent: dict[str, str] = {}
    shown, frontier, hidden = {center}, [center], 0
    for depth in range(hops):
        newest_first = sorted(
            book.relation_graph(as_of, touching=frontier), key=lambda e: -e.valid_from
        )
        ring: list[str] = []
        for e in newest_first:
            for inner, other in ((e.source, e.target), (e.target, e.source)):
                if inner not in frontier or other in shown or other in ring:
                    continue
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
    return rings, parent, hidden


def _one_line_per_pair(edges: list[RelationEdge]) -> tuple[list[RelationEdge], int]:
    """A dense graph is a hairball otherwise: the newest relation of each pair, and how many
    were merged away."""
    newest: dict[frozenset[str], RelationEdge] = {}
    for e in sorted(edges, key=lambda e: e.valid_from):
        newest[frozenset((e.source, e.target))] = e
    return list(newest.values()), len(edges) - len(newest)


def _drawn(
    edges: list[RelationEdge],
    canvas: dict[str, graph_layout.Point],
    radius: dict[str, float],
    since: int,
) -> list[DrawnEdge]:
    """Each relation as a curve between its ends' circles, coloured by its kind."""
    drawn = []
    for e, bend in zip(edges, _bends(edges), strict=True):
        path, middle = graph_layout.curve(
            canvas[e.source], canvas[e.target], bend, radius[e.source], radius[e.target] + 3
        )
        drawn.append(
            DrawnEdge(
                edge=e,
                group=relation_group(e.type),
                recent=e.valid_from >= since,
                path=path,
                label_at=middle,
            )
        )
    return drawn


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
