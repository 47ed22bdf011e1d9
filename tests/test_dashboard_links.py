"""The dashboard's one URL builder (links.py): every link is made from a named route of the real
app, keeps the page's chapter, and quotes an id as one path segment; no template writes a URL
of the dashboard by hand."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402
from webnovel.dashboard.app import create_app  # noqa: E402
from webnovel.dashboard.links import Links  # noqa: E402

TEMPLATES = Path(webnovel.__file__).parent / "dashboard" / "templates"


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    book = webnovel.init_project(tmp_path_factory.mktemp("links") / "book", title="链接")
    return Links(create_app(book).router, 7)


def test_a_page_link_keeps_the_chapter_and_its_other_parameters_in_the_query(
    links: Links,
) -> None:
    assert links.url_for("overview") == "/?as_of=7"
    url = links.url_for("graph", center="林砚", hops=2, recent=None)
    assert urlsplit(url).path == "/graph"
    assert parse_qs(urlsplit(url).query) == {"as_of": ["7"], "center": ["林砚"], "hops": ["2"]}
    assert links.url_for("conflicts", as_of=None, settled="c-1") == "/conflicts?settled=c-1"


@pytest.mark.parametrize("ident", ["a/b", "x?y=1", "h#1", "../up", "百分%20号", "sp ace"])
def test_an_id_is_one_path_segment_whatever_it_holds(links: Links, ident: str) -> None:
    for route, param in (("character", "entity_id"), ("thread", "thread_id")):
        url = links.url_for(route, **{param: ident})
        path = urlsplit(url).path
        assert path.count("/") == 2, url  # /characters/<one segment>
        assert "?" not in path and "#" not in url
        assert parse_qs(urlsplit(url).query) == {"as_of": ["7"]}


def test_bare_paths_for_forms_and_files(links: Links) -> None:
    assert links.path_for("search") == "/search"
    assert links.path_for("resolve_conflict", conflict_id="c-1") == "/conflicts/c-1/resolve"
    assert links.path_for("static", path="dashboard.css") == "/static/dashboard.css"


def test_an_unknown_route_is_an_error_not_a_dead_link(links: Links) -> None:
    with pytest.raises(KeyError):
        links.url_for("characterz")


def test_no_template_writes_a_dashboard_url_by_hand() -> None:
    by_hand = re.compile(r'(?:href|src|action)="/|href\(|page_of\(')
    found = [
        f"{page.name}: {line.strip()}"
        for page in TEMPLATES.glob("*.html")
        for line in page.read_text(encoding="utf-8").splitlines()
        if by_hand.search(line)
    ]
    assert found == []
