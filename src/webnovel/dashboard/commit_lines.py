"""The overview's 最近提交: each commit named by what it did, and runs of one kind folded.

A long import or an afternoon in the candidate queue makes hundreds of commits in a row; the
queue's re-commit a chapter only to introduce a name, and they carry no title of their own (the
chapter's title belongs to its current commit). So each commit is named from the log itself: a
chapter's first commit is the chapter (its title); a commit that kept its chapter's text and
only added one name's appearance (and, in the first chapter naming it, its introduction) is a
candidate accepted or merged (`candidate_queue._write` commits exactly that); one that only
gave an entity's introduction another name is a rename (改名 X→Y: the old name kept as an
alias, as `rename` keeps it) or a rename undone (the name the rename gave gone with no trace,
as `rename --undo` commits the chapter as it was); a retraction says which chapter it took
back; any other re-commit is the chapter rewritten. Consecutive commits of one kind fold into one line,
「接受候选人名 ×37（第1–5章）」, that opens on each answer (its commits, one for each chapter
naming the name, as one row); an import's chapters (committed back to back) fold the same way,
behind the newest few.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..book.project import Project
from ..book.values import CommitEntry
from ..messages import say
from .view_models import CommitLine, CommitRow

SHOWN_LINES = 12  # lines of the list
READ_COMMITS = 120  # commits read to make them: a folded line may hold this many
KEEP_NEWEST = 3  # of a run of new chapters, the newest shown as they are
FOLD_CHAPTERS = 3  # and the rest folded when there are this many
FOLD_ROWS = 30  # rows a folded line opens on
IMPORT_GAP = 10.0  # seconds between new chapters committed by one import, at most


@dataclass(frozen=True, slots=True)
class Named:
    """What one commit did: its kind (chapter, accept, merge, rename, unrename, rewrite,
    retraction), the name of the candidate (for an accept or merge; for a rename, the new name)
    and the chapter title where it has one."""

    kind: str
    name: str | None = None
    entity_type: str | None = None
    title: str | None = None
    into: str | None = None  # for a merge: the entity the name became an alias of
    old_name: str | None = None  # for a rename or its undoing: the name before the commit


def recent_lines(book: Project, as_of: int) -> list[CommitLine]:
    # at the latest chapter, the chapters retracted past it too (taken back, they are no
    # later part of the book; leaving them out hid every retraction of the last chapters)
    latest = book.latest_chapter() or 0
    log = book.commit_log(READ_COMMITS, None if as_of >= latest else as_of)
    changes = book.commits_with_before([e.seq for e in log if e.kind == "commit"])
    named = _retracted_titles(log, [name_of(e, changes.get(e.seq)) for e in log])
    lines: list[CommitLine] = []
    run: list[tuple[CommitEntry, Named]] = []
    for entry, what in zip(log, named, strict=True):
        if run and not _same_run(run[-1], (entry, what)):
            lines += _fold(run)
            run = []
        run.append((entry, what))
        if len(lines) >= SHOWN_LINES:
            break
    if run:
        lines += _fold(run)
    return lines[:SHOWN_LINES]


def name_of(entry: CommitEntry, change: dict[str, Any] | None) -> Named:
    if entry.kind == "retraction":
        return Named("retraction")
    result = change.get("result") if change else None
    before = change.get("before") if change else None
    title = entry.title or (result.get("title") if isinstance(result, dict) else None)
    title = title if isinstance(title, str) else None
    if change is None or change.get("first"):
        return Named("chapter", title=title)
    renaming = _renaming(result, before)
    if renaming is not None:
        kind, old, new = renaming
        return Named(kind, name=new, title=title, old_name=old)
    naming = _naming(result, before) if isinstance(before, dict) else None
    if naming is not None:
        kind, name, entity_type, into = naming
        return Named(kind, name=name, entity_type=entity_type, title=title, into=into)
    return Named("rewrite", title=title)


def _naming(result: Any, before: dict[str, Any]) -> tuple[str, str, str | None, str | None] | None:
    """(accept or merge, the name, the type, the entity merged into) when `result` is `before` with one name's
    appearance added (and its introduction, in its first chapter), as the candidate queue
    commits it; None otherwise."""
    if not isinstance(result, dict):
        return None
    appeared = [a for a in _listed(result, "entities_appeared") if isinstance(a, dict)]
    if not appeared or set(appeared[-1]) != {"id", "mentions"}:
        return None
    entity, mentions = appeared[-1]["id"], appeared[-1]["mentions"]
    if not (isinstance(mentions, list) and len(mentions) == 1 and isinstance(mentions[0], str)):
        return None
    intros = [e for e in _listed(result, "entities_new") if _about(e, entity)]

    def without(r: dict[str, Any]) -> dict[str, Any]:
        return {
            **r,
            "entities_appeared": [
                a for a in _listed(r, "entities_appeared") if not _about(a, entity)
            ],
            "entities_new": [e for e in _listed(r, "entities_new") if not _about(e, entity)],
        }

    if without(result) != without(before):
        return None
    intro = intros[-1] if intros else {}
    kind = "merge" if intro.get("revealed") else "accept"
    if not intro:  # a later chapter naming it: the same entity the run's first commit named
        kind = "naming"
    return kind, mentions[0], intro.get("type"), intro.get("name") if kind == "merge" else None


def _renaming(result: Any, before: Any) -> tuple[str, str, str] | None:
    """(rename or unrename, the name before, the name after) when `result` is `before` with
    only one entity's introduction named anew, as `rename` and `rename --undo` commit it;
    None otherwise."""
    if not (isinstance(result, dict) and isinstance(before, dict)):
        return None
    rest = {k: v for k, v in result.items() if k != "entities_new"}
    if rest != {k: v for k, v in before.items() if k != "entities_new"}:
        return None
    after_intros, before_intros = _intros(result), _intros(before)
    changed = [
        i for i in {*after_intros, *before_intros} if after_intros.get(i) != before_intros.get(i)
    ]
    if len(changed) != 1:
        return None
    now, then = after_intros.get(changed[0]), before_intros.get(changed[0])
    if now and then and now.get("name") != then.get("name"):
        old, new = then.get("name"), now.get("name")
        kind = "rename" if old in _aliases(now) else "unrename" if new in _aliases(then) else None
    elif now and not then and now.get("revealed"):  # named anew from a later chapter on
        old, new, kind = next(iter(_aliases(now)), None), now.get("name"), "rename"
    elif then and not now and then.get("revealed"):  # and that taken back
        new, old, kind = next(iter(_aliases(then)), None), then.get("name"), "unrename"
    else:
        return None
    if kind is None or not isinstance(old, str) or not isinstance(new, str):
        return None
    return kind, old, new


def _intros(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A result's introductions by entity id (the last, where one is given twice)."""
    return {
        e["id"]: e
        for e in _listed(result, "entities_new")
        if isinstance(e, dict) and isinstance(e.get("id"), str)
    }


def _aliases(intro: dict[str, Any]) -> list[str]:
    aliases = intro.get("aliases")
    return [a for a in aliases if isinstance(a, str)] if isinstance(aliases, list) else []


def _retracted_titles(log: Sequence[CommitEntry], named: list[Named]) -> list[Named]:
    """A retraction named with the title of the commit it took back (the chapter's latest
    commit before it, where the log read holds it)."""
    out = list(named)
    for i, entry in enumerate(log):
        if entry.kind != "retraction":
            continue
        taken = next(
            (
                what
                for earlier, what in zip(log[i + 1 :], named[i + 1 :], strict=True)
                if earlier.kind == "commit" and earlier.chapter == entry.chapter
            ),
            None,
        )
        if taken is not None:
            out[i] = replace(out[i], title=taken.title)
    return out


def _listed(result: dict[str, Any], key: str) -> list[Any]:
    """A list of a stored result, or none (a received book's log is anyone's)."""
    value = result.get(key)
    return value if isinstance(value, list) else []


def _about(item: Any, entity: str) -> bool:
    return isinstance(item, dict) and item.get("id") == entity


def _same_run(newer: tuple[CommitEntry, Named], older: tuple[CommitEntry, Named]) -> bool:
    """Whether two commits, next to each other in the log, belong to one run: of one kind, and
    for new chapters committed back to back (an import's, not a writer's day by day)."""
    family = _family(newer[1])
    if family != _family(older[1]):
        return False
    if family != "chapter":
        return True
    try:
        gap = datetime.fromisoformat(newer[0].recorded_at) - datetime.fromisoformat(
            older[0].recorded_at
        )
    except ValueError:  # a received book's log is anyone's
        return False
    return gap.total_seconds() <= IMPORT_GAP


def _family(what: Named) -> str:
    if what.kind in ("rename", "unrename"):
        return "rename"
    return "candidate" if what.kind in ("accept", "merge", "naming") else what.kind


def _fold(run: Sequence[tuple[CommitEntry, Named]]) -> list[CommitLine]:
    """A run of one kind as lines: folded into one when it is a run of candidates (two commits
    or more); a run of new chapters keeps its newest few and folds the rest (FOLD_CHAPTERS or
    more); else a line each."""
    family = _family(run[0][1])
    settled = _settle_naming(run)
    # rows are made only for what is shown (a long import's run is 120 commits); `count` is
    # how many there are
    if family in ("candidate", "rename"):  # one row an answer, whatever chapters it rewrote
        actions = _actions(settled)
        count = len(actions)
        rows = [
            _row(*_summed(action), chapters=_chapters(action)) for action in actions[:FOLD_ROWS]
        ]
    else:
        count = len(settled)
        rows = [_row(entry, what) for entry, what in settled[: KEEP_NEWEST + FOLD_ROWS]]
    chapters = sorted(entry.chapter for entry, _ in run)
    span = (
        say("commits_chapter", chapter=chapters[0])
        if chapters[0] == chapters[-1]
        else say("commits_chapters", first=chapters[0], last=chapters[-1])
    )
    if family == "candidate" and len(run) >= 2:
        kinds = {what.kind for _, what in settled}
        names = {what.name for _, what in run}
        key = "commits_accepted" if kinds == {"accept"} else "commits_merged"
        if len(kinds) > 1:
            key = "commits_named"
        return [_folded(say(key, count=len(names), span=span), rows, count)]
    if family == "chapter" and len(run) >= KEEP_NEWEST + FOLD_CHAPTERS:
        # the newest few as they are (a book written chapter by chapter reads as before),
        # the rest of the run, an import's, folded
        older = sorted(entry.chapter for entry, _ in run[KEEP_NEWEST:])
        span = say("commits_chapters", first=older[0], last=older[-1])
        return [
            *(CommitLine(summary=None, rows=[row]) for row in rows[:KEEP_NEWEST]),
            _folded(
                say("commits_new", count=len(older), span=span),
                rows[KEEP_NEWEST:],
                count - KEEP_NEWEST,
            ),
        ]
    return [CommitLine(summary=None, rows=[row]) for row in rows]


def _folded(summary: str, rows: list[CommitRow], count: int) -> CommitLine:
    """A folded line opens on its newest FOLD_ROWS rows (of `count`) and says how many more
    it holds."""
    return CommitLine(
        summary=summary,
        rows=rows[:FOLD_ROWS],
        more=say("commits_more", count=count - FOLD_ROWS) if count > FOLD_ROWS else None,
    )


def _settle_naming(
    run: Sequence[tuple[CommitEntry, Named]],
) -> list[tuple[CommitEntry, Named]]:
    """A later chapter's commit of an accept or merge takes its kind (and type) from the
    commit that introduced the name (the one just before it in time: later in this newest-first
    run); one whose introduction is out of sight is called an accept."""
    out = []
    for i, (entry, what) in enumerate(run):
        if what.kind == "naming":
            first = next(
                (w for _, w in run[i + 1 :] if w.name == what.name and w.kind != "naming"), None
            )
            kind = first.kind if first else "accept"
            what = Named(
                kind,
                what.name,
                first.entity_type if first else None,
                what.title,
                first.into if first else None,
            )
        out.append((entry, what))
    return out


def _actions(
    run: Sequence[tuple[CommitEntry, Named]],
) -> list[list[tuple[CommitEntry, Named]]]:
    """A candidate run as answers: the consecutive commits one accept or merge made (one for
    each chapter naming the name)."""
    out: list[list[tuple[CommitEntry, Named]]] = []
    for entry, what in run:
        if out and out[-1][-1][1].name == what.name and out[-1][-1][1].kind == what.kind:
            out[-1].append((entry, what))
        else:
            out.append([(entry, what)])
    return out


def _summed(action: Sequence[tuple[CommitEntry, Named]]) -> tuple[CommitEntry, Named]:
    """One answer's commits as one: the latest's time, the sum of what they did and cost;
    named by the chapter that introduced the name (its first)."""
    entries = [entry for entry, _ in action]
    counted = [e.counts for e in entries if e.counts]
    counts = (
        replace(  # a CommitCounts, made from one (the dashboard does not import memory's types)
            counted[0],
            added=sum(c.added for c in counted),
            superseded=sum(c.superseded for c in counted),
            contradicted=sum(c.contradicted for c in counted),
            tentative=sum(c.tentative for c in counted),
        )
        if counted
        else None
    )
    timed = [e.elapsed_ms for e in entries if e.elapsed_ms is not None]
    conflicts = [e.conflicts for e in entries if e.conflicts is not None]
    first = min(action, key=lambda pair: pair[0].chapter)
    return (
        replace(
            entries[0],
            chapter=first[0].chapter,
            counts=counts,
            elapsed_ms=sum(timed) if timed else None,
            conflicts=sum(conflicts) if conflicts else None,
        ),
        first[1],
    )


def _chapters(action: Sequence[tuple[CommitEntry, Named]]) -> str | None:
    """The chapters one answer committed, where more than one: 2、3、5."""
    chapters = sorted({entry.chapter for entry, _ in action})
    return "、".join(map(str, chapters)) if len(chapters) > 1 else None


def _row(entry: CommitEntry, what: Named, chapters: str | None = None) -> CommitRow:
    did = {
        "accept": lambda: say("commit_did_accept", name=what.name, type=what.entity_type or ""),
        "merge": lambda: say("commit_did_merge", name=what.name, into=what.into or ""),
        "rewrite": lambda: say("commit_did_rewrite"),
        "rename": lambda: say("commit_did_rename", old=what.old_name, new=what.name),
        "unrename": lambda: say("commit_did_unrename", old=what.old_name, new=what.name),
        "retraction": lambda: say("commit_did_retract", chapter=entry.chapter),
    }.get(what.kind)
    return CommitRow(
        entry=entry,
        chapters=chapters,
        title=what.title,
        did=did() if did else None,
        changes=[
            (say(f"overview_{key}"), getattr(entry.counts, key))
            for key in ("added", "superseded", "contradicted", "tentative")
        ]
        if entry.counts
        else [],
    )
