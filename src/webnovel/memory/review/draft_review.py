"""Review: check a draft chapter result against memory as of the chapter before, write nothing.

Review runs the commit's own rules: the draft is applied by the write pipeline inside a
transaction that is always rolled back, and what that commit found about the chapter (its
conflicts and its notes) becomes the review's issues, with severities and fix hints from the
rulebook. So review and commit judge by one rule set. Review adds only what a commit cannot see:
threads the draft leaves due or overdue, and the scene change from the chapter before.

Every finding is an issue with a severity, never an error: an unknown entity in a draft is
something to fix, not a failed command. Critical and high issues are `blocking` (`commit --check`
refuses them unless forced); medium and low ones are advice.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ...messages import say
from ..read import as_of_reads
from ..records import Conflict
from ..store import commit_ops
from ..store.connection import Connection
from ..write.chapter_inputs import ChapterResult
from ..write.name_suggestions import did_you_mean, suggest_names
from ..write.rulebook import BLOCKING, SEVERITIES, rule_for
from ..write.write_pipeline import WritePipeline
from .knowledge_advice import unrecorded_learning
from .scene_places import ending_continuity, scene_locations


@dataclass(frozen=True, kw_only=True)
class ReviewIssue:
    severity: str
    category: str
    message: str
    entity_id: str | None = None
    field: str | None = None
    expected: Any = None
    found: Any = None
    evidence: tuple[dict[str, Any], ...] = ()
    fix_hint: str = ""
    # what an unknown reference was likely meant to be (names or ids), as get_fact suggests
    suggestions: tuple[str, ...] = ()
    # the published chapters (at or below the published line) whose evidence the issue
    # contradicts: readers have them, so the story must 圆 it forward, not fix them in place
    contradicts_published: tuple[int, ...] = ()

    @property
    def blocking(self) -> bool:
        return self.severity in BLOCKING

    def to_dict(self) -> dict[str, Any]:
        data = {
            "severity": self.severity,
            "category": self.category,
            "message": self.message,
            "entity_id": self.entity_id,
            "field": self.field,
            "expected": self.expected,
            "found": self.found,
            "evidence": list(self.evidence),
            "fix_hint": self.fix_hint,
            "blocking": self.blocking,
            "contradicts_published": list(self.contradicts_published),
        }
        if self.suggestions:
            data["suggestions"] = list(self.suggestions)
        # the ids a name may mean, by name, for an agent to choose one of (its `found` too)
        if self.category == "ambiguous_alias" and isinstance(self.found, list):
            data["candidates"] = list(self.found)
        elif self.category in {"name_taken", "alias_taken"} and isinstance(self.expected, str):
            data["candidates"] = [self.expected]
        return data


@dataclass
class ReviewReport:
    chapter: int
    issues: list[ReviewIssue] = field(default_factory=list)
    normalized: list[str] = field(default_factory=list)  # what intake rewrote in the draft
    own_words: list[str] = field(default_factory=list)  # of those, the author's own words

    @property
    def blocking(self) -> list[ReviewIssue]:
        return [i for i in self.issues if i.blocking]

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "issues": [i.to_dict() for i in self.issues],
            "blocking": len(self.blocking),
            "normalized": list(self.normalized),
        }


def review_draft(
    pipeline: WritePipeline, draft: ChapterResult, published_through: int | None = None
) -> ReviewReport:
    """Commit the draft for real inside a transaction that is rolled back, and report what the
    commit found about this chapter, plus what the draft leaves undone around it. With a
    published line, each issue names the published chapters its evidence cites."""
    chapter = draft.chapter
    report = ReviewReport(chapter)
    store = pipeline.index
    with store.trial() as conn:
        replaced = _registered(conn, chapter)  # before the draft stands in its place
        outcome = pipeline.apply(draft, datetime.now(UTC).isoformat(timespec="seconds"))
        found = [c for c in outcome.conflicts if c.chapter == chapter] + outcome.notes
        report.issues += [_issue(c, conn, replaced, chapter) for c in found]
        report.issues += _threads(conn, draft, chapter)
        for kind, message, expected, found_at, who, evidence in [
            *scene_locations(conn, draft),
            *ending_continuity(conn, draft),
        ]:
            issue = _advice(kind, message, "location", expected, found_at, evidence)
            report.issues.append(replace(issue, entity_id=who))
        report.issues += [
            _advice("knowledge_unrecorded", message, secret_id, None, who, (evidence,))
            for who, secret_id, message, evidence in unrecorded_learning(conn, draft)
        ]
    if published_through is not None:
        report.issues = [_published(i, chapter, published_through) for i in report.issues]
    report.issues.sort(key=lambda i: (SEVERITIES.index(i.severity), i.category, i.entity_id or ""))
    return report


# What a draft leaves undone (a thread past its due chapter, a promise due now, a deadline
# passed in story time) and the question whether someone has learned a secret contradict no
# chapter: their evidence is where the thread or the secret was planted.
_REMINDERS = frozenset({"thread_overdue", "promise_due", "deadline_passed", "knowledge_unrecorded"})


def _published(issue: ReviewIssue, chapter: int, line: int) -> ReviewIssue:
    """The issue with the published chapters (other than the draft's own) its evidence cites,
    when it is a contradiction (not a reminder of something left undone)."""
    if issue.category in _REMINDERS:
        return issue
    cited = {e.get("chapter") for e in issue.evidence}
    published = sorted(c for c in cited if isinstance(c, int) and c != chapter and c <= line)
    return replace(issue, contradicts_published=tuple(published)) if published else issue


def _registered(conn: Connection, chapter: int) -> dict[str, str]:
    """Each id, name and alias the chapter's current result registers (`entities_new`) → the
    name it registers: what a draft replacing that result leaves unknown if it omits it."""
    stored = commit_ops.current_commit(conn, chapter)
    result = stored["result"] if stored else None
    found: dict[str, str] = {}
    for intro in (result.get("entities_new") or []) if isinstance(result, dict) else []:
        if isinstance(intro, dict) and isinstance(intro.get("id"), str):
            name = str(intro.get("name") or intro["id"])
            for said in (intro["id"], intro.get("name"), *(intro.get("aliases") or [])):
                if isinstance(said, str):
                    found[said] = name
    return found


def _issue(
    found: Conflict, conn: Connection, replaced: dict[str, str], chapter: int
) -> ReviewIssue:
    rule = rule_for(found.kind)
    message = found.message
    hint = rule.fix_hint
    suggestions: tuple[str, ...] = ()
    if found.kind == "unknown_entity" and isinstance(found.found, str):
        if found.found in replaced:  # registered by the result the draft replaces: not new
            hint = say("hint_unknown_entity_replaced", name=replaced[found.found], chapter=chapter)
        else:
            message += did_you_mean(conn, found.found)  # 林言 → 「林砚」: a slip, not a newcomer
            suggestions = tuple(suggest_names(conn, found.found))
    return ReviewIssue(
        severity=rule.severity,
        category=found.kind,
        message=message,
        entity_id=found.entity_id,
        field=found.field,
        expected=found.expected,
        found=found.found,
        evidence=found.evidence,
        fix_hint=hint,
        suggestions=suggestions,
    )


def _threads(conn: Connection, draft: ChapterResult, chapter: int) -> list[ReviewIssue]:
    """Threads open before the chapter that the draft leaves due or overdue."""
    closing = {t.id for t in draft.threads if t.action in ("resolve", "abandon")}
    issues = []
    for thread in as_of_reads.threads(conn, "open", chapter - 1, chapter - 1):
        if thread.due_chapter is None or thread.id in closing:
            continue
        evidence = (
            {
                "chapter": thread.planted_chapter,
                "ref": f"thread:{thread.id}:plant",
                "quote": thread.content,
            },
        )
        if thread.due_chapter < chapter:
            issues.append(
                _advice(
                    "thread_overdue",
                    say("review_thread_overdue", thread=thread.content, due=thread.due_chapter),
                    thread.id,
                    thread.due_chapter,
                    chapter,
                    evidence,
                )
            )
        elif thread.due_chapter == chapter and thread.kind == "reader_promise":
            issues.append(
                _advice(
                    "promise_due",
                    say("review_promise_due", thread=thread.content, chapter=chapter),
                    thread.id,
                    chapter,
                    None,
                    evidence,
                )
            )
    return issues


def _advice(
    kind: str,
    message: str,
    field_name: str,
    expected: Any,
    found: Any,
    evidence: tuple[dict[str, Any], ...],
) -> ReviewIssue:
    rule = rule_for(kind)
    return ReviewIssue(
        severity=rule.severity,
        category=kind,
        message=message,
        entity_id=None,
        field=field_name,
        expected=expected,
        found=found,
        evidence=evidence,
        fix_hint=rule.fix_hint,
    )
