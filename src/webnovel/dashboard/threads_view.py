"""The threads board and one thread's page: lanes by where each thread stands as of a chapter,
and a thread's steps with the evidence and passages behind them."""

from __future__ import annotations

from ..book.project import Project
from ..book.values import Thread
from ..book.words import THREAD_KIND, label
from ..messages import say
from .pages import names_of
from .view_models import Axis, EvidenceRow, Lane, StepRow, ThreadCard, ThreadPage, ThreadsBoard

DUE_SOON = 5  # chapters: an open thread due within this many is in the "due" lane
LANE_SHOWN = 20  # cards a lane shows on the board
LANE_OPENED = 400  # cards an opened lane shows

# the board's lanes, each named by its catalogue key `lane_<lane>`
LANES = ("planted", "advanced", "due", "overdue", "resolved", "abandoned")


def lane_of(thread: Thread, as_of: int) -> str:
    if thread.status in ("resolved", "abandoned"):
        return thread.status
    if thread.overdue:
        return "overdue"
    if thread.due_chapter is not None and thread.due_chapter - as_of <= DUE_SOON:
        return "due"
    if (thread.last_chapter or 0) > (thread.planted_chapter or 0):
        return "advanced"
    return "planted"


def threads_board(book: Project, as_of: int, opened: str | None = None) -> ThreadsBoard:
    """The board: each lane's most pressing threads; an `opened` lane shows many more of its
    own, and the others fold to their counts."""
    lanes: dict[str, list[Thread]] = {key: [] for key in LANES}
    for thread in book.threads("open", as_of):
        lanes[lane_of(thread, as_of)].append(thread)
    lanes["resolved"] = book.threads("resolved", as_of)
    lanes["abandoned"] = book.threads("abandoned", as_of)
    # the most pressing first: overdue and due by due chapter, the rest newest first
    for key in ("due", "overdue"):
        lanes[key].sort(key=lambda t: (t.due_chapter or 0, -(t.urgency or 0)))
    for key in ("planted", "advanced", "resolved", "abandoned"):
        lanes[key].sort(key=lambda t: -(t.resolved_chapter or t.last_chapter or 0))
    axis = Axis(1, as_of)
    opened = opened if opened in lanes else None

    def shown(key: str) -> int:
        return LANE_OPENED if key == opened else 0 if opened else LANE_SHOWN

    def card(t: Thread) -> ThreadCard:
        span = axis.bar(
            t.planted_chapter or 1, min(as_of, t.resolved_chapter or t.due_chapter or as_of)
        )
        kind = label(THREAD_KIND, t.kind)
        return ThreadCard(thread=t, kind=kind, left=span.left, width=span.width)

    return ThreadsBoard(
        opened=opened,
        lanes=[
            Lane(
                key=key,
                name=say(f"lane_{key}"),
                count=len(lanes[key]),
                hidden=max(0, len(lanes[key]) - shown(key)),
                threads=[card(t) for t in lanes[key][: shown(key)]],
            )
            for key in LANES
        ],
    )


def thread(book: Project, thread_id: str, as_of: int) -> ThreadPage | None:
    steps = book.thread_history(thread_id, as_of)
    if not steps:
        return None
    names = names_of(book.entities(as_of))
    return ThreadPage(
        thread=steps[-1].thread,
        kind=label(THREAD_KIND, steps[-1].thread.kind),
        lane=say(f"lane_{lane_of(steps[-1].thread, as_of)}"),
        related=[names.get(r, r) for r in steps[-1].thread.related if r in names],
        steps=[
            StepRow(
                step=step,
                evidence=[
                    EvidenceRow(
                        chapter=e.get("chapter"),
                        quote=e.get("quote"),
                        passage=book.passage(int(e["chapter"]), e.get("quote"))
                        if isinstance(e.get("chapter"), int) and e["chapter"] <= as_of
                        else None,
                    )
                    for e in step.evidence
                ],
            )
            for step in steps
        ],
    )
