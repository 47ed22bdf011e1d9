"""Why an item (or an entity in play) is in a pack: a code and its arguments, never free text.

Each code has the English `why` the contract fixes (agents and tools read it in JSON) and its
words for a person, the catalogue's `why_<code>` (messages/pack.py), said in the reader's
language: a pack's text and prompt renderings, the dashboard and JSON's `why_zh` show those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...messages import say
from ..vocabulary import CHUNK_KIND, SEVERITY

# code: (the English of `why`, its arguments' names in the catalogue's `why_<code>`)
REASONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "outline": ("the chapter's outline (pinned: kept whenever it fits the budget)", ()),
    "ending": ("where the previous chapter ended", ()),
    "story_clock": ("the story clock as the previous chapter ends (pinned)", ()),
    "deadline": ("due in story time on day {0}, {1} days left", ("day", "left")),
    "deadline_passed": ("due in story time on day {0}, passed without payoff", ("day",)),
    "recent_summary": ("summary of recent chapter {0}", ("n",)),
    "named": ("named in {0}", ("source",)),
    "named_as": ("named in {0} as {1}", ("source", "text")),
    "protagonist": ("protagonist", ()),
    "recently_active": ("active in the last chapters", ()),
    "in_draft": ("touched by the draft", ()),
    "last_scene": ("in the last scene of ch {0}", ("n",)),
    "point_of_view": ("point of view", ()),
    "thread_names": ("named by a thread due at ch {0}", ("n",)),
    "conflict_names": ("named by an open conflict", ()),
    "shared_scenes": ("shared recent scenes with {0}", ("who",)),
    "of_entity": ("{0}: {1}", ("who", "why")),
    "between_in_play": ("between two entities in play", ()),
    "relation_of": ("relation of {0} ({1})", ("who", "why")),
    "hops_out": ("{0} hops out, via {1}", ("hops", "who")),
    "overdue": ("overdue since ch {0}", ("n",)),
    "due": ("thread due at ch {0}, {1} chapters left", ("n", "left")),
    "involves": ("involves {0}", ("who",)),
    "open_thread": ("open thread", ()),
    "reveal_due": ("a reveal due in this chapter", ()),
    "reader_unaware": ("the reader does not know it yet", ()),
    "unaware": ("{0} is in play and does not know it", ("who",)),
    "gaps_held_back": (
        "{0} more gaps of people in play, not shown: ask knows or secrets",
        ("count",),
    ),
    "suspects": ("{0} is in play and only suspects it", ("who",)),
    "died": ("died at ch {0}", ("n",)),
    "dead_in_play": ("in play but dead", ()),
    "dead_near": ("near the scene but dead", ()),
    "open_conflict": ("an open {0} conflict", ("severity",)),
    "rule_in_force": ("rule in force since ch {0}", ("n",)),
    "rule_shares_outline": ("shares terms with the outline: {0}", ("words",)),
    "rule_shares_scene": ("shares terms with the scene: {0}", ("words",)),
    "event": ("event involving {0} (ch {1})", ("who", "n")),
    "recent_change": ("recent change of {0} (until ch {1})", ("who", "n")),
    "passage": ("{0} from ch {1}", ("kind", "n")),
}

_SOURCES = frozenset({"outline", "query", "draft"})


@dataclass(frozen=True)
class Reason:
    """Why an item is in a pack. `str()` gives the English of the contract's `why`; `shown()`
    what a person reads, from the catalogue. An argument may itself be a reason
    (「林砚的关系（主角）」)."""

    code: str
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        return REASONS[self.code][0].format(*self.args)

    def shown(self) -> str:
        """The reason in the reader's language (`why_<code>`; JSON's `why_zh`)."""
        names = REASONS[self.code][1]
        said = {n: _shown(n, a) for n, a in zip(names, self.args, strict=True)}
        return say(f"why_{self.code}", **said)


def because(code: str, *args: Any) -> Reason:
    """A reason with its arguments; an unknown code, or arguments it does not take, fail here,
    where it was written."""
    if code not in REASONS:
        raise KeyError(f"no pack reason {code!r}")
    if len(args) != len(REASONS[code][1]):
        raise TypeError(f"pack reason {code!r} takes {REASONS[code][1]}, given {args!r}")
    return Reason(code, args)


def _shown(name: str, value: Any) -> Any:
    """An argument as a person reads it: a reason said, a source (the outline, a question, the
    draft), a severity and a passage's kind by their words."""
    if isinstance(value, Reason):
        return value.shown()
    if name == "source" and value in _SOURCES:
        return say(f"pack_source_{value}")
    if name == "severity":
        return SEVERITY.get(value, value)
    if name == "kind":
        return CHUNK_KIND.get(value, value)
    return value
