"""Threads (foreshadowing, open loops, reader promises, subplots) and world rules."""

from __future__ import annotations

from ..chain_folds import Activity, Assertion
from ..chapter_inputs import ChapterResult
from . import Extraction, Resolve, evidence


def extract_promises(result: ChapterResult, resolve: Resolve, seq_start: int = 0) -> Extraction:
    out = Extraction()
    n = result.chapter
    seq = seq_start
    for thread in result.threads:
        related = sorted({resolve(ref)[0] for ref in thread.related})
        out.assertions.append(
            Assertion(
                family="thread",
                key=thread.id,
                subject=thread.id,
                field="thread",
                obj=None,
                chapter=n,
                seq=seq,
                payload={
                    "action": thread.action,
                    "kind": thread.kind,
                    "content": thread.content,
                    "due_chapter": thread.due_chapter,
                    "due_time": thread.due_time,
                    "urgency": thread.urgency,
                    "related": related,
                    "evidence": [
                        evidence(n, f"thread:{thread.id}:{thread.action}:{n}", thread.content)
                    ],
                },
            )
        )
        out.activities += [
            Activity(entity_id=r, chapter=n, kind="thread_related", mention=r) for r in related
        ]
        seq += 1
    for rule in result.world_rules:
        out.assertions.append(
            Assertion(
                family="rule",
                key=rule.id,
                subject=rule.id,
                field="rule",
                obj=None,
                chapter=n,
                seq=seq,
                payload={
                    "action": rule.action,
                    "rule": rule.rule,
                    "domain": rule.domain,
                    "evidence": [evidence(n, f"world_rule:{rule.id}:{n}", rule.rule)],
                },
            )
        )
        seq += 1
    return out
