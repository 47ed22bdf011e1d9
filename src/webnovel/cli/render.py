"""Text renderings for a Chinese author at a terminal; JSON output is the objects' `to_dict()`.

Labels are Chinese, entities are named by name (with the id where it helps), and columns are
padded by display width: a CJK character takes two columns.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from ..memory.words import (
    ADVICE_KIND,
    CHUNK_KIND,
    COMMIT_STATUS,
    CONFLICT_KIND,
    FIELD,
    SEVERITY,
    SOURCE,
    STATUS,
    THREAD_KIND,
    THREAD_STATUS,
    label,
)


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def width(text: str) -> int:
    """Columns `text` takes on a terminal: wide and full-width characters take two."""
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


def field_text(d: dict[str, Any]) -> str:
    """A field as the author names it: the book's label (JSON's `field_label`), else ours."""
    return str(d.get("field_label") or label(FIELD, d["field"]))


def evidence_text(evidence: list[dict[str, Any]]) -> str:
    parts = []
    for item in evidence:
        # Without a quote, say what kind of record it was (登场, 状态变化), not its raw ref.
        kind = str(item.get("ref", "")).split(":")[0]
        quote = f"“{item['quote']}”" if item.get("quote") else SOURCE.get(kind, kind)
        parts.append(f"第{item.get('chapter')}章 {quote}")
    return "；".join(parts)


def fact_text(d: dict[str, Any]) -> str:
    if not d.get("found"):
        line = f"{d.get('entity_name') or d['entity_id']} 的 {field_text(d)}：（无记录）"
        known = d.get("known_fields")
        if known:
            line += "\n  有记录的字段：" + "、".join(known)
        return line
    if d["field"] == "holder":  # who holds a named item: no single version to cite
        return f"{d['entity_name']}的持有者：{value_text(d['value'])}"
    source = d["source"]
    return (
        f"{d['entity_name']}的{field_text(d)}：{value_text(d['value'])}\n"
        f"  {STATUS.get(d['status'], d['status'])}，{interval(d['valid_from'], d['valid_to'])}，"
        f"出自第{source['chapter']}章（{SOURCE.get(source['type'], source['type'])}）"
    )


def history_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无历史）"
    rows = [["字段", "值", "区间", "状态", "证据"]]
    rows += [
        [
            field_text(d),
            value_text(d["value"]),
            interval(d["valid_from"], d["valid_to"]),
            STATUS.get(d["status"], d["status"]),
            evidence_text(d["evidence"]),
        ]
        for d in items
    ]
    return table(rows)


def relations_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无关系）"
    rows = [
        [
            f"{d.get('from_name', d['from'])} —{d['type']}→ {d.get('to_name', d['to'])}",
            STATUS.get(d["status"], d["status"]),
            interval(d["valid_from"], d["valid_to"]),
            d.get("description") or "",
        ]
        for d in items
    ]
    return table(rows)


def threads_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无线索）"
    rows = []
    for d in items:
        status = THREAD_STATUS.get(d["status"], d["status"]) + ("·逾期" if d.get("overdue") else "")
        due = f"，应于第{d['due_chapter']}章回收" if d.get("due_chapter") else ""
        rows.append(
            [
                f"[{status}]",
                d["id"],
                f"{THREAD_KIND.get(d['kind'], d['kind'])}，第{d.get('planted_chapter')}章埋设{due}",
                d["content"],
            ]
        )
    return table(rows)


def rules_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无生效的世界规则）"
    rows = [
        [
            d["id"],
            f"[{d.get('domain') or '—'}]",
            interval(d["valid_from"], d["valid_to"]),
            d["rule"],
        ]
        for d in items
    ]
    return table(rows)


def timeline_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无事件）"
    rows = [
        [
            f"第{d['chapter']}章",
            d["event"]
            + (f" ＠{d['location']}" if d.get("location") else "")
            + (f"（{d['time_hint']}）" if d.get("time_hint") else ""),
        ]
        for d in items
    ]
    return table(rows)


def conflicts_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无未决矛盾）"
    rows = [
        [
            d["id"],
            f"第{d['chapter']}章",
            d["kind"] + (f"（{d['status']}）" if d.get("status", "open") != "open" else ""),
            d["message"],
        ]
        for d in items
    ]
    return table(rows)


def commit_text(d: dict[str, Any]) -> str:
    counts = d["counts"]
    lines = [
        f"第{d['chapter']}章：{COMMIT_STATUS.get(d['status'], d['status'])}（{d['commit_id']}）",
        f"  新增 {counts['added']}，取代 {counts['superseded']}，"
        f"推翻 {counts['contradicted']}，待定 {counts['tentative']}",
    ]
    lines += [f"  矛盾：{c['message']}" for c in d["conflicts"]]
    lines += [f"  提醒：{w}" for w in d["warnings"]]
    lines += [f"  已规范：{n}" for n in d.get("normalized", [])]
    return "\n".join(lines)


# The keys of `stats`, `rebuild` and `embed` answers as an author reads them (JSON keeps them).
KEY_WORDS = {
    "book": "书",
    "title": "书名",
    "genre": "题材",
    "root": "目录",
    "latest_chapter": "最新章节",
    "missing_chapters": "缺章",
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
}


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


def resume_text(d: dict[str, Any]) -> str:
    lines = [f"《{d['book']['title']}》：已提交至第 {d['latest_chapter'] or 0} 章"]
    if d.get("missing_chapters"):
        lines.append(f"缺章：{chapter_list(d['missing_chapters'])}")
    if d["last_chapter"]:
        last = d["last_chapter"]
        lines.append(f"上一章：《{last['title'] or ''}》 {last['summary'] or ''}")
    if d["protagonist"]:
        p = d["protagonist"]
        state = "，".join(f"{label(FIELD, k)} {value_text(v)}" for k, v in p["now"].items())
        lines.append(f"主角：{p['name']}（{state}）")
    lines += ["", "未回收的线索：", threads_text(d["open_threads"])]
    lines += ["", "未决矛盾：", conflicts_text(d["open_conflicts"])]
    nxt = d["next_chapter"]
    if nxt["outline_found"]:
        names = "、".join(e["name"] for e in nxt["named_entities"]) or "（无已知实体）"
        lines += ["", f"下一章：第{nxt['chapter']}章；大纲提到 {names}"]
    else:
        lines += ["", f"下一章：第{nxt['chapter']}章（outlines/ 中没有大纲文件）"]
    return "\n".join(lines)


def review_text(d: dict[str, Any]) -> str:
    normalized = [f"  已规范：{n}" for n in d.get("normalized", [])]
    if not d["issues"]:
        return "\n".join([f"第{d['chapter']}章：未发现问题", *normalized])
    lines = [f"第{d['chapter']}章：{len(d['issues'])} 个问题，其中 {d['blocking']} 个阻断提交"]
    lines += normalized
    for issue in d["issues"]:
        severity = SEVERITY.get(issue["severity"], issue["severity"])
        kind = CONFLICT_KIND.get(issue["category"]) or ADVICE_KIND.get(issue["category"], "")
        lines.append(f"[{severity}] {kind or issue['category']}：{issue['message']}")
        if issue["fix_hint"]:
            lines.append(f"    → {issue['fix_hint']}")
    return "\n".join(lines)


def search_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（没有找到）"
    lines = []
    for hit in items:
        kind = CHUNK_KIND.get(hit["kind"], hit["kind"])
        parts = [f"字面 {hit.get('lexical', 0.0):.2f}"]
        if hit.get("semantic") is not None:
            parts.append(f"语义 {hit['semantic']:.2f}")
        weak = " 弱" if hit.get("weak") else ""
        lines.append(
            f"第{hit['chapter']}章 {kind} 相关度 {hit['score']:.2f}（{' · '.join(parts)}）{weak}"
            f"  {hit['chunk_id']}"
        )
        lines.append(f"    {_marked(hit)}")
        if hit.get("matched"):
            lines.append(f"    命中：{'、'.join(hit['matched'])}")
    return "\n".join(lines)


def _marked(hit: dict[str, Any]) -> str:
    """The hit's snippet with its matches in 【】 (its text's opening for an older answer)."""
    snippet = hit.get("snippet")
    if snippet is None:
        text = hit["text"].replace("\n", " ")
        return f"{text[:160]}{'…' if len(text) > 160 else ''}"
    out, at = [], 0
    for start, end in hit.get("marks", []):
        out += [snippet[at:start], "【", snippet[start:end], "】"]
        at = end
    out.append(snippet[at:])
    return "".join(out)


def entities_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无实体）"
    rows = [["名称", "类型", "登场", "别名", "id"]]
    rows += [
        [
            d["name"] + (" ★" if d["is_protagonist"] else ""),
            d["type"],
            f"第{d['first_chapter']}章",
            "、".join(d["aliases"]),
            d["id"],
        ]
        for d in items
    ]
    return table(rows)


def import_text(d: dict[str, Any]) -> str:
    rows = [["章", "标题", "卷", "字数"]]
    rows += [
        [f"第{c['chapter']}章", c["title"], c.get("volume") or "", str(c["chars"])]
        for c in d["chapters"]
    ]
    lines = [table(rows)]
    if "unchanged" in d:
        lines.append(f"已提交 {d['committed']} 章，未变化 {d['unchanged']} 章")
    else:
        lines.append(f"共找到 {len(d['chapters'])} 章（试运行，未写入）")
    lines += _front_matter_lines(d.get("front_matter") or [], dry="unchanged" not in d)
    if d.get("candidate_names"):
        lines.append("可能的新人物（名字、出现次数、首次出现）：")
        lines += [
            f"  {c['name']}  {c['count']} 次  第{c['first_chapter']}章"
            for c in d["candidate_names"]
        ]
    return "\n".join(lines)


def _front_matter_lines(items: list[dict[str, Any]], dry: bool) -> list[str]:
    """Text under no chapter heading (a title page, a 简介, a volume's opening words): said
    where it went, so that nothing an import leaves out of the chapters goes unmentioned."""
    kept = "将随" if dry else "已随"
    return [
        f"第{f['chapter']}章《{f['title']}》之前有 {f['chars']} 字不属于任何章节"
        f"（首行「{f['first_line']}」），未计入正文和记忆，"
        f"{kept}第{f['chapter']}章保存为章前内容（chapter_meta.front_matter）"
        for f in items
    ]


UPSTREAM_COUNTS = {
    "entities_new": "登场实体",
    "state_changes": "状态变化",
    "relationships_new": "关系",
    "plot_threads": "线索动作",
    "world_rules": "世界规则",
    "scenes": "场景",
    "entities_appeared": "出场记录",
    "timeline_events": "事件",
}


def upstream_text(d: dict[str, Any]) -> str:
    dry = d["committed"] == 0 and d["unchanged"] == 0
    lines = [
        f"《{d['title']}》（{d['genre'] or '未注明题材'}）来自 {d['source']}：{d['chapters']} 章，"
        f"其中 {d['texts']} 章有正文"
    ]
    rows = [["记录", "条数"]] + [
        [label, str(d["counts"].get(key, 0))] for key, label in UPSTREAM_COUNTS.items()
    ]
    lines.append(table(rows))
    if dry:
        lines.append("试运行，未写入")
    else:
        lines.append(
            f"已提交 {d['committed']} 章，未变化 {d['unchanged']} 章，记录矛盾 {d['conflicts']} 条"
        )
    if d["unmapped"]:
        lines.append("未导入（多为上游由这些记录派生的副本、统计与日志）：")
        lines += [f"  {what}：{count}" for what, count in d["unmapped"].items()]
    return "\n".join(lines)


def knows_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（不知道任何秘密）"
    rows = [
        [
            "知道" if d["state"] == "knows" else "怀疑",
            d["content"],
            f"第{d['since']}章起",
            (d.get("how") or "")
            + (f"（得自 {d.get('from_name') or d['from']}）" if d.get("from") else ""),
        ]
        for d in items
    ]
    return table(rows)


def secrets_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（没有秘密）"
    rows = [["秘密", "读者", "应揭示", "知情者", "内容"]]
    for d in items:
        reader = "已知" if d["reader_knows"] else "未知"
        if d["status"] == "retired":
            reader += "·已废弃"
        due = f"第{d['reveal_due']}章" if d.get("reveal_due") else ""
        holders = "、".join(d["known_by"]) + (
            f"（怀疑：{'、'.join(d['suspected_by'])}）" if d["suspected_by"] else ""
        )
        rows.append([d["id"], reader, due, holders or "（无）", d["content"]])
    return table(rows)


def fields_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "（无字段）"
    rows = [["字段", "键", "实体数", "也接受"]]
    rows += [
        [d["label"], d["field"], str(d["entities"]), "、".join(d["synonyms"][:6])] for d in items
    ]
    return table(rows)


def chapter_list(chapters: list[int]) -> str:
    """[2, 3, 4, 9] → 「第2–4、9章」: runs folded, so a long gap reads in one line."""
    runs: list[list[int]] = []
    for n in chapters:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    return f"第{'、'.join(parts)}章"


EXTRACT_STATUS = {
    "committed": "已写入",
    "unchanged": "未变化",
    "failed": "失败",
    "planned": "待请求",
    "cached": "已有回答",
}


def _money(value: Any) -> str:
    return "—" if value is None else f"{value:.4f}"


def extract_text(d: dict[str, Any]) -> str:
    """The per-chapter and total report of `webnovel extract` (or its dry run)."""
    total = d["total"]
    if d["dry_run"]:
        rows = [
            ["章", "标题", "状态", "请求", "输入 token（估）", "输出 token（估）", "费用（估）"]
        ]
        rows += [
            [
                f"第{r['chapter']}章",
                r["title"] or "",
                EXTRACT_STATUS.get(r["status"], r["status"]),
                str(r["requests"]),
                f"{r['estimated_tokens']['input']:,}",
                f"{r['estimated_tokens']['output']:,}",
                _money(r["estimated_cost"]),
            ]
            for r in d["chapters"]
        ]
        rows.append(
            [
                "合计",
                f"{total['chapters']} 章",
                f"{total['cached']} 章已有回答",
                str(total["requests"]),
                f"{total['estimated_tokens']['input']:,}",
                f"{total['estimated_tokens']['output']:,}",
                _money(total["estimated_cost"]),
            ]
        )
        note = "试运行：什么也没有发送。" + (
            "" if d["prices"] else "未配置价格（[llm] prices），费用无法估算。"
        )
        return table(rows) + "\n" + note
    rows = [["章", "标题", "状态", "请求", "输入", "缓存命中", "输出", "费用", "矛盾"]]
    for r in d["chapters"]:
        t = r["tokens"]
        rows.append(
            [
                f"第{r['chapter']}章",
                r["title"] or "",
                EXTRACT_STATUS.get(r["status"], r["status"])
                + (f"（修正 {r['repairs']} 次）" if r.get("repairs") else "")
                + ("（用已存回答）" if r.get("cache_hits") and not r["requests"] else ""),
                str(r["requests"]),
                f"{t['input']:,}",
                f"{t['cached']:,}",
                f"{t['output']:,}",
                _money(r["cost"]),
                str(r.get("conflicts", 0)),
            ]
        )
    t = total["tokens"]
    rows.append(
        [
            "合计",
            f"{total['chapters']} 章",
            f"写入 {total['committed']}，未变化 {total['unchanged']}",
            str(total["requests"]),
            f"{t['input']:,}",
            f"{t['cached']:,}",
            f"{t['output']:,}",
            _money(total["cost"]),
            "",
        ]
    )
    lines = [table(rows)]
    if d["model"]:
        lines.append(f"模型：{d['model']}（{d['endpoint']}，{d['response_mode'] or '—'}）")
    for r in d["chapters"]:
        lines += [f"  第{r['chapter']}章：{w}" for w in r.get("warnings", [])]
    return "\n".join(lines)


def candidates_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "没有待确认的名字"
    rows = [["名字", "出现次数", "首次出现"]]
    rows += [[c["name"], str(c["count"]), f"第{c['first_chapter']}章"] for c in items]
    return table(rows) + (
        "\n确认：webnovel candidates accept 名字 [--type 角色]；并入："
        "webnovel candidates merge 名字 --into 已有实体；拒绝：webnovel candidates reject 名字"
    )


def candidate_done_text(d: dict[str, Any]) -> str:
    if d["action"] == "rejected":
        return f"已拒绝「{d['name']}」，以后不再列出"
    chapters = d["chapters"]
    where = f"第{chapters[0]}章起，共 {len(chapters)} 章提到"
    if d["action"] == "accepted":
        return f"已确认「{d['name']}」为新实体 {d['entity_id']}（{where}）"
    return f"已把「{d['name']}」并入 {d['entity_id']} 作为别名（{where}）"


def cooccurrence_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "没有与之同章出现的人物"
    rows = [["人物", "同章", "同场景", "最近同章"]]
    rows += [
        [i["name"], f"{i['chapters']} 章", f"{i['scenes']} 场", f"第{i['last_chapter']}章"]
        for i in items
    ]
    return table(rows) + "\n（同章出现，不是关系事实）"
