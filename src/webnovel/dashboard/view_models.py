"""What each dashboard page hands its template, as typed values.

A page function (pages.py, graph_view.py, threads_view.py, chapter_view.py) reads the book as of
a chapter and returns one of the `*Page` values here; `context_of` spreads its fields into the
template's names, so a template reads `cards`, `history`… as before, and a misspelt field is a
type error in the page function instead of an empty cell on the page. Rows that templates unpack
(`for name, value, since in facts`) are NamedTuples; the rest are frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, NamedTuple

from ..book.values import (
    CommitEntry,
    Conflict,
    Entity,
    Evidence,
    Knowledge,
    RelationEdge,
    Thread,
    ThreadStep,
    TimelineEvent,
    Together,
)
from .graph_layout import Point

if TYPE_CHECKING:  # types only: the dashboard reads memory through the facade
    from _typeshed import DataclassInstance

    from ..book.values import ChapterReport, Impact, MemoryPack, PackItem, SearchHit
    from ..ingest.name_finder import Candidate
    from .graph_factions import GroupTitle
    from .graph_labels import Label


def context_of(view: DataclassInstance) -> dict[str, Any]:
    """A page value's fields as its template's names (one level: rows stay values)."""
    return {f.name: getattr(view, f.name) for f in fields(view)}


class Span(NamedTuple):
    """Where a stretch of chapters sits on an axis, in percent of its width."""

    left: float
    width: float


@dataclass(frozen=True, slots=True)
class Axis:
    """Chapters `start`..`end` on a horizontal axis, in percent."""

    start: int
    end: int

    def at(self, chapter: int) -> float:
        span = max(1, self.end - self.start + 1)
        return round(100 * (min(max(chapter, self.start), self.end + 1) - self.start) / span, 2)

    def bar(self, first: int, last: int | None) -> Span:
        """Chapters `first`..`last` (None: to the axis' end) as a stretch of the axis."""
        left = self.at(first)
        right = self.at((last if last is not None else self.end) + 1)
        return Span(left, max(0.6, round(right - left, 2)))


class FieldRow(NamedTuple):
    """One field of an entity as a card shows it."""

    name: str  # the book's Chinese name of the field
    value: str  # the value as an author reads it
    since: int  # the chapter from which it holds (its version's valid_from)


RelationKind = tuple[str, str, str]  # (key, name as said, colour): graph_view.relation_group


# -- overview ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Snapshot:
    """主角快照: an entity as chapter `as_of` knew it."""

    entity: Entity
    facts: list[FieldRow]
    dead_since: int | None  # the chapter whose change made them dead, if they are
    last_seen: int | None  # the last chapter up to `as_of` they appeared in


@dataclass(frozen=True, kw_only=True, slots=True)
class CommitRow:
    entry: CommitEntry
    chapters: str | None = None  # an accept's chapters (2、3、5), its commits shown as one
    title: str | None  # the chapter's title as this commit gave it
    did: str | None  # what it did, named (接受「林砚」为角色), where not a plain chapter commit
    changes: list[tuple[str, int]]  # (what a commit did, in Chinese; how many)


@dataclass(frozen=True, kw_only=True, slots=True)
class CommitLine:
    """A line of 最近提交: one commit (no summary), or a run of one kind folded under its
    summary (接受候选人名 ×37（第1–5章）) that opens on each."""

    summary: str | None
    rows: list[CommitRow]
    more: str | None = None  # how many older ones a folded line holds beyond its rows


@dataclass(frozen=True, kw_only=True, slots=True)
class Bar:
    """One bar of a chart over chapters: a bin of `first`..`last`."""

    first: int
    last: int
    value: float
    x: float  # percent of the axis
    w: float
    height: float  # percent of the tallest bar


@dataclass(frozen=True, kw_only=True, slots=True)
class Chart:
    title: str
    bars: list[Bar]
    unit: str


@dataclass(frozen=True, kw_only=True, slots=True)
class OverviewPage:
    protagonist: Snapshot | None
    missing: list[int]  # chapters up to `as_of` never committed
    published_through: int | None  # the last chapter readers have (`publish --through`)
    edited: list[int]  # chapters whose text file changed since their commit (`status`)
    stale: list[int]  # chapters whose text was edited after their result (`sync`)
    coverage: str | None  # which chapters up to `as_of` stand on their imported text alone
    counts: list[tuple[str, int]]
    commits: list[CommitLine]
    conflicts: list[Conflict]
    overdue: list[Thread]
    charts: list[Chart]
    sizes: Mapping[str, int | None]
    clock: list[str] = field(default_factory=list)  # the story clock as of the page's chapter


# -- characters ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Card:
    entity: Entity
    facts: list[FieldRow]
    dead_since: int | None


@dataclass(frozen=True, kw_only=True, slots=True)
class CharactersPage:
    cards: list[Card]
    others: list[Entity]  # places, factions, items
    page: int
    pages: int
    total: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Segment:
    """One version of a field drawn on the character's axis."""

    value: str
    valid_from: int  # the chapter from which it held
    valid_to: int | None  # the chapter from which it no longer held; None while it holds
    status: str
    left: float
    width: float


@dataclass(frozen=True, kw_only=True, slots=True)
class RelationRow:
    edge: RelationEdge
    other: str  # the other entity's name
    outgoing: bool
    group: RelationKind


@dataclass(frozen=True, kw_only=True, slots=True)
class Appearances:
    count: int
    ticks: list[float]
    last: int | None


@dataclass(frozen=True, kw_only=True, slots=True)
class CharacterPage:
    entity: Entity
    facts: list[FieldRow]
    dead_since: int | None
    axis: Axis
    history: list[tuple[str, list[Segment]]]  # (the field's Chinese name, its versions)
    appearances: Appearances
    relations: list[RelationRow]
    knows: list[Knowledge]


# -- timeline, conflicts, search, pack ----------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class EventRow:
    event: TimelineEvent
    who: list[str]  # the participants' names as of the page's chapter


@dataclass(frozen=True, kw_only=True, slots=True)
class TrackRow:
    """One stretch of a character's track: a place on consecutive story days, or a memory."""

    when: str  # 第1～2天, 第60天黄昏, 开篇前3599天
    location: str
    memory: str  # 回忆, 梦境, or "" for the present
    chapter_from: int
    chapter_to: int
    days: int
    width: int  # the bar's width in percent


@dataclass(frozen=True, kw_only=True, slots=True)
class TimelinePage:
    events: list[EventRow]
    earlier: int | None  # the chapter to show earlier events before, when there are more
    entity: Entity | None
    entity_name: str | None
    choices: list[str]
    story: bool = False  # in story time: by the day each event happens
    clock: list[str] = field(default_factory=list)  # the clock as of the page's chapter
    track: list[TrackRow] = field(default_factory=list)  # the chosen character's


@dataclass(frozen=True, kw_only=True, slots=True)
class ConflictCard:
    conflict: Conflict
    kind: str
    severity: str
    severity_name: str
    hint: str | None
    memory: list[Evidence]  # what memory held, from chapters before the conflict's
    this: list[Evidence]  # what the conflict's chapter wrote


@dataclass(frozen=True, kw_only=True, slots=True)
class ConflictsPage:
    open: list[ConflictCard]
    settled: list[ConflictCard]
    just_settled: str | None = None  # the conflict the visitor has just settled


@dataclass(frozen=True, kw_only=True, slots=True)
class CandidatesPage:
    candidates: list[Candidate]
    entity_types: tuple[str, ...]
    done: str | None  # what the visitor has just done, in Chinese


@dataclass(frozen=True, kw_only=True, slots=True)
class HitRow:
    hit: SearchHit
    pieces: list[tuple[str, bool]]  # (text, matched) pieces of its snippet


@dataclass(frozen=True, kw_only=True, slots=True)
class SearchPage:
    query: str
    hits: list[HitRow]


@dataclass(frozen=True, kw_only=True, slots=True)
class SectionRow:
    name: str
    tokens: int
    share: float  # percent of the budget
    entries: list[PackItem]


@dataclass(frozen=True, kw_only=True, slots=True)
class PackPage:
    pack: MemoryPack
    task: str
    tasks: list[tuple[str, str]]  # (task, its Chinese name)
    sections: list[SectionRow]
    used_share: float
    prompt: str


# -- threads, chapters, the graph -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class ThreadCard:
    thread: Thread
    kind: str
    left: float
    width: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Lane:
    key: str
    name: str
    count: int
    hidden: int  # cards not shown
    threads: list[ThreadCard]


@dataclass(frozen=True, kw_only=True, slots=True)
class ThreadsBoard:
    opened: str | None
    lanes: list[Lane]


@dataclass(frozen=True, kw_only=True, slots=True)
class EvidenceRow:
    chapter: int | None
    quote: str | None
    passage: str | None  # the passage quoted, when its chapter is known as of the page


@dataclass(frozen=True, kw_only=True, slots=True)
class StepRow:
    step: ThreadStep
    evidence: list[EvidenceRow]


@dataclass(frozen=True, kw_only=True, slots=True)
class ThreadPage:
    thread: Thread
    kind: str
    lane: str
    related: list[str]
    steps: list[StepRow]


@dataclass(frozen=True, kw_only=True, slots=True)
class ChapterPage:
    c: ChapterReport
    ending: str
    thread_action: Mapping[str, str]
    secret_action: Mapping[str, str]


@dataclass(frozen=True, kw_only=True, slots=True)
class Node:
    id: str
    name: str
    type: str
    at: Point
    r: float
    center: bool
    recent: bool  # in a relation made in the highlighted chapters
    label: Label  # where its name is drawn, or that it yields (shown on hover and focus)
    faction: str | None  # the name of its side as of the page's chapter


@dataclass(frozen=True, kw_only=True, slots=True)
class DrawnEdge:
    edge: RelationEdge
    group: RelationKind
    recent: bool
    path: str  # the SVG path
    label_at: Point
    labelled: bool  # its type drawn at label_at (it covers no circle and no other text)


@dataclass(frozen=True, kw_only=True, slots=True)
class GraphFonts:
    """The graph's font sizes, in the SVG's units: the template writes them, the layout
    measured the names with them."""

    node: float
    edge: float
    title: float


@dataclass(frozen=True, kw_only=True, slots=True)
class GraphPage:
    nodes: list[Node]
    edges: list[DrawnEdge]
    width: float
    height: float
    shown_width: int  # the widest the page shows it, in CSS pixels
    groups: list[GroupTitle]  # the factions' frames and names
    focus: Entity | None
    focus_name: str | None
    hops: int
    recent: int
    since: int  # the first highlighted chapter
    legend: list[RelationKind]
    hidden: int  # entities left off
    merged: int  # relations merged into one line per pair
    labels: bool
    fonts: GraphFonts
    choices: list[str]
    together: list[Together]  # who shares chapters with the centre (Project.cooccurrence)


# -- 改稿: a revision's impact ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class ImpactLine:
    kind: str  # change | added | removed: a record that changes, a conflict added or mended
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ImpactGroup:
    """One chapter of an impact: what breaks or mends there; `line_after`: the published line
    is drawn after this chapter."""

    chapter: int
    published: bool
    lines: list[ImpactLine]
    line_after: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class RevisePage:
    result_text: str  # the revised result as pasted or picked
    chapter: int | None  # the chapter it is for
    published_through: int | None
    impact: Impact | None  # asked for: shown with its groups
    summary: str
    changed: list[str]  # the answers as of the latest chapter that change
    groups: list[ImpactGroup]
    line_drawn_first: bool  # every chapter listed is past the published line
    done: str | None  # a commit just made from the page
    error: str | None = None  # why the paste or the commit was refused, beside the text
