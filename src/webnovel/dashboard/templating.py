"""The Jinja environment shared by the dashboard and the reader wiki: templates shipped inside
the package, HTML escaping on, and the filters pages use."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..book.values import Reason
from ..book.words import (
    CHUNK_KIND,
    CONFLICT_STATUS,
    ENTITY_TYPE,
    FIELD,
    SOURCE,
    STATUS,
    THREAD_KIND,
    THREAD_STATUS,
    TIER,
    label,
)
from ..errors import InvalidInput
from ..messages import say
from .pages import show
from .time_view import story_day

if TYPE_CHECKING:  # jinja2 comes with the [dashboard] extra and is imported when first used
    import jinja2
    import jinja2.runtime

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


PERSON = "角色"  # the entity type of characters, as a book stores it (drawn apart on the graph)


def _listed(names: Any) -> str:
    """Names in a row as the reader's language writes a list: 甲、乙 or A, B."""
    return str(say("argument_list_separator").join(str(n) for n in names))


def _kilobytes(size: int | None) -> str:
    if size is None:
        return "—"
    return f"{size / 1024:,.0f} KB" if size < 10 << 20 else f"{size / (1 << 20):,.1f} MB"


def _amount(value: float) -> str:
    """A chart's number: a whole one without its 「.0」 (319 tokens), a fraction to one place."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _field_label(context: jinja2.runtime.Context, key: str | None) -> str:
    """A field's Chinese name: the book's own (`fields`, a page's frame gives it) where the page
    has its book, the built-in names otherwise."""
    fields = context.get("fields")
    return str(fields.label(key)) if fields is not None else label(FIELD, key)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    try:
        import jinja2
    except ImportError as exc:
        raise InvalidInput.of("dashboard_extra") from exc
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        show=show,
        field=jinja2.pass_context(_field_label),
        status=lambda key: label(STATUS, key),
        source=lambda key: label(SOURCE, key),
        thread_kind=lambda key: label(THREAD_KIND, key),
        thread_status=lambda key: label(THREAD_STATUS, key),
        conflict_status=lambda key: label(CONFLICT_STATUS, key),
        kb=_kilobytes,
        amount=_amount,
        entity_type=lambda key: label(ENTITY_TYPE, key),
        tier=lambda key: label(TIER, key),
        why=_why,
        chunk_kind=lambda key: label(CHUNK_KIND, key),
        story_day=story_day,
        listed=_listed,
    )
    # Every word of a page is the catalogue's, said while the page renders: the language is
    # read then (WEBNOVEL_LANG), never when the environment is made.
    env.globals.update(say=say, PERSON=PERSON)
    return env


def render(name: str, **context: Any) -> str:
    return str(environment().get_template(name).render(**context))


def _why(reason: Reason | dict[str, Any] | str) -> str:
    """A pack item's reason as the author reads it: a reason code renders itself in the reader's
    language; an entity in play carries its Chinese beside the English (`why_zh`)."""
    if isinstance(reason, Reason):
        return reason.shown()
    if isinstance(reason, dict):
        return str(reason.get("why_zh") or reason.get("why", ""))
    return str(reason)
