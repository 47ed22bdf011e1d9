"""Text renderings for a person at a terminal; JSON output is the objects' `to_dict()`."""

from __future__ import annotations

import json
from typing import Any


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def value_text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return "null" if value is None else str(value)


def interval(valid_from: int, valid_to: int | None) -> str:
    return f"ch{valid_from}–" + (f"ch{valid_to}" if valid_to is not None else "now")


def evidence_text(evidence: list[dict[str, Any]]) -> str:
    parts = []
    for item in evidence:
        quote = f" “{item['quote']}”" if item.get("quote") else ""
        parts.append(f"ch{item.get('chapter')} {item.get('ref', '')}{quote}")
    return "; ".join(parts)


def fact_text(d: dict[str, Any]) -> str:
    if not d.get("found"):
        return f"{d['entity_id']}.{d['field']}: (no value)"
    return (
        f"{d['entity_name']} ({d['entity_id']}).{d['field']} = {value_text(d['value'])}  "
        f"[{d['status']}, {interval(d['valid_from'], d['valid_to'])}, "
        f"from ch{d['source']['chapter']} {d['source']['type']}]"
    )


def history_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no history)"
    lines = []
    for d in items:
        lines.append(
            f"{d['field']:<12} {value_text(d['value']):<20} "
            f"{interval(d['valid_from'], d['valid_to']):<12} {d['status']:<12} "
            f"{evidence_text(d['evidence'])}"
        )
    return "\n".join(lines)


def relations_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no relations)"
    return "\n".join(
        f"{d['from']} —{d['type']}→ {d['to']}  "
        f"[{d['status']}, {interval(d['valid_from'], d['valid_to'])}]"
        + (f"  {d['description']}" if d.get("description") else "")
        for d in items
    )


def threads_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no threads)"
    lines = []
    for d in items:
        due = f" due ch{d['due_chapter']}" if d.get("due_chapter") else ""
        flag = " OVERDUE" if d.get("overdue") else ""
        planted = d.get("planted_chapter")
        lines.append(
            f"[{d['status']}{flag}] {d['id']} ({d['kind']}, planted ch{planted}{due}): "
            f"{d['content']}"
        )
    return "\n".join(lines)


def rules_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no rules in force)"
    return "\n".join(
        f"{d['id']} [{d.get('domain') or '-'}] {d['rule']}  "
        f"({interval(d['valid_from'], d['valid_to'])})"
        for d in items
    )


def timeline_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no events)"
    return "\n".join(
        f"ch{d['chapter']:<5} {d['event']}"
        + (f"  @{d['location']}" if d.get("location") else "")
        + (f"  ({d['time_hint']})" if d.get("time_hint") else "")
        for d in items
    )


def conflicts_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no open conflicts)"
    return "\n".join(
        f"{d['id']} ch{d['chapter']} {d['kind']}"
        + (f" [{d['status']}]" if d.get("status", "open") != "open" else "")
        + f": {d['message']}"
        for d in items
    )


def commit_text(d: dict[str, Any]) -> str:
    counts = d["counts"]
    lines = [
        f"chapter {d['chapter']}: {d['status']} ({d['commit_id']})",
        f"  added {counts['added']}, superseded {counts['superseded']}, "
        f"contradicted {counts['contradicted']}, tentative {counts['tentative']}",
    ]
    lines += [f"  conflict: {c['message']}" for c in d["conflicts"]]
    lines += [f"  warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


def mapping_text(d: dict[str, Any], indent: int = 0) -> str:
    lines = []
    for key, value in d.items():
        if isinstance(value, dict):
            lines.append(" " * indent + f"{key}:")
            lines.append(mapping_text(value, indent + 2))
        else:
            lines.append(" " * indent + f"{key}: {value_text(value)}")
    return "\n".join(lines)


def resume_text(d: dict[str, Any]) -> str:
    lines = [f"《{d['book']['title']}》: {d['latest_chapter'] or 0} chapters committed"]
    if d["last_chapter"]:
        last = d["last_chapter"]
        lines.append(f"Last chapter: {last['title'] or ''} — {last['summary'] or ''}")
    if d["protagonist"]:
        p = d["protagonist"]
        state = ", ".join(f"{k} {value_text(v)}" for k, v in p["now"].items())
        lines.append(f"Protagonist: {p['name']} — {state}")
    lines += ["", "Open threads:", threads_text(d["open_threads"])]
    lines += ["", "Open conflicts:", conflicts_text(d["open_conflicts"])]
    nxt = d["next_chapter"]
    if nxt["outline_found"]:
        names = "、".join(e["name"] for e in nxt["named_entities"]) or "(no known entity)"
        lines += ["", f"Next: chapter {nxt['chapter']}; its outline names {names}"]
    else:
        lines += ["", f"Next: chapter {nxt['chapter']} (no outline file in outlines/)"]
    return "\n".join(lines)


def review_text(d: dict[str, Any]) -> str:
    if not d["issues"]:
        return f"chapter {d['chapter']}: no issues"
    lines = [f"chapter {d['chapter']}: {len(d['issues'])} issue(s), {d['blocking']} blocking"]
    for issue in d["issues"]:
        lines.append(f"[{issue['severity']}] {issue['category']}: {issue['message']}")
        if issue["fix_hint"]:
            lines.append(f"    → {issue['fix_hint']}")
    return "\n".join(lines)


def search_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(nothing found)"
    lines = []
    for hit in items:
        text = hit["text"].replace("\n", " ")
        lines.append(f"ch{hit['chapter']} {hit['kind']} [{hit['score']:.4f}] {hit['chunk_id']}")
        lines.append(f"    {text[:160]}{'…' if len(text) > 160 else ''}")
    return "\n".join(lines)


def entities_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no entities)"
    lines = []
    for d in items:
        aliases = f" ({'、'.join(d['aliases'])})" if d["aliases"] else ""
        star = " ★" if d["is_protagonist"] else ""
        lines.append(
            f"{d['id']:<14} {d['name']}{aliases} [{d['type']}] since ch{d['first_chapter']}{star}"
        )
    return "\n".join(lines)
