"""`webnovel chapter N` as text: one chapter as memory holds it, in the author's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..book.words import (
    CONFLICT_KIND,
    CONFLICT_STATUS,
    FIELD,
    SCENE_MODE,
    SECRET_ACTION,
    SEVERITY,
    THREAD_ACTION,
    THREAD_STATUS,
    chapter_named,
    ending_words,
    label,
)
from ..messages import say

if TYPE_CHECKING:
    from ..book.values import (
        Change,
        ChapterReport,
        Conflict,
        EventSeen,
        SceneSeen,
        SecretTouched,
        ThreadTouched,
    )


def _value(value: Any) -> str:
    if value is None:
        return say("value_none")
    if isinstance(value, list):
        return _listed(value) or say("value_empty")
    return str(value)


def _listed(names: Any) -> str:
    return str(say("argument_list_separator").join(map(str, names)))


def chapter_text(report: ChapterReport) -> str:
    lines = [chapter_named(report.chapter, report.title) + _words(report.word_count)]
    if report.summary:
        lines += ["", report.summary]
    if report.ending and (said := ending_words(report.ending)):
        lines.append(say("chapter_report_ending", ending=said))
    if report.introduced:
        lines.append(say("chapter_report_introduced", names=_listed(report.introduced)))
    lines += _block(say("chapter_block_scenes"), [_scene(s) for s in report.scenes])
    lines += _block(say("chapter_block_events"), [_event(e) for e in report.events])
    lines += _block(say("chapter_block_changes"), [_change(c) for c in report.changes])
    lines += _block(say("chapter_block_threads"), [_thread(t) for t in report.threads])
    lines += _block(say("chapter_block_secrets"), [_secret(s) for s in report.secrets])
    lines += _block(say("chapter_block_conflicts"), [_conflict(c) for c in report.conflicts])
    return "\n".join(lines)


def _words(count: int | None) -> str:
    return say("chapter_report_chars", count=count) if count else ""


def _block(title: str, rows: list[str]) -> list[str]:
    return ["", say("chapter_block_head", title=title)] + (rows or [say("value_none")])


def _at(place: str | None) -> str:
    return say("line_at_place", place=place) if place else ""


def _scene(s: SceneSeen) -> str:
    who = _listed(s.characters) or say("scene_nobody")
    words = (label(SCENE_MODE, s.flashback), s.time)
    when = "".join(say("line_bracketed", word=w) for w in words if w)
    parts = {"index": s.index, "when": when, "who": who, "where": _at(s.location)}
    if s.summary:
        return say("line_scene", summary=s.summary, **parts)
    return say("line_scene_bare", **parts)


def _event(e: EventSeen) -> str:
    who = say("line_parenthesized", text=_listed(e.participants)) if e.participants else ""
    mode = say("line_bracketed", word=label(SCENE_MODE, e.flashback)) if e.flashback else ""
    return say("line_event", mode=mode, event=e.event, where=_at(e.location), who=who)


def _change(c: Change) -> str:
    if c.family == "rel":
        what = say("line_relation_change", subject=c.subject_name, type=c.field)
    else:
        what = say("line_field_change", subject=c.subject_name, field=FIELD.get(c.field, c.field))
    why = say("line_parenthesized", text=c.reason) if c.reason else ""
    return say("line_change", what=what, before=_value(c.before), after=_value(c.after), why=why)


def _thread(t: ThreadTouched) -> str:
    return say(
        "line_thread",
        action=THREAD_ACTION.get(t.action, t.action),
        content=t.content,
        progress=say("pack_thread_progress", progress=t.progress) if t.progress else "",
        status=THREAD_STATUS.get(t.status or "", t.status or ""),
    )


def _secret(s: SecretTouched) -> str:
    return say(
        "line_secret",
        who=say("line_secret_who", who=s.who) if s.who else "",
        action=SECRET_ACTION.get(s.action, s.action),
        content=s.content,
        how=say("line_parenthesized", text=s.how) if s.how else "",
    )


def _conflict(c: Conflict) -> str:
    from ..book.rulebook import RULES  # only a chapter with conflicts needs it

    rule = RULES.get(c.kind)
    status = CONFLICT_STATUS.get(c.status, c.status)
    return say(
        "line_conflict",
        severity=SEVERITY.get(rule.severity, rule.severity) if rule else "",
        kind=CONFLICT_KIND.get(c.kind, c.kind),
        message=c.message,
        settled="" if c.status == "open" else say("line_conflict_settled", status=status),
    )
