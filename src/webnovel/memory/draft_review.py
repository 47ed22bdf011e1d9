"""Review: check a draft chapter result against memory as of the chapter before, write nothing.

Every finding is an issue with a severity, never an error: an unknown entity in a draft is
something to fix, not a failed command. Critical and high issues are `blocking` (`commit --check`
refuses them unless forced); medium and low ones are advice.

The draft is walked in the order a commit would apply it — introductions, then state changes in
list order — so a character introduced and moved in the same chapter is no issue, and a draft
that revives a character may let them act.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from ..config import BookConfig
from . import graph_memory
from .chapter_result import ChapterResult
from .conflict_resolver import chain_key, next_fact_value, same_value
from .relevance_filter import bigrams
from .store import chain_ops, commit_ops, entity_ops, index_store

SEVERITIES = ("critical", "high", "medium", "low")
BLOCKING = {"critical", "high"}
GROUP_JUMP = 4  # steps inside an exclusive group that read as a sudden turn (朋友 → 仇敌)


@dataclass(frozen=True)
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

    @property
    def blocking(self) -> bool:
        return self.severity in BLOCKING

    def to_dict(self) -> dict[str, Any]:
        return {
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
        }


@dataclass
class ReviewReport:
    chapter: int
    issues: list[ReviewIssue] = field(default_factory=list)

    @property
    def blocking(self) -> list[ReviewIssue]:
        return [i for i in self.issues if i.blocking]

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "issues": [i.to_dict() for i in self.issues],
            "blocking": len(self.blocking),
        }


class _Refs:
    """Resolves the draft's references without creating anything (a review writes nothing)."""

    def __init__(self, conn: sqlite3.Connection, draft: ChapterResult, as_of: int) -> None:
        self.conn = conn
        self.as_of = as_of
        self.local = {n: e.id for e in draft.entities_new for n in (e.id, e.name, *e.aliases)}
        self.uncertain = {u.mention: u.adopted for u in draft.uncertain if u.adopted}
        self.unknown: dict[str, str] = {}  # reference → where it was used
        self.ambiguous: dict[str, list[str]] = {}

    def __call__(self, reference: str, where: str) -> str | None:
        reference = self.uncertain.get(reference, reference)
        if reference in self.local:
            return self.local[reference]
        rows = [r for r in entity_ops.find_by_alias(self.conn, reference) if not r["tentative"]]
        known = [
            r for r in rows if r["first_chapter"] is not None and r["first_chapter"] <= self.as_of
        ]
        if not known:
            self.unknown.setdefault(reference, where)
            return None
        top = [r["entity_id"] for r in known if r["kind"] == known[0]["kind"]]
        if len(set(top)) > 1:
            self.ambiguous.setdefault(reference, sorted(set(top)))
        return str(known[0]["entity_id"])


def review_draft(
    conn: sqlite3.Connection, config: BookConfig, draft: ChapterResult
) -> ReviewReport:
    chapter = draft.chapter
    as_of = chapter - 1
    report = ReviewReport(chapter)
    refs = _Refs(conn, draft, as_of)
    issues = report.issues
    revived = _revived(draft, refs, config)
    issues += _state_changes(conn, config, draft, refs, as_of)
    issues += _dead_acting(conn, config, draft, refs, as_of, revived)
    issues += _relations(conn, config, draft, refs, as_of)
    issues += _threads(conn, draft, chapter)
    issues += _rules(conn, draft, as_of)
    issues += _continuity(conn, draft, as_of)
    issues += _references(refs)
    issues.sort(key=lambda i: (SEVERITIES.index(i.severity), i.category, i.entity_id or ""))
    return report


def _revived(draft: ChapterResult, refs: _Refs, config: BookConfig) -> set[str]:
    return {
        entity_id
        for change in draft.state_changes
        if change.field == "status"
        and not config.is_dead(change.new)
        and (entity_id := refs(change.ref, "state_changes")) is not None
    }


def _fact_before(conn: sqlite3.Connection, entity_id: str, field_name: str, as_of: int) -> Any:
    return chain_ops.version_at(conn, "fact", chain_key(entity_id, field_name), as_of)


def _evidence(version: Any) -> tuple[dict[str, Any], ...]:
    return tuple(version.evidence) if version is not None else ()


def _state_changes(
    conn: sqlite3.Connection, config: BookConfig, draft: ChapterResult, refs: _Refs, as_of: int
) -> list[ReviewIssue]:
    """`old` values against memory, and fields walking down their ladder."""
    issues = []
    values: dict[tuple[str, str], Any] = {}
    versions: dict[tuple[str, str], Any] = {}
    for entity in draft.entities_new:
        for field_name, value in entity.current:
            values[(entity.id, field_name)] = value
    for change in draft.state_changes:
        entity_id = refs(change.ref, "state_changes")
        if entity_id is None:
            continue
        key = (entity_id, change.field)
        if key not in values:
            version = _fact_before(conn, entity_id, change.field, as_of)
            versions[key] = version
            values[key] = version.value if version is not None else None
        current = values[key]
        version = versions.get(key)
        if change.has_old and current is not None and not same_value(change.old, current):
            since = f"（第{version.valid_from}章起）" if version is not None else ""
            issues.append(
                ReviewIssue(
                    "high",
                    "old_value_mismatch",
                    f"{change.ref} 的 {change.field} 草稿以为是「{change.old}」，记忆中为「{current}」{since}",
                    entity_id,
                    change.field,
                    current,
                    change.old,
                    _evidence(version),
                    f"把 old 改为「{current}」，或确认记忆有误后照常提交（提交会记录矛盾）",
                )
            )
        ladder = config.ladders.get(change.field) or ()
        if (
            change.op == "set"
            and current in ladder
            and change.new in ladder
            and ladder.index(change.new) < ladder.index(current)
        ):
            severity = "medium" if change.reason else "critical"
            issues.append(
                ReviewIssue(
                    severity,
                    "ladder_regression",
                    f"{change.ref} 的 {change.field} 从「{current}」降为「{change.new}」"
                    + (f"（理由：{change.reason}）" if change.reason else "，且未给出理由"),
                    entity_id,
                    change.field,
                    current,
                    change.new,
                    _evidence(version),
                    "若是跌落境界，请在 reason 中写明原因；否则改回不低于当前的值",
                )
            )
        values[key], _ = next_fact_value(current, change.op, change.new)
    return issues


def _acting(draft: ChapterResult, refs: _Refs) -> dict[str, list[str]]:
    """Who appears or acts in the draft, with how."""
    acts: dict[str, list[str]] = {}
    pairs = (
        [(a.ref, "出场") for a in draft.entities_appeared]
        + [(c.ref, "状态变化") for c in draft.state_changes]
        + [(r.source_ref, "建立关系") for r in draft.relationships]
        + [(p, "参与事件") for e in draft.timeline_events for p in e.participants]
        + [(c, "出现在场景中") for s in draft.scenes for c in s.characters]
    )
    for reference, how in pairs:
        entity_id = refs(reference, how)
        if entity_id is not None and how not in acts.setdefault(entity_id, []):
            acts[entity_id].append(how)
    return acts


def _dead_acting(
    conn: sqlite3.Connection,
    config: BookConfig,
    draft: ChapterResult,
    refs: _Refs,
    as_of: int,
    revived: set[str],
) -> list[ReviewIssue]:
    issues = []
    for entity_id, hows in _acting(draft, refs).items():
        if entity_id in revived:
            continue
        status = _fact_before(conn, entity_id, "status", as_of)
        if status is None or not config.is_dead(status.value):
            continue
        name = entity_ops.entity_names(conn, [entity_id]).get(entity_id, entity_id)
        issues.append(
            ReviewIssue(
                "critical",
                "dead_entity_active",
                f"{name} 已于第{status.valid_from}章{status.value}，草稿中却{('、'.join(hows))}",
                entity_id,
                "status",
                status.value,
                "、".join(hows),
                _evidence(status),
                "删去该角色的出场，改为回忆或他人提及；若确为复活，请在 state_changes 中写明 status",
            )
        )
    return issues


def _relations(
    conn: sqlite3.Connection, config: BookConfig, draft: ChapterResult, refs: _Refs, as_of: int
) -> list[ReviewIssue]:
    issues = []
    for rel in draft.relationships:
        source = refs(rel.source_ref, "relationships_new")
        target = refs(rel.target_ref, "relationships_new")
        if source is None or target is None:
            continue
        key = chain_key(source, target, config.relation_group(rel.type))
        current = chain_ops.version_at(conn, "rel", key, as_of)
        held = current.value if current is not None else None
        if rel.action == "end" and held != rel.type:
            issues.append(
                ReviewIssue(
                    "high",
                    "relation_end_missing",
                    f"草稿结束了 {rel.source_ref}→{rel.target_ref} 的「{rel.type}」关系，"
                    f"但此时两人的关系是「{held or '无'}」",
                    source,
                    rel.type,
                    rel.type,
                    held,
                    _evidence(current),
                    "确认关系类型；不存在的关系无需结束",
                )
            )
            continue
        group = next((g for g in config.exclusive_groups if rel.type in g), None)
        if rel.action == "assert" and group and held in group and held != rel.type:
            steps = abs(group.index(rel.type) - group.index(held))
            if steps >= GROUP_JUMP:
                issues.append(
                    ReviewIssue(
                        "low",
                        "relation_jump",
                        f"{rel.source_ref}→{rel.target_ref} 的关系从「{held}」直接变为「{rel.type}」，"
                        "跨度较大，请确认是有意为之",
                        source,
                        rel.type,
                        held,
                        rel.type,
                        _evidence(current),
                        "若是剧情转折（如背叛），无需修改",
                    )
                )
    return issues


def _threads(conn: sqlite3.Connection, draft: ChapterResult, chapter: int) -> list[ReviewIssue]:
    issues = []
    acted = {t.id: t for t in draft.threads}
    known = {t.id: t for t in graph_memory.threads(conn, "all", chapter - 1, chapter - 1)}
    for action in draft.threads:
        thread = known.get(action.id)
        if thread is None and action.action != "plant":
            issues.append(
                ReviewIssue(
                    "medium",
                    "thread_unknown",
                    f"草稿对线索「{action.id}」执行 {action.action}，但记忆中没有埋下过它",
                    None,
                    action.id,
                    "planted thread",
                    None,
                    (),
                    "检查线索 id 是否写错，或补上埋设的章节",
                )
            )
        elif thread is not None and thread.status != "open" and action.action != "plant":
            issues.append(
                ReviewIssue(
                    "high",
                    "thread_closed",
                    f"线索「{thread.content}」已于第{thread.resolved_chapter}章"
                    f"{'回收' if thread.status == 'resolved' else '放弃'}，草稿又对它执行 {action.action}",
                    None,
                    action.id,
                    "open",
                    thread.status,
                    ({"chapter": thread.resolved_chapter, "ref": f"thread:{action.id}"},),
                    "若要重启该线索，请用 plant；否则删去这条动作",
                )
            )
    for thread in known.values():
        if thread.status != "open" or thread.due_chapter is None:
            continue
        closing = acted.get(thread.id)
        if closing is not None and closing.action in ("resolve", "abandon"):
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
                ReviewIssue(
                    "low",
                    "thread_overdue",
                    f"线索「{thread.content}」应在第{thread.due_chapter}章前回收，已逾期",
                    None,
                    thread.id,
                    thread.due_chapter,
                    chapter,
                    evidence,
                    "安排回收，或以 advance 推进并更新 due_chapter",
                )
            )
        elif thread.due_chapter == chapter and thread.kind == "reader_promise":
            issues.append(
                ReviewIssue(
                    "medium",
                    "promise_due",
                    f"读者承诺「{thread.content}」约定在本章（第{chapter}章）兑现，草稿未回收",
                    None,
                    thread.id,
                    chapter,
                    None,
                    evidence,
                    "在本章兑现承诺，或推进并顺延 due_chapter",
                )
            )
    return issues


def _rules(conn: sqlite3.Connection, draft: ChapterResult, as_of: int) -> list[ReviewIssue]:
    """Rules the draft leans on by id that were retired before this chapter."""
    issues = []
    for action in draft.world_rules:
        history = chain_ops.chain_history(conn, "rule", action.id)
        if not history or any(v.valid_to is None or v.valid_to > as_of for v in history):
            continue
        last = history[-1]
        if last.valid_to is not None and last.valid_to <= as_of and action.action != "reveal":
            issues.append(
                ReviewIssue(
                    "high",
                    "rule_retired",
                    f"世界规则「{last.value.get('rule')}」已于第{last.valid_to}章废止，草稿仍要{action.action}它",
                    None,
                    action.id,
                    "rule in force",
                    "retired",
                    tuple(last.evidence),
                    "若规则恢复，请用 reveal 重新确立；否则删去",
                )
            )
        elif action.action == "reveal":
            issues.append(
                ReviewIssue(
                    "medium",
                    "rule_retired",
                    f"世界规则「{action.id}」已于第{last.valid_to}章废止，草稿重新确立了它",
                    None,
                    action.id,
                    "retired",
                    "reveal",
                    tuple(last.evidence),
                    "确认这是有意恢复该规则",
                )
            )
    return issues


def _continuity(conn: sqlite3.Connection, draft: ChapterResult, as_of: int) -> list[ReviewIssue]:
    """The previous chapter's ending against this chapter's first scene, when both are given."""
    if not draft.scenes or as_of < 1:
        return []
    rows = commit_ops.chapter_rows(conn, start=as_of, end=as_of)
    ending = (index_store.loads(rows[0]["meta_json"]) or {}).get("ending") if rows else None
    first = min(draft.scenes, key=lambda s: s.index)
    if not isinstance(ending, dict) or not ending.get("location") or not first.location:
        return []
    before, after = str(ending["location"]), first.location
    if before in after or after in before or bigrams(before) & bigrams(after):
        return []
    return [
        ReviewIssue(
            "low",
            "location_continuity",
            f"上一章结束于「{before}」，本章首个场景在「{after}」，中间的转场是否交代清楚？",
            None,
            "location",
            before,
            after,
            ({"chapter": as_of, "ref": f"chapter_meta:ch{as_of:04d}:ending"},),
            "在开头补一句转场，或确认这是有意的时空跳跃",
        )
    ]


def _references(refs: _Refs) -> list[ReviewIssue]:
    issues = [
        ReviewIssue(
            "high",
            "unknown_entity",
            f"草稿在 {where} 中引用了记忆中不存在的「{reference}」",
            reference,
            None,
            "known entity",
            reference,
            (),
            "若是新角色，请在 entities_new 中登记；否则检查名字或别名是否写错",
        )
        for reference, where in refs.unknown.items()
    ]
    issues += [
        ReviewIssue(
            "medium",
            "ambiguous_alias",
            f"「{reference}」可指多个实体：{'、'.join(candidates)}；已按 {candidates[0]} 处理",
            candidates[0],
            None,
            "one entity",
            candidates,
            (),
            "改用实体 id，或在 uncertain 中写明 adopted",
        )
        for reference, candidates in refs.ambiguous.items()
    ]
    return issues
