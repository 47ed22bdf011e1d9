"""Where the relation graph's names go: each beside its own circle and never over another's.

A label is tried below its node, then above, right and left (a name wider than five characters
shortened to that first); then shortened further (its first characters and an ellipsis) in the
same places; where none fits it is yielded: drawn hidden and
shown when its node is hovered or focused (the node's title always holds the full name). The
boxes are measured as a browser draws the text (Noto Sans CJK: a CJK character is one em wide,
5% spared; the line box reaches 1.16 em above the baseline and 0.31 em below), so the tests can
check the page's own `<text>` elements with the same arithmetic.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .graph_layout import Point

NODE_FONT = 14.0  # px in the SVG's own units, as the template writes it
EDGE_FONT = 12.0
TITLE_FONT = 13.0  # a faction's name over its group
ASCENT, DESCENT = 1.16, 0.31  # of the em, as the browser's text box (1.465 measured)
GAP = 2.0  # between a circle and its label
ELLIPSIS = "…"
SHORT_CHARS = (3, 2)  # what a shortened label keeps, longest first
MAX_LABEL_EMS = 5  # the widest a name is drawn: five CJK characters

Anchor = Literal["start", "middle", "end"]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class Label:
    text: str  # as drawn: the name, shortened or in full
    x: float
    y: float  # the baseline
    anchor: Anchor
    shown: bool  # False: yielded, shown on hover or focus only

    def moved(self, dx: float, dy: float) -> Label:
        return Label(
            self.text, round(self.x + dx, 1), round(self.y + dy, 1), self.anchor, self.shown
        )


def text_width(text: str, font: float) -> float:
    """A wide (CJK) character is one em, anything else about 0.62 em at most; and 5% more for
    both, as a scaled-down SVG's text is laid out at a rounded size (Chromium drew 厉沉 at 14 px
    2.4% wider on a phone)."""
    return 1.05 * sum(
        font if unicodedata.east_asian_width(ch) in "WF" else font * 0.62 for ch in text
    )


def box(text: str, x: float, y: float, anchor: Anchor, font: float) -> Box:
    width = text_width(text, font)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return (left, y - font * ASCENT, left + width, y + font * DESCENT)


def label_box(label: Label, font: float = NODE_FONT) -> Box:
    return box(label.text, label.x, label.y, label.anchor, font)


def shortened(text: str, keep: int) -> str:
    return text if len(text) <= keep + 1 else text[:keep] + ELLIPSIS


def _places(text: str, at: Point, r: float, font: float) -> list[tuple[float, float, Anchor]]:
    """Below, above, right and left of a circle, the text's box just clear of it."""
    x, y = at
    middle = y + font * (ASCENT - DESCENT) / 2  # the baseline that centres the box on y
    return [
        (x, y + r + GAP + font * ASCENT, "middle"),
        (x, y - r - GAP - font * DESCENT, "middle"),
        (x + r + GAP + 1, middle, "start"),
        (x - r - GAP - 1, middle, "end"),
    ]


def circle_hits(b: Box, centre: Point, r: float) -> bool:
    """Whether a box and a circle overlap (touching is not overlapping)."""
    x0, y0, x1, y1 = b
    cx, cy = centre
    nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
    return (cx - nx) ** 2 + (cy - ny) ** 2 < r * r - 1e-6


def boxes_hit(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Board:
    """What is drawn so far: the circles, the boxes of the texts placed, and boxes that are
    drawn behind everything (a group's frame) and only count for the page's size."""

    def __init__(
        self,
        circles: Sequence[tuple[str, Point, float]],
        boxes: Sequence[Box] = (),
        outline: Sequence[Box] = (),
    ):
        self.circles = list(circles)
        self.boxes = list(boxes)
        self.outline = list(outline)

    def moved(self, dx: float, dy: float) -> Board:
        def shift(b: Box) -> Box:
            return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)

        return Board(
            [(n, (x + dx, y + dy), r) for n, (x, y), r in self.circles],
            [shift(b) for b in self.boxes],
            [shift(b) for b in self.outline],
        )

    def free(self, b: Box, own: str | None = None) -> bool:
        x0, y0, x1, y1 = b
        for node, (cx, cy), r in self.circles:  # a plain loop: this is the layout's hot spot
            if cx + r <= x0 or cx - r >= x1 or cy + r <= y0 or cy - r >= y1 or node == own:
                continue
            if circle_hits(b, (cx, cy), r):
                return False
        for ox0, oy0, ox1, oy1 in self.boxes:
            if x0 < ox1 and ox0 < x1 and y0 < oy1 and oy0 < y1:
                return False
        return True

    def place_edge_label(self, text: str, at: Point, size: tuple[float, float]) -> bool:
        """Whether a relation's name fits at the middle of its curve: inside the picture of
        `size`, over no circle and no other text. When it does, its box joins the board;
        otherwise the curve's title holds the name."""
        x, y = at
        b = box(text, x, y + 4, "middle", EDGE_FONT)  # the template's baseline: 4 below
        inside = b[0] >= 0 and b[1] >= 0 and b[2] <= size[0] and b[3] <= size[1]
        if inside and self.free(b):
            self.boxes.append(b)
            return True
        return False

    def extent(self) -> Box:
        """The box everything drawn on the board fits in."""
        boxes = [
            *self.boxes,
            *self.outline,
            *((x - r, y - r, x + r, y + r) for _, (x, y), r in self.circles),
        ]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


def place_names(
    board: Board, nodes: Sequence[tuple[str, str, Point, float]], font: float = NODE_FONT
) -> dict[str, Label]:
    """A label for each (id, name, centre, radius), in the order given (the most important
    first: they get the best places); each placed label's box joins the board."""
    out: dict[str, Label] = {}
    for node, name, at, r in nodes:
        out[node] = _place(board, node, name, at, r, font)
    return out


def _tries(name: str, font: float) -> list[str]:
    """The texts to try for a name: itself, or the longest shortening no wider than five
    characters (a longer name would push the picture past what a phone shows readably); then
    its three and two first characters."""
    fitting = [
        text
        for text in (name, *(shortened(name, keep) for keep in range(len(name) - 1, 0, -1)))
        if text_width(text, font) <= MAX_LABEL_EMS * font * 1.05
    ]
    shorter = [shortened(name, keep) for keep in SHORT_CHARS if len(name) > keep + 1]
    return list(dict.fromkeys([*fitting[:1], *(t for t in shorter if t in fitting)]))


def _place(board: Board, node: str, name: str, at: Point, r: float, font: float) -> Label:
    for text in _tries(name, font):
        for x, y, anchor in _places(text, at, r, font):
            x, y = round(x, 1), round(y, 1)  # as the page writes it, so as the tests read it
            b = box(text, x, y, anchor, font)
            if board.free(b, own=node):
                board.boxes.append(b)
                return Label(text, x, y, anchor, True)
    x, y, anchor = _places(name, at, r, font)[0]
    return Label(name, round(x, 1), round(y, 1), anchor, False)
