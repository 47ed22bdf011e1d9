"""The information gap in a pack, worded for the writer, and only what the records support.

An agent treats 「X 尚不知」 as a hard constraint, so the pack says it sparingly: only for an
open secret about someone in play or known by someone in play, of a living character in play
who has no record of learning it (`knowledge_gap.information_gap`), and at most `SHOWN` such
lines, ranked by what the scene turns on: a gap between two people of the scene itself first
(the one who lacks it, and whom it is about or who knows it), the point-of-view character's own
before others'. One secret is one line naming everyone who lacks it (「韩啸、赵恒 尚不知：…」), in
the order of their gaps: five lines saying the same secret cost a pack five times its words.
The rest are counted in one line that says how to ask for them.
"""

from __future__ import annotations

from ...messages import say
from ..read.knowledge_gap import Gap, information_gap
from ..store import entity_ops
from .gathering import SCENE_RELEVANCE, Gathering
from .memory_pack import PackItem
from .reasons import Reason, because

SHOWN = 6  # 「尚不知」/「仅怀疑」 lines at most


def secrets(g: Gathering, dead: set[str]) -> list[PackItem]:
    """The information gap around the living characters in play: the dead learn nothing, so no
    "does not know" line is said of them."""
    characters = {e.id for e in g.in_play.entities.values() if e.type == "角色"}
    living = characters - dead
    gaps = information_gap(g.conn, g.as_of, g.request.chapter, living)
    people = [gap for gap in gaps if gap.entity_id]
    ranked = sorted(people, key=lambda gap: _rank(g, gap))
    items = [_kept_back(g, gap) for gap in gaps if not gap.entity_id]
    folded: dict[tuple[str, str], list[Gap]] = {}  # by secret and kind, in the order ranked
    for gap in ranked:
        folded.setdefault((gap.secret.id, gap.kind), []).append(gap)
    lines = list(folded.values())
    g.name_all(gap.entity_id or "" for same in lines[:SHOWN] for gap in same)
    for place, same in enumerate(lines[:SHOWN]):
        items.append(_unaware(g, same, g.scores.unaware * (1.0 - place / 100)))
    if len(lines) > SHOWN:  # the lines held back, each a secret and who lacks it
        items.append(_more(g, len(lines) - SHOWN))
    return items


def _rank(g: Gathering, gap: Gap) -> tuple[int, int, float, int, str]:
    """A gap between people of the scene first, the point of view's before others', then by how
    much the two are in play, the newest secret first."""
    who = gap.entity_id or ""
    in_scene = g.in_play.relevance.get(who, 0.0) >= SCENE_RELEVANCE
    partners = (gap.about | gap.knowers) - {who}
    partner = max((g.in_play.relevance.get(p, 0.0) for p in partners), default=0.0)
    between = in_scene and partner >= SCENE_RELEVANCE
    relevance = g.in_play.relevance.get(who, 0.0) * max(partner, 0.1)
    return (
        0 if between else 1,
        0 if who == _viewer(g) else 1,
        -relevance,
        -(gap.secret.planted_chapter or 0),
        gap.secret.id,
    )


def _viewer(g: Gathering) -> str | None:
    """The last chapter's point of view, or else the protagonist's."""
    if g.pov is None:
        protagonist = entity_ops.find_protagonist(g.conn)
        g.pov = protagonist.id if protagonist else ""
    return g.pov or None


def _kept_back(g: Gathering, gap: Gap) -> PackItem:
    secret = gap.secret
    if gap.kind == "due":
        score, why, must = g.scores.reveal_due, because("reveal_due"), "reveal"
        line = say("pack_gap_reveal_due")
    else:
        score, why = g.scores.author_only, because("reader_unaware")
        line, must = say("pack_gap_author_only"), ""
    item = _item(g, gap, score, why, say("pack_line_gap", gap=line, secret=secret.content))
    item.must_know = must
    return item


def _unaware(g: Gathering, same: list[Gap], score: float) -> PackItem:
    """One line for one secret (and kind) that several people lack, naming them all."""
    gap, ids = same[0], [gap.entity_id or "" for gap in same]
    who = say("argument_list_separator").join(g.name(i) for i in ids)
    if gap.kind == "suspects":
        why, line = because("suspects", who), say("pack_gap_suspects", who=who)
    else:
        why, line = because("unaware", who), say("pack_gap_unaware", who=who)
    said = say("pack_line_gap", gap=line, secret=gap.secret.content)
    item = _item(g, gap, score, why, said, ",".join(ids))
    item.must_know = "unaware"
    return item


def _more(g: Gathering, count: int) -> PackItem:
    item = g.item(
        layer="semantic",
        category="active_constraints",
        subject="gaps",
        field_name="secret",
        value=count,
        chapter=None,
        source_type="secret",
        evidence=[],
        score=g.scores.unaware * 0.9,
        why=because("gaps_held_back", count),
        line=f"- {say('pack_gaps_held_back', count=count)}",
    )
    item.must_know = "unaware"
    return item


def _item(
    g: Gathering, gap: Gap, score: float, why: Reason, line: str, people: str = ""
) -> PackItem:
    secret = gap.secret
    item = g.item(
        layer="semantic",
        category="active_constraints",
        subject=secret.id,
        field_name="secret",
        value=secret.content,
        chapter=secret.planted_chapter,
        source_type="secret",
        evidence=[{"chapter": secret.planted_chapter, "ref": f"secret:{secret.id}"}],
        score=score,
        why=why,
        line=line,
    )
    item.id += f":{gap.kind}:{people}"  # one secret, and whom the line names
    return item
