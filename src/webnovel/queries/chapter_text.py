"""`webnovel chapter N` as text: one chapter as memory holds it, in the author's words."""

from __future__ import annotations

from typing import Any

from ..book.words import (
    CONFLICT_KIND,
    CONFLICT_STATUS,
    ENDING,
    FIELD,
    SECRET_ACTION,
    SEVERITY,
    THREAD_ACTION,
    THREAD_STATUS,
)


def _value(value: Any) -> str:
    if value is None:
        return "（无）"
    if isinstance(value, list):
        return "、".join(map(str, value)) or "（空）"
    return str(value)


def chapter_text(d: dict[str, Any]) -> str:
    lines = [f"第{d['chapter']}章《{d.get('title') or ''}》" + _words(d.get("word_count"))]
    if d.get("summary"):
        lines += ["", d["summary"]]
    if d.get("ending"):
        said = "，".join(f"{ENDING.get(k, k)}：{v}" for k, v in d["ending"].items() if v)
        lines.append(f"结尾：{said}")
    if d.get("introduced"):
        lines.append(f"新登场：{'、'.join(d['introduced'])}")
    lines += _block("场景", [_scene(s) for s in d["scenes"]])
    lines += _block("事件", [_event(e) for e in d["events"]])
    lines += _block("变化", [_change(c) for c in d["changes"]])
    lines += _block("伏笔", [_thread(t) for t in d["threads"]])
    lines += _block("秘密", [_secret(s) for s in d["secrets"]])
    lines += _block("矛盾", [_conflict(c) for c in d["conflicts"]])
    return "\n".join(lines)


def _words(count: int | None) -> str:
    return f"（{count}字）" if count else ""


def _block(title: str, rows: list[str]) -> list[str]:
    return ["", f"【{title}】"] + (rows or ["（无）"])


def _scene(s: dict[str, Any]) -> str:
    where = f"＠{s['location']}" if s.get("location") else ""
    who = "、".join(s["characters"]) or "（无人）"
    return f"{s['index']}. {who}{where}：{s.get('summary') or ''}".rstrip("：")


def _event(e: dict[str, Any]) -> str:
    where = f"＠{e['location']}" if e.get("location") else ""
    who = f"（{'、'.join(e['participants'])}）" if e.get("participants") else ""
    return f"- {e['event']}{where}{who}"


def _change(c: dict[str, Any]) -> str:
    if c["family"] == "rel":
        what = f"{c['subject_name']} → {c['field']}"
    else:
        what = f"{c['subject_name']} {FIELD.get(c['field'], c['field'])}"
    why = f"（{c['reason']}）" if c.get("reason") else ""
    return f"- {what}：{_value(c['before'])} → {_value(c['after'])}{why}"


def _thread(t: dict[str, Any]) -> str:
    action = THREAD_ACTION.get(t["action"], t["action"])
    progress = f"；进展：{t['progress']}" if t.get("progress") else ""
    status = THREAD_STATUS.get(t.get("status") or "", t.get("status") or "")
    return f"- {action}：{t['content']}{progress}（{status}）"


def _secret(s: dict[str, Any]) -> str:
    action = SECRET_ACTION.get(s["action"], s["action"])
    who = f"{s['who']} " if s.get("who") else ""
    how = f"（{s['how']}）" if s.get("how") else ""
    return f"- {who}{action}：{s['content']}{how}"


def _conflict(c: dict[str, Any]) -> str:
    from ..book.rulebook import RULES  # only a chapter with conflicts needs it

    rule = RULES.get(c["kind"])
    severity = SEVERITY.get(rule.severity, rule.severity) if rule else ""
    kind = CONFLICT_KIND.get(c["kind"], c["kind"])
    status = c.get("status") or "open"
    settled = "" if status == "open" else f"［{CONFLICT_STATUS.get(status, status)}］"
    return f"- 【{severity}·{kind}】{c['message']}{settled}"
