"""The author's reading of each query's answer: Chinese labels, entities by name, columns padded
by display width (a CJK character takes two columns). The query table (queries/table.py) names
one of these for each query; the CLI prints it for `--format text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..book.coverage import coverage_line
from ..book.words import (
    ADVICE_KIND,
    CHUNK_KIND,
    CONFLICT_KIND,
    CONFLICT_STATUS,
    FIELD,
    SCENE_MODE,
    SECRET_KIND,
    SOURCE,
    STATUS,
    THREAD_KIND,
    THREAD_STATUS,
    day_words,
    label,
    sizes_shown,
)
from ..messages import say

if TYPE_CHECKING:
    from ..book.reports import BookStats
    from ..book.resume import Resume
    from ..book.values import (
        Conflict,
        Entity,
        Evidence,
        Knowledge,
        RelationEdge,
        SearchHit,
        Secret,
        Thread,
        TimelineEvent,
        Together,
        WorldRule,
    )
    from .answers import FactAnswer, FieldUse, Versions


def width(text: str) -> int:
    """Columns `text` takes on a terminal: wide and full-width characters take two."""
    import unicodedata  # here: JSON output (an agent's) never measures, and the load is 3 ms

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def table(rows: list[list[str]]) -> str:
    """Rows of cells, each column padded to its widest cell (the last one is not padded)."""
    if not rows:
        return ""
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join([*(pad(cell, w) for cell, w in zip(row, widths, strict=False)), row[-1]]).rstrip()
        for row in rows
    )


def value_text(value: Any) -> str:
    if isinstance(value, list):
        return "、".join(map(str, value)) or "（空）"
    return "（无）" if value is None else str(value)


def interval(valid_from: int, valid_to: int | None) -> str:
    """`[valid_from, valid_to)` in words; a value replaced within its own chapter held only
    inside it."""
    if valid_to is None:
        return f"第{valid_from}章起"
    if valid_to <= valid_from:
        return f"第{valid_from}章内（当章即被取代）"
    if valid_to == valid_from + 1:
        return f"第{valid_from}章"
    return f"第{valid_from}–{valid_to - 1}章"


def evidence_text(evidence: Sequence[Evidence]) -> str:
    parts = []
    for item in evidence:
        # Without a quote, say what kind of record it was (登场, 状态变化), not its raw ref.
        kind = str(item.get("ref", "")).split(":")[0]
        quote = f"“{item['quote']}”" if item.get("quote") else SOURCE.get(kind, kind)
        parts.append(f"第{item.get('chapter')}章 {quote}")
    return "；".join(parts)


def _field_meant(written: str) -> str | None:
    """The built-in field a field no vocabulary knows was probably meant to be (`relam`: 境界)."""
    if written in FIELD:
        return None
    import difflib  # only when a field is not found

    close = difflib.get_close_matches(written, list(FIELD), n=1, cutoff=0.7)
    return FIELD[close[0]] if close else None


def fact_text(answer: FactAnswer) -> str:
    shown = answer.field_label or label(FIELD, answer.field)
    if not answer.found:
        line = f"{answer.entity_name or answer.entity_id}的{shown}：（无记录）"
        meant = _field_meant(answer.field)
        if meant:
            line += f"\n  是否指「{meant}」？"
        if answer.known_fields:
            line += "\n  有记录的字段：" + "、".join(answer.known_fields)
        return line
    if answer.holders is not None:  # who holds a named item: no single version to cite
        return f"{answer.entity_name}的持有者：{value_text([name for _, name in answer.holders])}"
    item = answer.item
    assert item is not None  # found, and not a holder answer
    aged = "" if answer.value_now is None else say("fact_value_now", value=answer.value_now)
    return (
        f"{item.subject_name}的{shown}：{value_text(item.value)}{aged}\n"
        f"  {STATUS.get(item.status, item.status)}，{interval(item.valid_from, item.valid_to)}，"
        f"出自第{item.source_chapter}章（{SOURCE.get(item.source_type, item.source_type)}）"
    )


def history_text(versions: Versions) -> str:
    if not versions.items:
        return "（无历史）"
    rows = [["字段", "值", "区间", "状态", "证据"]]
    rows += [
        [
            versions.labels.get(i.field) or label(FIELD, i.field),
            value_text(i.value),
            interval(i.valid_from, i.valid_to),
            STATUS.get(i.status, i.status),
            evidence_text(i.evidence),
        ]
        for i in versions.items
    ]
    return table(rows)


def relations_text(items: Sequence[RelationEdge]) -> str:
    if not items:
        return "（无关系）"
    rows = [
        [
            f"{r.source_name or r.source} —{r.type}→ {r.target_name or r.target}",
            STATUS.get(r.status, r.status),
            interval(r.valid_from, r.valid_to),
            r.description or "",
        ]
        for r in items
    ]
    return table(rows)


def threads_text(items: Sequence[Thread]) -> str:
    if not items:
        return "（无线索）"
    rows = []
    for t in items:
        status = THREAD_STATUS.get(t.status, t.status) + ("·逾期" if t.overdue else "")
        due = f"，应于第{t.due_chapter}章回收" if t.due_chapter else ""
        if t.due_time:  # due in story time: `clock` says how many days are left
            due += say("thread_due_time", due_time=t.due_time)
        # a thread acted on but never planted has no chapter to name (it printed 第None章)
        planted = (
            say("thread_planted_in", chapter=t.planted_chapter)
            if t.planted_chapter is not None
            else say("thread_never_planted")
        )
        rows.append(
            [
                f"[{status}]",
                t.id,
                f"{THREAD_KIND.get(t.kind, t.kind)}，{planted}{due}",
                t.content,
            ]
        )
    return table(rows)


def rules_text(items: Sequence[WorldRule]) -> str:
    if not items:
        return "（无生效的世界规则）"
    rows = [
        [r.id, f"[{r.domain or '—'}]", interval(r.valid_from, r.valid_to), r.rule] for r in items
    ]
    return table(rows)


def timeline_text(items: Sequence[TimelineEvent]) -> str:
    if not items:
        return "（无事件）"
    rows = [
        [
            (f"第{e.chapter}章" if not e.placed else _story_when(e)),
            (f"〔{label(SCENE_MODE, e.flashback)}〕" if e.flashback and not e.placed else "")
            + e.event
            + (f" ＠{e.location}" if e.location else "")
            + (f"（{e.time_hint}）" if e.time_hint else ""),
        ]
        for e in items
    ]
    return table(rows)


def _story_when(event: TimelineEvent) -> str:
    """An event's day on the story clock, its part of day, and the chapter that tells it."""
    when = day_words(event.day) + (event.part or "")
    mode = f"〔{label(SCENE_MODE, event.flashback)}〕" if event.flashback else ""
    return say("timeline_story_when", when=when, mode=mode, chapter=event.chapter)


def conflict_kind_word(kind: str) -> str:
    """A conflict's kind as an author reads it (a recorded kind, else an advice kind)."""
    return CONFLICT_KIND.get(kind) or ADVICE_KIND.get(kind) or kind


def settled_text(conflict_id: str, status: str, note: str | None) -> str:
    """What settling a conflict did, in one line."""
    why = f"（{note}）" if note else ""
    return f"矛盾 {conflict_id} 已标为「{label(CONFLICT_STATUS, status)}」{why}"


def conflicts_text(items: Sequence[Conflict]) -> str:
    if not items:
        return "（无未决矛盾）"
    rows = [
        [
            c.id,
            f"第{c.chapter}章",
            conflict_kind_word(c.kind)
            + (f"（{label(CONFLICT_STATUS, c.status)}）" if c.status != "open" else ""),
            c.message,
        ]
        for c in items
    ]
    return table(rows)


KEY_WORDS = {
    "book": "书",
    "title": "书名",
    "genre": "题材",
    "root": "目录",
    "store": "书库",
    "latest_chapter": "最新章节",
    "missing_chapters": "缺章",
    "published_through": "已发布至",
    "counts": "数量",
    "commits": "提交",
    "chapters": "章节",
    "entities": "实体",
    "assertions": "断言",
    "versions": "版本",
    "timeline_events": "事件",
    "scenes": "场景",
    "conflicts": "冲突",
    "open_conflicts": "未决冲突",
    "open_threads": "未回收线索",
    "sizes_bytes": "大小（字节）",
    "schema": "数据库结构",
    "indexed_chapters": "重建索引的章节",
    "memory_seconds": "重建记忆用时（秒）",
    "seconds": "总用时（秒）",
    "model": "向量模型",
    "embedded": "新做向量",
    "missing": "尚缺向量",
    "reused": "取自书库的向量",  # made by another machine, taken from a shared store
    # a damaged or foreign index.db made anew from its log by `rebuild` (store/recovery.py)
    "recovered": "已从提交日志修复",
    "problem": "原文件的问题",
    "commits_kept": "保留的提交",
    "commits_skipped": "读不出而舍弃的提交",
    "index_kept_as": "原 index.db 留作",
    "vectors_kept_as": "原 vectors.db 留作",
}


def stats_text(stats: BookStats) -> str:
    """The book's health, each part under its Chinese name."""
    shown = stats.to_dict()
    shown["sizes_bytes"] = sizes_shown(shown["sizes_bytes"], "store" in shown["book"])
    only = shown.pop("text_only_chapters", [])
    line = coverage_line(only)
    return mapping_text(shown) + (f"\n{line}" if line else "")


def mapping_text(d: dict[str, Any], indent: int = 0) -> str:
    lines = []
    for key, value in d.items():
        shown = KEY_WORDS.get(key, key)
        if isinstance(value, dict):
            lines.append(" " * indent + f"{shown}：")
            lines.append(mapping_text(value, indent + 2))
        else:
            lines.append(" " * indent + f"{shown}：{value_text(value)}")
    return "\n".join(lines)


def resume_text(brief: Resume) -> str:
    lines = [f"《{brief.book['title']}》：已提交至第 {brief.latest_chapter or 0} 章"]
    if brief.coverage_line:
        lines.append(brief.coverage_line)
    if brief.missing_chapters:
        lines.append(f"缺章：{chapter_list(brief.missing_chapters)}")
    if brief.published_through:
        lines.append(say("published_line_shown", line=brief.published_through))
    if brief.last_chapter:
        last = brief.last_chapter
        lines.append(f"上一章：《{last.title or ''}》 {last.summary or ''}")
    if brief.protagonist:
        p = brief.protagonist
        state = "，".join(f"{label(FIELD, k)} {value_text(v)}" for k, v in p.now.items())
        lines.append(f"主角：{p.name}（{state}）")
    lines += ["", "未回收的线索：", threads_text(brief.open_threads)]
    lines += ["", "未决矛盾：", conflicts_text(brief.open_conflicts)]
    if brief.outline_found:
        names = "、".join(e.name for e in brief.named_entities) or "（无已知实体）"
        lines += ["", f"下一章：第{brief.next_chapter}章；大纲提到 {names}"]
    else:
        lines += ["", f"下一章：第{brief.next_chapter}章（outlines/ 中没有大纲文件）"]
    return "\n".join(lines)


def search_text(hits: Sequence[SearchHit]) -> str:
    if not hits:
        return "（没有找到）"
    lines = []
    for hit in hits:
        kind = CHUNK_KIND.get(hit.kind, hit.kind)
        parts = [f"字面 {hit.lexical:.2f}"]
        if hit.semantic is not None:
            parts.append(f"语义 {hit.semantic:.2f}")
        weak = " 弱" if hit.weak else ""
        lines.append(
            f"第{hit.chapter}章 {kind} 相关度 {hit.score:.2f}（{' · '.join(parts)}）{weak}"
            f"  {hit.chunk_id}"
        )
        lines.append(f"    {_marked(hit)}")
        if hit.matched:
            lines.append(f"    命中：{'、'.join(hit.matched)}")
    return "\n".join(lines)


def _marked(hit: SearchHit) -> str:
    """The hit's snippet with its matches in 【】, else the opening of its text."""
    if hit.snippet:
        return hit.marked_snippet()
    text = hit.text.replace("\n", " ")
    return f"{text[:160]}{'…' if len(text) > 160 else ''}"


def entities_text(items: Sequence[Entity]) -> str:
    if not items:
        return "（无实体）"
    rows = [["名称", "类型", "登场", "别名", "id"]]
    rows += [
        [
            e.name + (" ★" if e.is_protagonist else ""),
            e.type,
            f"第{e.first_chapter}章",
            "、".join(e.aliases),
            e.id,
        ]
        for e in items
    ]
    return table(rows)


def knows_text(items: Sequence[Knowledge]) -> str:
    if not items:
        return "（不知道任何秘密）"
    rows = [
        [
            "知道" if k.state == "knows" else "怀疑",
            k.content,
            f"第{k.since}章起",
            (k.how or "") + (f"（得自 {k.source_name or k.source}）" if k.source else ""),
        ]
        for k in items
    ]
    return table(rows)


def secrets_text(items: Sequence[Secret]) -> str:
    if not items:
        return "（没有秘密）"
    rows = [["秘密", "读者", "应揭示", "知情者", "内容"]]
    for secret in items:
        reader = "已知" if secret.reader_knows else "未知"
        if secret.status == "retired":
            reader += "·已废弃"
        due = f"第{secret.reveal_due}章" if secret.reveal_due else ""
        holders = "、".join(secret.known_by) + (
            f"（怀疑：{'、'.join(secret.suspected_by)}）" if secret.suspected_by else ""
        )
        kind = f"〔{label(SECRET_KIND, secret.kind)}〕" if secret.kind else ""
        rows.append([secret.id, reader, due, holders or "（无）", kind + secret.content])
    return table(rows)


def fields_text(items: Sequence[FieldUse]) -> str:
    if not items:
        return "（无字段）"
    rows = [["字段", "键", "实体数", "也接受"]]
    rows += [[f.label, f.field, str(f.entities), "、".join(f.synonyms[:6])] for f in items]
    return table(rows)


def chapter_list(chapters: Sequence[int]) -> str:
    """[2, 3, 4, 9] → 「第2–4、9章」: runs folded, so a long gap reads in one line."""
    runs: list[list[int]] = []
    for n in chapters:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    return f"第{'、'.join(parts)}章"


def cooccurrence_text(items: Sequence[Together]) -> str:
    if not items:
        return "没有与之同章出现的人物"
    rows = [["人物", "同章", "同场景", "最近同章"]]
    rows += [[t.name, f"{t.chapters} 章", f"{t.scenes} 场", f"第{t.last_chapter}章"] for t in items]
    return table(rows) + "\n（同章出现，不是关系事实）"
