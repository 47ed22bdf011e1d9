"""The relation graph stays readable with a big cast: on a generated cast of 50 people in 5
factions, as the page's own SVG draws it (the template's macro, parsed back), no two circles
overlap, no name is drawn over another node's circle or over another name, each faction's
members sit inside their faction's frame, and the picture is narrow enough for a phone to show
its names at a readable size. The browser checks the same with Chromium's own text boxes
(test_graph_browser.py)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jinja2")

import webnovel  # noqa: E402
from faction_cast import FACTION_NAMES, build_faction_book  # noqa: E402
from webnovel.dashboard import graph_labels, graph_view  # noqa: E402
from webnovel.dashboard.templating import environment  # noqa: E402

PHONE_GRAPH_WIDTH = 364  # a 390-pixel phone less the page's padding and the frame's border
READABLE_PX = 10.0


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webnovel.Project]:
    root = build_faction_book(tmp_path_factory.mktemp("cast") / "book")
    with webnovel.open_project(root) as opened:
        yield opened


class Drawing(HTMLParser):
    """The circles, names and frames of a drawn graph, with the attributes the page gives."""

    def __init__(self) -> None:
        super().__init__()
        self.circles: dict[str, tuple[float, float, float]] = {}
        self.names: list[dict[str, Any]] = []  # a node's name: its entity and text attributes
        self.titles: list[dict[str, Any]] = []
        self.frames: dict[str, tuple[float, float, float, float]] = {}
        self.members: dict[str, str] = {}  # entity → the faction shown on it
        self.view: tuple[float, float] = (0.0, 0.0)
        self._entity: str | None = None
        self._faction: str | None = None
        self._text: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "svg":
            _, _, w, h = (float(v) for v in a["viewbox"].split())
            self.view = (w, h)
        elif tag == "a":
            self._entity = a["data-entity"]
            if "data-faction" in a:
                self.members[a["data-entity"]] = a["data-faction"]
        elif tag == "g" and "data-faction" in a:
            self._faction = a["data-faction"]
        elif tag == "rect" and self._faction is not None:
            x, y, w, h = (float(a[k]) for k in ("x", "y", "width", "height"))
            self.frames[self._faction] = (x, y, x + w, y + h)
        elif tag == "circle" and self._entity is not None:
            self.circles[self._entity] = (float(a["cx"]), float(a["cy"]), float(a["r"]))
        elif tag == "text":
            self._text = {
                "x": float(a["x"]),
                "y": float(a["y"]),
                "anchor": a.get("text-anchor", "start"),
                "font": float(a["font-size"]),
                "shown": "yielded" not in a.get("class", ""),
                "entity": self._entity,
                "text": "",
            }

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "text" and self._text is not None:
            if self._text["entity"] is not None:
                self.names.append(self._text)
            elif self._faction is not None:
                self.titles.append(self._text)
            self._text = None
        elif tag == "a":
            self._entity = None
        elif tag == "g":
            self._faction = None

    def box(self, text: dict[str, Any]) -> graph_labels.Box:
        """A text's box as the template draws it: its x, baseline, anchor and font size."""
        return graph_labels.box(text["text"], text["x"], text["y"], text["anchor"], text["font"])


def drawn(view: Any) -> Drawing:
    """The graph as the page's template draws it (the macro graph.html and the wiki use)."""
    macro = environment().get_template("graph_drawing.html").module.drawing  # type: ignore[attr-defined]
    parsed = Drawing()
    parsed.feed(str(macro(view, lambda n: "#" + n.id, id="g", aria="g")))
    return parsed


def overlaps(d: Drawing) -> list[str]:
    """Every circle over a circle, and every shown name (or faction name) over a circle or
    another name, in words."""
    found = []
    circles = sorted(d.circles.items())
    for i, (a, (ax, ay, ar)) in enumerate(circles):
        for b, (bx, by, br) in circles[i + 1 :]:
            if math.hypot(ax - bx, ay - by) < ar + br:
                found.append(f"circles {a} {b}")
    texts = [t for t in d.names if t["shown"]] + d.titles
    for i, t in enumerate(texts):
        b = d.box(t)
        for node, (x, y, r) in circles:
            if node != t["entity"] and graph_labels.circle_hits(b, (x, y), r):
                found.append(f"name {t['text']} over the circle of {node}")
        for other in texts[i + 1 :]:
            if graph_labels.boxes_hit(b, d.box(other)):
                found.append(f"names {t['text']} {other['text']}")
    return found


def test_fifty_people_in_five_factions_are_drawn_without_overlaps(book: webnovel.Project) -> None:
    d = drawn(graph_view.graph(book, 2, None, 1, 5))
    assert len(d.circles) == 55  # 50 people and their 5 factions
    assert overlaps(d) == []
    shown = [t for t in d.names if t["shown"]]
    assert len(shown) == 55  # every name has room in this layout
    for t in shown:  # the names fit in the picture
        x0, y0, x1, y1 = d.box(t)
        assert x0 >= 0 and y0 >= 0 and x1 <= d.view[0] and y1 <= d.view[1], t


def test_a_faction_is_drawn_together_in_its_frame_as_of_the_chapter(
    book: webnovel.Project,
) -> None:
    for as_of, defector_side in ((1, FACTION_NAMES[0]), (2, FACTION_NAMES[1])):
        d = drawn(graph_view.graph(book, as_of, None, 1, 5))
        assert sorted(t["text"] for t in d.titles) == sorted(FACTION_NAMES[:5])
        assert d.members["p05"] == defector_side  # p05 changes sides in chapter 2
        frames = list(d.frames.values())
        for i, a in enumerate(frames):
            assert not any(graph_labels.boxes_hit(a, b) for b in frames[i + 1 :])
        keys = {t["text"]: key for key, t in zip(d.frames, d.titles, strict=True)}
        for entity, side in d.members.items():
            x0, y0, x1, y1 = d.frames[keys[side]]
            x, y, _ = d.circles[entity]
            assert x0 < x < x1 and y0 < y < y1, (entity, side)


def test_the_names_stay_readable_on_a_phone(book: webnovel.Project) -> None:
    """The SVG scales to the screen's width (viewBox): a phone shows its names at 10 px or
    more."""
    d = drawn(graph_view.graph(book, 2, None, 1, 5))
    scale = min(1.0, PHONE_GRAPH_WIDTH / d.view[0])
    assert min(t["font"] for t in d.names) * scale >= READABLE_PX, d.view


def test_a_crowded_ring_around_a_centre_does_not_overlap(book: webnovel.Project) -> None:
    """Centred on a faction's leader, two rings: the leader's ten disciples and their links."""
    d = drawn(graph_view.graph(book, 2, "p00", 2, 5))
    assert len(d.circles) >= 13
    assert overlaps(d) == []


def test_a_centre_with_too_many_neighbours_for_a_ring_stays_readable_on_a_phone(
    tmp_path: Path,
) -> None:
    """A centre knowing 30 people besides its own faction: 24 on the first ring (the most a
    centred graph draws) and 36 on the second would make rings far wider than a phone; they
    are set on a honeycomb round the centre instead, first ring nearest."""
    root = build_faction_book(tmp_path / "book", hub=30)
    with webnovel.open_project(root) as opened:
        view = graph_view.graph(opened, 2, "p00", 2, 5)
    d = drawn(view)
    assert len(d.circles) >= 35  # the centre, a full first ring of 24, and a second ring
    assert overlaps(d) == []
    assert min(t["font"] for t in d.names) * PHONE_GRAPH_WIDTH / d.view[0] >= READABLE_PX


def test_a_long_name_is_shortened_to_five_characters() -> None:
    """(The node's <title> keeps it whole, for hover.)"""
    board = graph_labels.Board([("a", (0.0, 0.0), 12.0)])
    name = "Alexander欧阳青云长老"
    placed = graph_labels.place_names(board, [("a", name, (0.0, 0.0), 12.0)])["a"]
    assert placed.shown and placed.text.endswith("…") and name.startswith(placed.text[:-1])
    x0, _, x1, _ = graph_labels.label_box(placed)
    assert x1 - x0 <= 5 * graph_labels.NODE_FONT * 1.05


def test_a_name_with_no_room_yields_and_is_kept_for_hover() -> None:
    """Circles packed so tight that no place round the middle one is free: its name is not
    drawn over them but kept, hidden, for hover and focus."""
    ring = [
        (f"n{k}", (30 * math.cos(k * math.pi / 4), 30 * math.sin(k * math.pi / 4)), 12.0)
        for k in range(8)
    ]
    board = graph_labels.Board([("middle", (0.0, 0.0), 12.0), *ring])
    placed = graph_labels.place_names(board, [("middle", "欧阳青云", (0.0, 0.0), 12.0)])
    assert placed["middle"].shown is False and placed["middle"].text == "欧阳青云"
    open_board = graph_labels.Board([("middle", (0.0, 0.0), 12.0), ring[2]])  # one below
    placed = graph_labels.place_names(open_board, [("middle", "欧阳青云", (0.0, 0.0), 12.0)])
    assert placed["middle"].shown and placed["middle"].y < 0  # above, clear of the one below
