"""The semantic memory cache, `memory_scratchpad.json`: a dense projection of index.db in the
seed's buckets, ready for an agent to read whole.

Compaction decides what is *shown* (recent and important first, within fixed caps); index.db keeps
everything. `meta.omitted` says how much each bucket left out, so nothing is hidden silently.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ...config import BookConfig
from ..store import chain_ops, commit_ops, entity_ops, record_ops
from ..store.connection import Connection
from . import as_of_reads

CHARACTER_CAP = 60
RULE_CAP = 120
THREAD_CAP = 120
TIMELINE_CAP = 30
STORY_CHAPTERS = 3


def _item(
    category: str,
    subject: str,
    field: str,
    value: Any,
    chapter: int | None,
    source_type: str,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": f"{category}:{subject}:{field}",
        "layer": "semantic",
        "category": category,
        "subject": subject,
        "field": field,
        "value": value,
        "status": "active",
        "source": {"chapter": chapter, "type": source_type},
        **extra,
    }


def build_scratchpad(conn: Connection, config: BookConfig, commit_seq: int) -> dict[str, Any]:
    latest = commit_ops.latest_chapter(conn)
    shown = entity_ops.recent_entities(conn, CHARACTER_CAP)
    dead = chain_ops.versions_in_state(conn, "fact", "dead", None)
    names = entity_ops.entity_names(conn, [*shown, *(v.subject for v in dead)])
    rules = as_of_reads.rules(conn, None, None)
    open_threads = as_of_reads.threads(conn, "open", None, latest)
    open_threads.sort(key=lambda t: (not t.overdue, -(t.urgency or 0), t.due_chapter or 10**9))
    loops = [t for t in open_threads if t.kind != "reader_promise"]
    promises = [t for t in open_threads if t.kind == "reader_promise"]
    return {
        "character_state": _character_state(conn, shown, names),
        "story_state": _story_state(conn),
        "world_rules": [
            _item("world_rules", r.id, "rule", r.rule, r.valid_from, "world_rule", domain=r.domain)
            for r in rules[-RULE_CAP:]
        ],
        "timeline": _timeline(conn, latest),
        "open_loops": [_thread_item("open_loops", t) for t in loops[:THREAD_CAP]],
        "reader_promises": [_thread_item("reader_promises", t) for t in promises[:THREAD_CAP]],
        "active_constraints": [
            *(
                _item(
                    "active_constraints",
                    v.subject,
                    "status",
                    v.value,
                    v.valid_from,
                    v.source_type,
                    rule=as_of_reads.dead_constraint(
                        names.get(v.subject, v.subject), v.value, v.valid_from
                    ),
                )
                for v in dead
            ),
            *(
                _thread_item("active_constraints", t)
                for t in [t for t in open_threads if t.overdue][:THREAD_CAP]
            ),
        ],
        "meta": {
            "commit_seq": commit_seq,
            "latest_chapter": latest,
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "omitted": {
                "character_state_entities": max(0, entity_ops.count_settled(conn) - len(shown)),
                "world_rules": max(0, len(rules) - RULE_CAP),
                "open_loops": max(0, len(loops) - THREAD_CAP),
                "reader_promises": max(0, len(promises) - THREAD_CAP),
                "overdue_threads": max(0, sum(t.overdue for t in open_threads) - THREAD_CAP),
            },
        },
    }


def _character_state(
    conn: Connection, shown: list[str], names: dict[str, str]
) -> list[dict[str, Any]]:
    return [
        _item(
            "character_state",
            v.subject,
            v.field,
            v.value,
            v.valid_from,
            v.source_type,
            name=names.get(v.subject, v.subject),
        )
        for v in chain_ops.versions_at(conn, "fact", None, subjects=shown)
    ]


def _story_state(conn: Connection) -> list[dict[str, Any]]:
    return [
        _item(
            "story_state",
            f"ch{r.chapter}",
            "summary",
            r.summary,
            r.chapter,
            "summary",
            title=r.title,
        )
        for r in commit_ops.chapter_rows(conn, limit=STORY_CHAPTERS, newest_first=True)
    ]


def _timeline(conn: Connection, latest: int | None) -> list[dict[str, Any]]:
    events = record_ops.list_events(conn, max(0, (latest or 0) - 20), None, None)
    return [
        _item(
            "timeline",
            e.id,
            "event",
            e.event,
            e.chapter,
            "timeline",
            participants=list(e.participants),
        )
        for e in events[-TIMELINE_CAP:]
    ]


def _thread_item(category: str, thread: Any) -> dict[str, Any]:
    return _item(
        category,
        thread.id,
        thread.kind,
        thread.content,
        thread.planted_chapter,
        "thread",
        due_chapter=thread.due_chapter,
        urgency=thread.urgency,
        overdue=thread.overdue,
        related=list(thread.related),
    )
