"""A pack's words for a person: the tasks' names and each item's reason, in the catalogue's
Chinese (messages/packwords.py). JSON keeps the contract's English (`task`, `why`), which agents
and tools read; text output and the dashboard show these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...messages import say
from ..vocabulary import CHUNK_KIND, SEVERITY

_SOURCES = frozenset({"outline", "query", "draft"})


@dataclass(frozen=True)
class Reason:
    """Why an item is in a pack: a code and its arguments, never free text. `str()` gives the
    English of the contract's `why` (agents and tools read it); `chinese()` what an author
    reads, from the catalogue (`why_<code>`; English under WEBNOVEL_LANG=en). An argument may itself be a reason (「林砚的关系（主角）」)."""

    code: str
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        return REASONS[self.code][0].format(*self.args)

    def chinese(self) -> str:
        return REASONS[self.code][1](*(_zh(a) for a in self.args))


def because(code: str, *args: Any) -> Reason:
    """A reason with its arguments; an unknown code fails here, where it was written."""
    if code not in REASONS:
        raise KeyError(f"no pack reason {code!r}")
    return Reason(code, args)


def _source(source: str) -> str:
    """Where a name was found (the outline, a question, the draft), in the reader's words."""
    return say(f"pack_source_{source}") if source in _SOURCES else source


def _zh(value: Any) -> Any:
    return value.chinese() if isinstance(value, Reason) else value


# code: (the English of `why`, the Chinese for the author)
REASONS: dict[str, tuple[str, Callable[..., str]]] = {
    "outline": (
        "the chapter's outline (pinned: kept whenever it fits the budget)",
        lambda: say("why_outline"),
    ),
    "ending": ("where the previous chapter ended", lambda: say("why_ending")),
    "story_clock": (
        "the story clock as the previous chapter ends (pinned)",
        lambda: say("why_story_clock"),
    ),
    "deadline": (
        "due in story time on day {0}, {1} days left",
        lambda day, left: say("why_deadline", day=day, left=left),
    ),
    "deadline_passed": (
        "due in story time on day {0}, passed without payoff",
        lambda day: say("why_deadline_passed", day=day),
    ),
    "recent_summary": ("summary of recent chapter {0}", lambda n: say("why_recent_summary", n=n)),
    "named": ("named in {0}", lambda source: say("why_named", source=_source(source))),
    "named_as": (
        "named in {0} as {1}",
        lambda source, text: say("why_named_as", source=_source(source), text=text),
    ),
    "protagonist": ("protagonist", lambda: say("why_protagonist")),
    "recently_active": ("active in the last chapters", lambda: say("why_recently_active")),
    "in_draft": ("touched by the draft", lambda: say("why_in_draft")),
    "last_scene": ("in the last scene of ch {0}", lambda n: say("why_last_scene", n=n)),
    "point_of_view": ("point of view", lambda: say("why_point_of_view")),
    "thread_names": ("named by a thread due at ch {0}", lambda n: say("why_thread_names", n=n)),
    "conflict_names": ("named by an open conflict", lambda: say("why_conflict_names")),
    "shared_scenes": (
        "shared recent scenes with {0}",
        lambda who: say("why_shared_scenes", who=who),
    ),
    "of_entity": ("{0}: {1}", lambda who, why: say("why_of_entity", who=who, why=why)),
    "between_in_play": ("between two entities in play", lambda: say("why_between_in_play")),
    "relation_of": (
        "relation of {0} ({1})",
        lambda who, why: say("why_relation_of", who=who, why=why),
    ),
    "hops_out": (
        "{0} hops out, via {1}",
        lambda hops, who: say("why_hops_out", hops=hops, who=who),
    ),
    "overdue": ("overdue since ch {0}", lambda n: say("why_overdue", n=n)),
    "due": (
        "thread due at ch {0}, {1} chapters left",
        lambda n, left: say("why_due", n=n, left=left),
    ),
    "involves": ("involves {0}", lambda who: say("why_involves", who=who)),
    "open_thread": ("open thread", lambda: say("why_open_thread")),
    "reveal_due": ("a reveal due in this chapter", lambda: say("why_reveal_due")),
    "reader_unaware": ("the reader does not know it yet", lambda: say("why_reader_unaware")),
    "unaware": ("{0} is in play and does not know it", lambda who: say("why_unaware", who=who)),
    "gaps_held_back": (
        "{0} more gaps of people in play, not shown: ask knows or secrets",
        lambda n: say("pack_gaps_held_back_why", count=n),
    ),
    "suspects": ("{0} is in play and only suspects it", lambda who: say("why_suspects", who=who)),
    "died": ("died at ch {0}", lambda n: say("why_died", n=n)),
    "dead_in_play": ("in play but dead", lambda: say("why_dead_in_play")),
    "dead_near": ("near the scene but dead", lambda: say("why_dead_near")),
    "open_conflict": (
        "an open {0} conflict",
        lambda severity: say("why_open_conflict", severity=SEVERITY.get(severity, severity)),
    ),
    "rule_in_force": ("rule in force since ch {0}", lambda n: say("why_rule_in_force", n=n)),
    "rule_shares_outline": (
        "shares terms with the outline: {0}",
        lambda words: say("why_rule_shares_outline", words=words),
    ),
    "rule_shares_scene": (
        "shares terms with the scene: {0}",
        lambda words: say("why_rule_shares_scene", words=words),
    ),
    "event": ("event involving {0} (ch {1})", lambda who, n: say("why_event", who=who, n=n)),
    "recent_change": (
        "recent change of {0} (until ch {1})",
        lambda who, n: say("why_recent_change", who=who, n=n),
    ),
    "passage": (
        "{0} from ch {1}",
        lambda kind, n: say("why_passage", kind=CHUNK_KIND.get(kind, kind), n=n),
    ),
}
