"""The dashboard's one URL builder: every link is made from a route's name (the names given in
`app.create_app`), as Starlette's `url_for` does, never written by hand in a template.

A page is shown as of a chapter, so a link keeps that chapter (`as_of`) unless told otherwise.
Path parameters are quoted as one path segment whatever they hold (an entity's id may hold `/`,
`?`, `#` or `../`): the `{…:path}` routes take them back whole, as Starlette decodes the path
before routing.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from starlette.routing import BaseRoute, Mount, Route, Router


class Links:
    """URLs of the named routes of `router`, for a page shown as of chapter `as_of`."""

    def __init__(self, router: Router, as_of: int | None) -> None:
        self._router = router
        self.as_of = as_of
        self._path_params = {
            route.name: set(route.param_convertors) for route in _named(router.routes)
        }

    def url_for(self, name: str, /, **params: object) -> str:
        """A link to the route called `name`: its path parameters from `params`, the rest (and
        the page's chapter) as the query. A parameter given as None is left out, so
        `as_of=None` leaves out the chapter."""
        in_path = self._path_params[name]
        path = self.path_for(name, **{key: params[key] for key in in_path})
        query = {"as_of": self.as_of, **{k: v for k, v in params.items() if k not in in_path}}
        kept = {key: value for key, value in query.items() if value is not None}
        return f"{path}?{urlencode(kept)}" if kept else path

    def path_for(self, name: str, /, **path_params: object) -> str:
        """The bare path of the route called `name`: a GET form's action (the form's fields are
        its query) or a static file (`path_for("static", path="dashboard.css")`)."""
        quoted = {
            key: str(value) if name == "static" else quote(str(value), safe="")
            for key, value in path_params.items()
        }
        return str(self._router.url_path_for(name, **quoted))


def _named(routes: list[BaseRoute]) -> list[Route | Mount]:
    return [r for r in routes if isinstance(r, Route | Mount) and r.name]
