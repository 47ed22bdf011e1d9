"""Which side each entity of the relation graph is on as of a chapter (its `faction` field), and
the name over each side's group.

A faction's value may be the faction entity's id, name or alias, or a bare word no entity has;
either way the members of one faction end up in one group, named as the chapter knew it. A
faction entity with no faction of its own heads its own group.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..book.project import Project
from ..messages import say
from . import graph_labels
from .graph_layout import Frame, Point

FACTION_FIELD = "faction"  # vocabulary's key of 阵营 (所属势力, 门派 …)
FACTION_TYPE = "势力"
NO_FACTION = ""  # the group of those whose faction is not known
TITLE_PAD = 8.0  # from a frame's left edge to its name


def factions(
    book: Project, shown: Collection[str], types: Mapping[str, str], as_of: int
) -> dict[str, str]:
    """Entity id → the key of its faction (a faction entity's id, or the value as written),
    for those whose faction is known as of `as_of`."""
    lookup: dict[str, str] = {}
    for entity in book.entities(None, FACTION_TYPE):
        for written in (entity.id, entity.name, *entity.aliases):
            lookup.setdefault(written, entity.id)
    out: dict[str, str] = {}
    for node in shown:  # one field of each: half the time of reading all of their states
        fact = book.fact(node, FACTION_FIELD, as_of)
        value = fact.value if fact is not None else None
        if isinstance(value, list):  # on two sides: drawn with the first
            value = value[0] if value else None
        if value is not None and str(value).strip():
            out[node] = lookup.get(str(value).strip(), str(value).strip())
        elif types.get(node) == FACTION_TYPE:
            out[node] = node
    return out


def names(book: Project, keys: Collection[str], as_of: int) -> dict[str, str]:
    """Each faction key's name as of `as_of`: an entity's name then, or the value as written."""
    found = book.names([k for k in keys if k != NO_FACTION], as_of)
    out = {k: found.get(k, k) for k in keys}
    if NO_FACTION in keys:
        out[NO_FACTION] = say("graph_no_faction")
    return out


@dataclass(frozen=True, slots=True)
class GroupTitle:
    """A faction's frame and its name over it, as the template draws them."""

    frame: Frame
    text: str  # shortened to the frame's width where it must be
    full: str
    x: float
    y: float  # the baseline

    def moved(self, dx: float, dy: float) -> GroupTitle:
        f = self.frame
        return GroupTitle(
            frame=Frame(f.key, round(f.x + dx, 1), round(f.y + dy, 1), f.w, f.h),
            text=self.text,
            full=self.full,
            x=round(self.x + dx, 1),
            y=round(self.y + dy, 1),
        )


def titled_board(
    points: Mapping[str, Point],
    radius: Mapping[str, float],
    frames: Sequence[Frame],
    faction_names: Mapping[str, str],
) -> tuple[graph_labels.Board, list[GroupTitle]]:
    """The board the names are placed on: every circle, and each group's name at the top left
    of its frame (a single group of unknown faction, the whole cast of a book that records no
    factions, gets no frame). The frames are the board's outline, so the page is sized to them."""
    if len(frames) == 1 and frames[0].key == NO_FACTION:
        frames = []
    font = graph_labels.TITLE_FONT
    titles = []
    for f in frames:
        full = faction_names.get(f.key, f.key)
        room = f.w - 2 * TITLE_PAD
        text = next(
            (
                t
                for t in (full, *(graph_labels.shortened(full, k) for k in range(len(full), 0, -1)))
                if graph_labels.text_width(t, font) <= room
            ),
            graph_labels.shortened(full, 1),
        )
        x, y = round(f.x + TITLE_PAD, 1), round(f.y + 4 + font * graph_labels.ASCENT, 1)
        titles.append(GroupTitle(frame=f, text=text, full=full, x=x, y=y))
    board = graph_labels.Board(
        [(n, at, radius[n]) for n, at in points.items()],
        [graph_labels.box(t.text, t.x, t.y, "start", font) for t in titles],
        outline=[(f.x, f.y, f.x + f.w, f.y + f.h) for f in frames],
    )
    return board, titles
