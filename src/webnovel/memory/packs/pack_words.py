"""A pack's words for a person: the tasks' names and each item's reason in Chinese. JSON keeps
the contract's English (`task`, `why`), which agents and tools read; text output and the
dashboard show these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...messages import say
from ..words import CHUNK_WORDS, SEVERITY

_SOURCES = {"outline": "大纲", "query": "提问", "draft": "草稿"}


@dataclass(frozen=True)
class Reason:
    """Why an item is in a pack: a code and its arguments, never free text. `str()` gives the
    English of the contract's `why` (agents and tools read it); `chinese()` what an author
    reads. An argument may itself be a reason (「林砚的关系（主角）」)."""

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


def _zh(value: Any) -> Any:
    return value.chinese() if isinstance(value, Reason) else value


# code: (the English of `why`, the Chinese for the author)
REASONS: dict[str, tuple[str, Callable[..., str]]] = {
    "outline": (
        "the chapter's outline (pinned: kept whenever it fits the budget)",
        lambda: "本章大纲（放得下就一定保留）",
    ),
    "ending": ("where the previous chapter ended", lambda: "上一章的结尾"),
    "story_clock": (
        "the story clock as the previous chapter ends (pinned)",
        lambda: "上一章结束时的故事时间（放得下就一定保留）",
    ),
    "deadline": (
        "due in story time on day {0}, {1} days left",
        lambda day, left: f"按故事时间第{day}天到期，还剩{left}天",
    ),
    "deadline_passed": (
        "due in story time on day {0}, passed without payoff",
        lambda day: f"按故事时间第{day}天到期，已过期未兑现",
    ),
    "recent_summary": ("summary of recent chapter {0}", lambda n: f"近期第{n}章的摘要"),
    "named": ("named in {0}", lambda source: f"{_SOURCES.get(source, source)}中提及"),
    "named_as": (
        "named in {0} as {1}",
        lambda source, text: f"{_SOURCES.get(source, source)}中以「{text}」提及",
    ),
    "protagonist": ("protagonist", lambda: "主角"),
    "recently_active": ("active in the last chapters", lambda: "最近几章出场"),
    "in_draft": ("touched by the draft", lambda: "草稿涉及"),
    "last_scene": ("in the last scene of ch {0}", lambda n: f"第{n}章最后一场在场"),
    "point_of_view": ("point of view", lambda: "视角人物"),
    "thread_names": ("named by a thread due at ch {0}", lambda n: f"第{n}章到期的伏笔涉及"),
    "conflict_names": ("named by an open conflict", lambda: "未解决的矛盾涉及"),
    "shared_scenes": ("shared recent scenes with {0}", lambda who: f"近期与{who}同场"),
    "of_entity": ("{0}: {1}", lambda who, why: f"{who}：{why}"),
    "between_in_play": ("between two entities in play", lambda: "两个在场实体之间"),
    "relation_of": ("relation of {0} ({1})", lambda who, why: f"{who}的关系（{why}）"),
    "hops_out": ("{0} hops out, via {1}", lambda hops, who: f"经{who}相连，隔{hops}层"),
    "overdue": ("overdue since ch {0}", lambda n: f"自第{n}章起逾期"),
    "due": (
        "thread due at ch {0}, {1} chapters left",
        lambda n, left: f"应于第{n}章回收，还剩{left}章",
    ),
    "involves": ("involves {0}", lambda who: f"涉及{who}"),
    "open_thread": ("open thread", lambda: "未回收的线索"),
    "reveal_due": ("a reveal due in this chapter", lambda: "本章应揭示"),
    "reader_unaware": ("the reader does not know it yet", lambda: "读者尚不知（勿在叙述中揭示）"),
    "unaware": ("{0} is in play and does not know it", lambda who: f"{who}在场且不知情"),
    "gaps_held_back": (
        "{0} more gaps of people in play, not shown: ask knows or secrets",
        lambda n: say("pack_gaps_held_back_why", count=n),
    ),
    "suspects": ("{0} is in play and only suspects it", lambda who: f"{who}在场且仅怀疑"),
    "died": ("died at ch {0}", lambda n: f"第{n}章已死"),
    "dead_in_play": ("in play but dead", lambda: "在场人物中已死亡者"),
    "dead_near": ("near the scene but dead", lambda: "近期同场者中已死亡者"),
    "open_conflict": (
        "an open {0} conflict",
        lambda severity: f"未解决的矛盾（{SEVERITY.get(severity, severity)}）",
    ),
    "rule_in_force": ("rule in force since ch {0}", lambda n: f"自第{n}章起生效的规则"),
    "rule_shares_outline": (
        "shares terms with the outline: {0}",
        lambda words: f"与大纲共有词：{words}",
    ),
    "rule_shares_scene": (
        "shares terms with the scene: {0}",
        lambda words: f"与在场人物的物品或所在共有词：{words}",
    ),
    "event": ("event involving {0} (ch {1})", lambda who, n: f"与{who}有关的事件（第{n}章）"),
    "recent_change": (
        "recent change of {0} (until ch {1})",
        lambda who, n: f"{who}的近期变化（至第{n}章）",
    ),
    "passage": ("{0} from ch {1}", lambda kind, n: f"第{n}章的{CHUNK_WORDS.get(kind, kind)}"),
}
