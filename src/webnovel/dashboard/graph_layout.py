"""Where to draw the relation graph's nodes, computed on the server so the page needs no library
and no network, and the same graph always looks the same.

Centred on an entity the layout is radial: the centre, its neighbours on a ring, their
neighbours on an outer ring, each ring ordered so that neighbours sit near what links them and
wide enough that no two crowd. The whole cast is drawn by groups (its factions): each group on a
honeycomb, so no two circles or names collide however big the cast, where a small spring layout
(Fruchterman–Reingold, from a deterministic start, its work bounded) of the group puts them; the
groups packed in rows about as wide as a phone can show readably. Positions are in pixels.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float]
WORK_LIMIT = 60_000  # node pairs × iterations: about 25 ms of Python (a group only needs
# where its members roughly go: they are then set on a honeycomb)


def _angle_seed(node: str) -> float:
    digest = hashlib.blake2b(node.encode("utf-8"), digest_size=4).digest()
    return int.from_bytes(digest, "big") / 2**32 * 2 * math.pi


def radial(
    center: str,
    rings: Sequence[Sequence[str]],
    parent: dict[str, str],
    spacing: float,
) -> dict[str, Point]:
    """The centre at the origin and each ring around it, in pixels. The first ring is spread
    evenly; an outer node sits in the wedge of the inner node that links it (`parent`), so
    links do not cross the picture. A ring is wide enough, and its nodes far enough apart, that
    no two are nearer than `spacing` (a node's circle and its name fit in that)."""
    out: dict[str, Point] = {center: (0.0, 0.0)}
    angle: dict[str, float] = {}
    wedge = 2 * math.pi
    radius = 0.0
    for depth, ring in enumerate(rings, start=1):
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
        around = spacing / (2 * math.sin(math.pi / len(ring))) if len(ring) > 1 else 0.0
        radius = max(radius + RING_GAP * spacing, around)  # room for relation names
        _spread(ring, angle, 2 * math.asin(min(1.0, spacing / (2 * radius))))
        for node in ring:
            out[node] = (radius * math.cos(angle[node]), radius * math.sin(angle[node]))
    return out


def _spread(ring: Sequence[str], angle: dict[str, float], gap: float) -> None:
    """Move the ring's angles apart until neighbours are at least `gap` apart, keeping their
    order round the ring and staying near where they were."""
    order = sorted(ring, key=lambda n: (angle[n], n))
    n = len(order)
    if n < 2:
        return
    if n * gap >= 2 * math.pi - 1e-9:  # a full ring: evenly, from where the first was
        for i, node in enumerate(order):
            angle[node] = angle[order[0]] + 2 * math.pi * i / n
        return
    a = [angle[node] for node in order]
    for _ in range(60):  # neighbours (the last and the first too) push each other apart
        moved = False
        for i in range(n):
            j = (i + 1) % n
            ahead = a[j] + (2 * math.pi if j == 0 else 0.0)
            short = gap - (ahead - a[i])
            if short > 1e-9:
                a[i] -= short / 2 + 1e-9
                a[j] += short / 2 + 1e-9
                moved = True
        if not moved:
            break
    for i in range(1, n):  # what pushing left undone: a sweep that cannot fail ...
        a[i] = max(a[i], a[i - 1] + gap)
    if a[0] + 2 * math.pi - a[-1] < gap:  # ... unless it closed the ring: then evenly
        a = [a[0] + 2 * math.pi * i / n for i in range(n)]
    for node, value in zip(order, a, strict=True):
        angle[node] = value


def radial_honeycomb(
    center: str,
    rings: Sequence[Sequence[str]],
    parent: dict[str, str],
    cell: tuple[float, float],
    columns: int,
) -> dict[str, Point]:
    """The rings of `radial` on a honeycomb, for a centre with too many neighbours for a ring
    a phone can show: the centre in the middle place, the first ring on the places nearest it
    in the ring's order round the centre, each outer node on the free place nearest the node
    that links it. No two circles crowd, and the picture stays `columns` places wide."""
    count = 1 + sum(len(ring) for ring in rings)
    slots = list(_honeycomb(count, cell, columns))
    out: dict[str, Point] = {center: slots.pop(0)}
    for depth, ring in enumerate(rings):
        if depth == 0:
            nearest = sorted(slots[: len(ring)], key=lambda p: (math.atan2(p[0], -p[1]), p))
            out.update(zip(ring, nearest, strict=True))
            del slots[: len(ring)]
            continue
        for node in ring:
            px, py = out[parent[node]]
            best = min(
                range(len(slots)),
                key=lambda k: ((slots[k][0] - px) ** 2 + (slots[k][1] - py) ** 2, k),
            )
            out[node] = slots.pop(best)
    return out


@dataclass(frozen=True, slots=True)
class Frame:
    """The box a group (a faction) is drawn in, its name at its top."""

    key: str
    x: float
    y: float
    w: float
    h: float


def clustered(
    groups: Sequence[tuple[str, Sequence[str]]],
    edges: Iterable[tuple[str, str]],
    cell: tuple[float, float],
    margins: tuple[float, float, float],
    columns: int,
) -> tuple[dict[str, Point], list[Frame]]:
    """Each group (key, members most important first) on a honeycomb of `cell`-sized places
    (a circle and its name fit in one), no wider than `columns` places, its most important
    member in the middle and the others where a small spring layout of the group puts them, so
    that who is linked sits together; the groups packed in rows about `columns` places wide,
    the biggest first. `margins` (top, bottom, sides) leave room in a group's frame for its
    name and its lowest row's names. Pixels, the top left at (0, 0)."""
    links = sorted(set(edges))
    top, bottom, side = margins
    blobs = []
    for key, members in groups:
        # about as tall as wide; small groups narrow enough that two share a row
        across = max(1, min(columns, round(math.sqrt(len(members) * 0.8))))
        slots = _honeycomb(len(members), cell, across)
        xs, ys = [p[0] for p in slots], [p[1] for p in slots]
        left, up = min(xs) - side, min(ys) - top
        frame = (key, max(xs) + side - left, max(ys) + bottom - up)
        placed = _snap(members, links, slots)
        blobs.append(({n: (x - left, y - up) for n, (x, y) in placed.items()}, frame))
    if not blobs:
        return {}, []
    blobs.sort(key=lambda blob: (-len(blob[0]), blob[1][0]))
    width = max([columns * cell[0], *(w for _, (_, w, _) in blobs)])
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, (_, (_, w, _)) in enumerate(blobs):
        if rows[-1] and used + GROUP_GAP + w > width:
            rows.append([])
            used = 0.0
        used += (GROUP_GAP if rows[-1] else 0.0) + w
        rows[-1].append(i)
    points: dict[str, Point] = {}
    frames: list[Frame] = []
    y = 0.0
    for row in rows:
        row_width = sum(blobs[i][1][1] for i in row) + GROUP_GAP * (len(row) - 1)
        x = (width - row_width) / 2
        for i in row:
            placed, (key, w, h) = blobs[i]
            points.update(
                {n: (round(x + px, 1), round(y + py, 1)) for n, (px, py) in placed.items()}
            )
            frames.append(Frame(key, round(x, 1), round(y, 1), round(w, 1), round(h, 1)))
            x += w + GROUP_GAP
        y += max(blobs[i][1][2] for i in row) + GROUP_GAP
    return points, frames


GROUP_GAP = 14.0  # between two groups' frames
RING_GAP = 1.7  # between rings, in `spacing`s


@lru_cache(maxsize=256)
def _honeycomb(n: int, cell: tuple[float, float], columns: int) -> tuple[Point, ...]:
    """The `n` places of a honeycomb nearest its middle: rows `cell[1]` apart, each shifted
    half a place from the last, at most `columns` places wide."""
    w, h = cell
    reach = (columns - 1) * w / 2 + 1e-6
    places = [
        ((i + (j % 2) / 2) * w, j * h)
        for j in range(-n, n + 1)
        for i in range(-columns, columns + 1)
        if abs((i + (j % 2) / 2) * w) <= reach
    ]
    places.sort(key=lambda p: (p[0] * p[0] + p[1] * p[1], p[1], p[0]))
    return tuple(places[:n])


def _snap(
    members: Sequence[str], links: Sequence[tuple[str, str]], slots: Sequence[Point]
) -> dict[str, Point]:
    """Each member, most important first, on the free place nearest where a spring layout of
    the group (only its own links) would put it."""
    if len(members) < 3:
        return dict(zip(members, slots, strict=True))
    inside = set(members)
    wanted = spring(sorted(members), [(a, b) for a, b in links if a in inside and b in inside])
    xs, ys = [p[0] for p in slots], [p[1] for p in slots]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    hx, hy = (max(xs) - min(xs)) / 2, (max(ys) - min(ys)) / 2
    free = list(slots)
    out: dict[str, Point] = {}
    for i, node in enumerate(members):
        if i == 0:  # the most important in the middle
            out[node] = free.pop(0)
            continue
        ux, uy = wanted[node]
        tx, ty = cx + ux * hx, cy + uy * hy
        best = min(range(len(free)), key=lambda k: (free[k][0] - tx) ** 2 + (free[k][1] - ty) ** 2)
        out[node] = free.pop(best)
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
    iterations = max(12, min(150, WORK_LIMIT // (n * n)))
    heat = 0.2
    cooling = 0.002 ** (1 / iterations)  # the last step 1/500 of the first, however many
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
        heat *= cooling
    return tuple(_fit(dict(zip(nodes, zip(xs, ys, strict=True), strict=True))).items())


def _fit(points: dict[str, Point]) -> dict[str, Point]:
    """Scale into [-1, 1] on both axes, centred."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {node: ((x - cx) / span, (y - cy) / span) for node, (x, y) in points.items()}


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
