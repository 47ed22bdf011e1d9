"""Where to draw the relation graph's nodes, computed on the server so the page needs no library
and no network, and the same graph always looks the same.

Centred on an entity the layout is radial: the centre, its neighbours on a ring, their
neighbours on an outer ring, each ring ordered so that neighbours sit near what links them. The
whole cast uses a small spring layout (Fruchterman–Reingold) from a deterministic start, with
its work bounded so a page stays fast whatever the cast.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

Point = tuple[float, float]
WORK_LIMIT = 250_000  # node pairs × iterations: about 100 ms of Python


def _angle_seed(node: str) -> float:
    digest = hashlib.blake2b(node.encode("utf-8"), digest_size=4).digest()
    return int.from_bytes(digest, "big") / 2**32 * 2 * math.pi


def radial(
    center: str,
    rings: Sequence[Sequence[str]],
    parent: dict[str, str],
    radius: float = 1.0,
) -> dict[str, Point]:
    """The centre at the origin and ring k at radius k / len(rings). The first ring is spread
    evenly; an outer node sits in the wedge of the inner node that links it (`parent`), so
    links do not cross the picture."""
    out: dict[str, Point] = {center: (0.0, 0.0)}
    angle: dict[str, float] = {}
    wedge = 2 * math.pi
    for depth, ring in enumerate(rings, start=1):
        r = radius * depth / max(1, len(rings))
        if depth == 1:
            for i, node in enumerate(ring):
                angle[node] = 2 * math.pi * i / max(1, len(ring)) - math.pi / 2
            wedge = 2 * math.pi / max(1, len(ring))
        else:
            children: dict[str, list[str]] = {}
            for node in ring:
                children.setdefault(parent[node], []).append(node)
            for inner, kids in children.items():
                for i, node in enumerate(kids):
                    angle[node] = angle[inner] + wedge * ((i + 0.5) / len(kids) - 0.5) * 0.9
            wedge = wedge / max(1, max(len(k) for k in children.values()))
        for node in ring:
            out[node] = (r * math.cos(angle[node]), r * math.sin(angle[node]))
    return out


def spring(nodes: Sequence[str], edges: Iterable[tuple[str, str]]) -> dict[str, Point]:
    """A force layout of `nodes` in about the unit disc. The same graph (moving the slider
    across chapters that changed no relation) is laid out once."""
    return dict(_spring(tuple(nodes), tuple(sorted(set(edges)))))


@lru_cache(maxsize=64)
def _spring(
    nodes: tuple[str, ...], edges: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, Point], ...]:
    n = len(nodes)
    if n == 0:
        return ()
    if n == 1:
        return ((nodes[0], (0.0, 0.0)),)
    index = {node: i for i, node in enumerate(nodes)}
    links = {(index[a], index[b]) for a, b in edges if a in index and b in index and a != b}
    xs = [math.cos(_angle_seed(node)) * (0.3 + 0.7 * i / n) for i, node in enumerate(nodes)]
    ys = [math.sin(_angle_seed(node)) * (0.3 + 0.7 * i / n) for i, node in enumerate(nodes)]
    k = math.sqrt(4.0 / n)  # the ideal distance for n nodes in an area of 4
    iterations = max(15, min(150, WORK_LIMIT // (n * n)))
    heat = 0.2
    gravity = 0.5 if n < 20 else 0.12
    for _ in range(iterations):
        dx = [0.0] * n
        dy = [0.0] * n
        for i in range(n):
            xi, yi = xs[i], ys[i]
            for j in range(i + 1, n):
                ex, ey = xi - xs[j], yi - ys[j]
                d2 = ex * ex + ey * ey or 1e-6
                push = k * k / d2
                dx[i] += ex * push
                dy[i] += ey * push
                dx[j] -= ex * push
                dy[j] -= ey * push
        for i, j in links:
            ex, ey = xs[i] - xs[j], ys[i] - ys[j]
            d = math.sqrt(ex * ex + ey * ey) or 1e-3
            pull = d / k
            dx[i] -= ex * pull
            dy[i] -= ey * pull
            dx[j] += ex * pull
            dy[j] += ey * pull
        for i in range(n):
            # a weak pull to the middle keeps separate groups on the page; weaker for a big
            # cast, whose own springs hold it together
            dx[i] -= xs[i] * gravity
            dy[i] -= ys[i] * gravity
            length = math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) or 1e-9
            step = min(length, heat)
            xs[i] += dx[i] / length * step
            ys[i] += dy[i] / length * step
        heat *= 0.96
    return tuple(_fit(dict(zip(nodes, zip(xs, ys, strict=True), strict=True))).items())


def _fit(points: dict[str, Point]) -> dict[str, Point]:
    """Scale into [-1, 1] on both axes, centred."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {node: ((x - cx) / span, (y - cy) / span) for node, (x, y) in points.items()}


def to_canvas(
    points: dict[str, Point], width: float, height: float, margin: float
) -> dict[str, Point]:
    """Unit coordinates to pixels inside a margin."""
    half_w, half_h = width / 2 - margin, height / 2 - margin
    return {
        node: (round(width / 2 + x * half_w, 1), round(height / 2 + y * half_h, 1))
        for node, (x, y) in points.items()
    }


def curve(
    start: Point, end: Point, bend: float, gap_start: float, gap_end: float
) -> tuple[str, Point]:
    """An SVG path from `start` to `end`, bowed sideways by `bend` pixels (so two relations
    between one pair do not overlap) and stopping `gap_*` short of the node circles; and the
    point halfway along it, for the label."""
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length  # the unit normal
    cx, cy = (x1 + x2) / 2 + nx * bend * 2, (y1 + y2) / 2 + ny * bend * 2

    def toward(px: float, py: float, qx: float, qy: float, by: float) -> Point:
        d = math.hypot(qx - px, qy - py) or 1.0
        return px + (qx - px) * by / d, py + (qy - py) * by / d

    sx, sy = toward(x1, y1, cx, cy, gap_start)
    ex, ey = toward(x2, y2, cx, cy, gap_end)
    middle = ((sx + 2 * cx + ex) / 4, (sy + 2 * cy + ey) / 4)  # the quadratic curve at t = 1/2
    path = f"M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}"
    return path, (round(middle[0], 1), round(middle[1], 1))
