"""`webnovel chapter N` as text: one chapter as memory holds it, in the author's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..book.words import (
    CONFLICT_KIND,
    CONFLICT_STATUS,
    ENDING,
    FIELD,
    SCENE_MODE,
    SECRET_ACTION,
    SEVERITY,
    THREAD_ACTION,
    THREAD_STATUS,
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
        return "、".join(map(str, value)) or say("value_empty")
    return str(value)


def chapter_text(report: ChapterReport) -> str:
    head = (  # a chapter with no title (an imported 「第二章」) is not shown with empty 《》
        say("chapter_report_head", chapter=report.chapter, title=report.title)
        if report.title
        else say("chapter_n", n=report.chapter)
    )
    lines = [head + _words(report.word_count)]
    if report.summary:
        lines += ["", report.summary]
    if report.ending:
        said = "，".join(f"{ENDING.get(k, k)}：{v}" for k, v in report.ending.items() if v)
        lines.append(say("chapter_report_ending", ending=said))
    if report.introduced:
        lines.append(say("chapter_report_introduced", names="、".join(report.introduced)))
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


def _scene(s: SceneSeen) -> str:
    where = f"＠{s.location}" if s.location else ""
    who = "、".join(s.characters) or say("scene_nobody")
    when = "".join(f"〔{w}〕" for w in (label(SCENE_MODE, s.flashback), s.time) if w)
    return f"{s.index}. {when}{who}{where}：{s.summary or ''}".rstrip("：")


def _event(e: EventSeen) -> str:
    where = f"＠{e.location}" if e.location else ""
    who = f"（{'、'.join(e.participants)}）" if e.participants else ""
    mode = f"〔{label(SCENE_MODE, e.flashback)}〕" if e.flashback else ""
    return f"- {mode}{e.event}{where}{who}"


def _change(c: Change) -> str:
    if c.family == "rel":
        what = f"{c.subject_name} → {c.field}"
    else:
        what = f"{c.subject_name} {FIELD.get(c.field, c.field)}"
    why = f"（{c.reason}）" if c.reason else ""
    return f"- {what}：{_value(c.before)} → {_value(c.after)}{why}"


def _thread(t: ThreadTouched) -> str:
    action = THREAD_ACTION.get(t.action, t.action)
    progress = say("pack_thread_progress", progress=t.progress) if t.progress else ""
    status = THREAD_STATUS.get(t.status or "", t.status or "")
    return f"- {action}：{t.content}{progress}（{status}）"


def _secret(s: SecretTouched) -> str:
    action = SECRET_ACTION.get(s.action, s.action)
    who = f"{s.who} " if s.who else ""
    how = f"（{s.how}）" if s.how else ""
    return f"- {who}{action}：{s.content}{how}"


def _conflict(c: Conflict) -> str:
    from ..book.rulebook import RULES  # only a chapter with conflicts needs it

    rule = RULES.get(c.kind)
    severity = SEVERITY.get(rule.severity, rule.severity) if rule else ""
    kind = CONFLICT_KIND.get(c.kind, c.kind)
    settled = "" if c.status == "open" else f"［{CONFLICT_STATUS.get(c.status, c.status)}］"
    return f"- 【{severity}·{kind}】{c.message}{settled}"
