"""The relation graph of a 50-person cast in Chromium (Debian's, driven by Playwright), whole
and centred on one who knows 40 of them, at a desktop's size and at a phone's (390×844):
measured with the browser's own text boxes, no shown name covers another node's circle, the
picture fits the screen's width, and a name is at least 10 px tall on the phone. Screenshots
are taken (UPDATE_SCREENSHOTS=1 writes the whole cast on a phone to
docs/screenshots/phone-graph.png)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from browser import DESKTOP, PHONE, Watched, updating_screenshots  # noqa: E402
from faction_cast import build_faction_book  # noqa: E402
from webnovel.dashboard import graph_labels  # noqa: E402

from dashboard_server import Running, running_dashboard  # noqa: E402

SIZES = {"desktop": DESKTOP, "phone": PHONE}

# In the SVG's own units: each shown name's box as Chromium lays it out, against every other
# node's circle; and how many screen pixels a unit is.
MEASURE = """() => {
    const svg = document.getElementById('relation-graph');
    const nodes = [...svg.querySelectorAll('a.node')].map((a) => {
        const c = a.querySelector('circle'), t = a.querySelector('text');
        return {id: a.dataset.entity, x: +c.getAttribute('cx'), y: +c.getAttribute('cy'),
                r: +c.getAttribute('r'), text: t,
                shown: getComputedStyle(t).display !== 'none'};
    });
    const hits = [];
    for (const n of nodes.filter((n) => n.shown)) {
        const b = n.text.getBBox();
        for (const o of nodes) {
            if (o === n) continue;
            const nx = Math.min(Math.max(o.x, b.x), b.x + b.width);
            const ny = Math.min(Math.max(o.y, b.y), b.y + b.height);
            if ((o.x - nx) ** 2 + (o.y - ny) ** 2 < o.r * o.r - 0.5) hits.push(n.id + '/' + o.id);
        }
    }
    const box = svg.getBoundingClientRect();
    const font = Math.min(...nodes.map((n) => n.text.getBBox().height));
    return {hits, nodes: nodes.length, shown: nodes.filter((n) => n.shown).length,
            right: box.right, scale: box.width / svg.viewBox.baseVal.width,
            nameHeight: font, fontSize: +nodes[0].text.getAttribute('font-size'),
            widths: nodes.map((n) => [n.text.textContent, n.text.getBBox().width]),
            pageWidth: document.scrollingElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def cast_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = build_faction_book(tmp_path_factory.mktemp("cast") / "book", hub=30)
    with running_dashboard(root) as running:
        yield running


# the whole cast by faction (before the acquaintances), and centred on one who knows 40 of
# them (two hops: 46 drawn)
GRAPHS = {"cast": ("/graph?as_of=1", 55), "centred": ("/graph?as_of=2&center=p00&hops=2", 46)}


@pytest.mark.parametrize("graph", GRAPHS)
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_fifty_people_stay_readable_on_a_desktop_and_a_phone(
    cast_board: Running, size: str, graph: str, watched: Watched, screenshots: Path
) -> None:
    path, drawn = GRAPHS[graph]
    viewport = SIZES[size]
    page = watched.page
    page.set_viewport_size(viewport)
    page.goto(cast_board.url + path)
    page.wait_for_load_state("load")
    shot = screenshots / f"{size}-{graph}.png"
    if graph == "cast" and size == "phone":
        shot = screenshots / "phone-graph.png"  # the README links it
    if shot.name == "phone-graph.png" or not updating_screenshots():
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
    m = page.evaluate(MEASURE)
    assert watched.problems == []
    assert m["nodes"] == drawn and m["shown"] == drawn
    assert m["hits"] == []  # no name over another node's circle, by Chromium's own boxes
    # the graph fits the screen's width, and the page does not scroll sideways
    assert m["right"] <= viewport["width"] and m["pageWidth"] <= viewport["width"]
    # a name's line box (1.45 em of Noto Sans CJK) is at least 14.5 px on the screen: a 10 px font
    assert m["nameHeight"] * m["scale"] >= 14.5, m
    # and the layout measured names as Chromium draws them: no box is bigger than reckoned
    line = m["fontSize"] * (graph_labels.ASCENT + graph_labels.DESCENT)
    assert m["nameHeight"] <= line, m
    for text, width in m["widths"]:
        assert width <= graph_labels.text_width(text, m["fontSize"]) + 0.5, (text, width)
