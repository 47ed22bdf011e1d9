"""The relation graph page (and the wiki's): which entities and relations to draw as of a chapter,
where, and in which colour. The layout itself is `graph_layout`'s."""

from __future__ import annotations

from collections.abc import Sequence

from ..book.project import Project
from ..book.values import Entity, RelationEdge
from ..messages import say
from . import graph_factions, graph_labels, graph_layout
from .view_models import DrawnEdge, GraphFonts, GraphPage, Node, RelationKind

RING_SHOWN = (24, 36)  # entities on the first and second ring of a centred graph
GRAPH_NODES = 60  # the whole-cast graph shows the best-connected entities
NODE_RADIUS = 12.0
# One place of a group's honeycomb: a circle and a name of four characters under it, clear of
# its neighbours' circles and names. Seven places across are 448 pixels, which a phone's 364
# shows at 0.8: names at 11 px.
CELL = (64.0, 52.0)
COLUMNS = 7
_NAME_LINE = graph_labels.NODE_FONT * (graph_labels.ASCENT + graph_labels.DESCENT)
_TITLE_LINE = graph_labels.TITLE_FONT * (graph_labels.ASCENT + graph_labels.DESCENT)
# a group's frame round its honeycomb: its name above the top row, the bottom row's names
FRAME_MARGINS = (
    NODE_RADIUS + 6 + _TITLE_LINE,
    NODE_RADIUS + graph_labels.GAP + _NAME_LINE + 6,
    CELL[0] / 2,
)
FONTS = GraphFonts(
    node=graph_labels.NODE_FONT, edge=graph_labels.EDGE_FONT, title=graph_labels.TITLE_FONT
)
DENSE_EDGES = 120  # past this, one line per pair of entities
LABELLED_EDGES = 80  # past this, an edge's type shows on hover only

# Relation types by kind, for the graph's colours: the first group whose word the type holds
# (the words are a book's own, Chinese relation types; a group's name is the catalogue's,
# `graph_group_<key>`, said when a page is drawn).
RELATION_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("hostile", "#c8372d", ("敌", "仇", "对手", "追杀", "背叛", "杀")),
    ("mentor", "#3b6fd8", ("师", "徒", "同门")),
    ("love", "#d6457a", ("恋", "情", "爱", "夫", "妻", "婚", "倾心")),
    ("kin", "#b7791f", ("父", "母", "子", "女", "兄", "弟", "姐", "妹", "亲", "叔", "养")),
    ("ally", "#2f9e5b", ("友", "盟", "识", "伴", "恩", "效忠", "属")),
)
OTHER_GROUP = ("other", "#7a7a7a")


def relation_group(relation_type: str) -> RelationKind:
    for key, colour, words in RELATION_GROUPS:
        if any(word in relation_type for word in words):
            return _kind(key, colour)
    return _kind(*OTHER_GROUP)


def _kind(key: str, colour: str) -> RelationKind:
    return key, say(f"graph_group_{key}"), colour


TOGETHER = 12  # people listed as sharing chapters with the centre
MARGIN = 8.0  # around what is drawn
SCREEN_SCALE = 1.5  # on a wide screen the graph grows at most this much over its own pixels


def graph(book: Project, as_of: int, center: str | None, hops: int, recent: int) -> GraphPage:
    """The relation graph as of a chapter: the best-connected entities grouped by faction, or
    the rings around one entity (the most recent relations first where there are too many to
    draw)."""
    focus = book.entity(center) if center else None
    if focus is not None and (focus.first_chapter is None or focus.first_chapter > as_of):
        focus = None  # not yet introduced as of this chapter
    rings, parent, shown, hidden = _chosen(book, focus, as_of, hops)
    if not (rings if focus is not None else shown):
        return _nothing_drawn(book, focus, as_of, hops, recent)
    edges = book.relation_graph(as_of, among=shown)
    known = book.names(shown, as_of)
    types = {node: book.entity(node).type for node in shown}
    sides = graph_factions.factions(book, shown, types, as_of)
    degree = _degree(shown, edges)
    # who gets the middle of a group, and the best place for a name: a group's own faction
    # entity, then the best connected
    first = sorted(shown, key=lambda n: (sides.get(n) != n, -degree[n], n))
    radius = {n: NODE_RADIUS * (1.4 if focus is not None and n == focus.id else 1) for n in shown}
    if focus is not None:
        first.sort(key=lambda n: n != focus.id)
    points, frames = _positions(focus, rings, parent, first, sides, edges)
    names = {n: known.get(n, n) for n in shown}
    faction_names = graph_factions.names(book, {*sides.values(), *(f.key for f in frames)}, as_of)
    board, titles = graph_factions.titled_board(points, radius, frames, faction_names)
    labels = graph_labels.place_names(board, [(n, names[n], points[n], radius[n]) for n in first])
    left, top, right, bottom = board.extent()
    dx, dy = round(MARGIN - left, 1), round(MARGIN - top, 1)  # so rounded places stay exact
    width, height = round(right - left + 2 * MARGIN, 1), round(bottom - top + 2 * MARGIN, 1)
    canvas = {n: (round(x + dx, 1), round(y + dy, 1)) for n, (x, y) in points.items()}
    board = board.moved(dx, dy)
    edges, merged = _one_line_per_pair(edges) if len(edges) > DENSE_EDGES else (edges, 0)
    since = as_of - recent + 1
    labelled = len(edges) <= LABELLED_EDGES
    drawn = _drawn(edges, canvas, radius, since, board if labelled else None, (width, height))
    fresh = {n for e in edges if e.valid_from >= since for n in (e.source, e.target)}
    nodes = [
        Node(
            id=node,
            name=names[node],
            type=types[node],
            at=canvas[node],
            r=radius[node],
            center=focus is not None and node == focus.id,
            recent=node in fresh,
            label=labels[node].moved(dx, dy),
            faction=faction_names[sides[node]] if node in sides else None,
        )
        for node in sorted(shown)
    ]
    used = {d.group for d in drawn}
    return GraphPage(
        nodes=nodes,
        edges=drawn,
        width=width,
        height=height,
        shown_width=round(width * SCREEN_SCALE),
        groups=[t.moved(dx, dy) for t in titles],
        focus=focus,
        focus_name=next((n.name for n in nodes if n.center), None),
        hops=hops,
        recent=recent,
        since=since,
        legend=[
            g
            for g in (*(_kind(k, c) for k, c, _ in RELATION_GROUPS), _kind(*OTHER_GROUP))
            if g in used
        ],
        hidden=hidden,
        merged=merged,
        labels=labelled,
        fonts=FONTS,
        choices=[n.name for n in nodes],
        # who shares chapters with the centre: shown apart, never drawn as a relation
        together=book.cooccurrence(focus.id, as_of, TOGETHER) if focus is not None else [],
    )


def _chosen(
    book: Project, focus: Entity | None, as_of: int, hops: int
) -> tuple[list[list[str]], dict[str, str], set[str], int]:
    """Who is drawn: the rings around the centre (each node's parent on the way out), or the
    best-connected entities; and how many more there were than the page draws."""
    if focus is not None:
        rings, parent, hidden = _rings(book, focus.id, as_of, hops)
        return rings, parent, {focus.id, *(n for ring in rings for n in ring)}, hidden
    ranked = book.best_connected(as_of, GRAPH_NODES + 1)
    hidden = max(0, len(ranked) - GRAPH_NODES)  # at least one more, when there are more
    return [], {}, {entity_id for entity_id, _ in ranked[:GRAPH_NODES]}, hidden


def _nothing_drawn(
    book: Project, focus: Entity | None, as_of: int, hops: int, recent: int
) -> GraphPage:
    """No relation holds yet (an imported book before extraction, or a centre linked to no
    one): the page says so instead of drawing; who shares chapters with the centre is still
    listed."""
    focus_name = book.names({focus.id}, as_of).get(focus.id, focus.name) if focus else None
    return GraphPage(
        nodes=[],
        edges=[],
        width=0.0,
        height=0.0,
        shown_width=0,
        groups=[],
        focus=focus,
        focus_name=focus_name,
        hops=hops,
        recent=recent,
        since=as_of - recent + 1,
        legend=[],
        hidden=0,
        merged=0,
        labels=True,
        fonts=FONTS,
        choices=[],
        together=book.cooccurrence(focus.id, as_of, TOGETHER) if focus is not None else [],
    )


def _degree(shown: set[str], edges: list[RelationEdge]) -> dict[str, int]:
    """How many of the drawn relations each node takes part in."""
    degree = dict.fromkeys(shown, 0)
    for e in edges:
        degree[e.source] += 1
        degree[e.target] += 1
    return degree


def _positions(
    focus: Entity | None,
    rings: list[list[str]],
    parent: dict[str, str],
    first: list[str],
    sides: dict[str, str],
    edges: list[RelationEdge],
) -> tuple[dict[str, graph_layout.Point], list[graph_layout.Frame]]:
    """Where each node goes: rings round the centre (a honeycomb round it when the rings are
    wider than a phone shows readably), or the whole cast in framed faction groups."""
    frames: list[graph_layout.Frame] = []
    if focus is not None:
        rings[0].sort(key=lambda n: (sides.get(n) or "\uffff", n))  # a faction side by side
        points = graph_layout.radial(focus.id, rings, parent, CELL[0])
        if max(abs(x) for x, _ in points.values()) > COLUMNS * CELL[0] / 2:
            points = graph_layout.radial_honeycomb(focus.id, rings, parent, CELL, COLUMNS)
    else:
        groups: dict[str, list[str]] = {}
        for node in first:
            groups.setdefault(sides.get(node) or "", []).append(node)
        points, frames = graph_layout.clustered(
            sorted(groups.items()),
            [(e.source, e.target) for e in edges],
            CELL,
            FRAME_MARGINS,
            COLUMNS,
        )
    return {n: (round(x, 1), round(y, 1)) for n, (x, y) in points.items()}, frames


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
    board: graph_labels.Board | None,
    size: tuple[float, float],
) -> list[DrawnEdge]:
    """Each relation as a curve between its ends' circles, coloured by its kind; its name at
    its middle where that covers no circle and no other text (`board`; None: no names)."""
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
                labelled=board is not None and board.place_edge_label(e.type, middle, size),
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
