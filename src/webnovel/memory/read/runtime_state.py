"""`state.json`: the runtime snapshot only — progress, protagonist, strand tracker, live risks.

Long-lived knowledge lives in index.db and the scratchpad; this file is what a writer checks
before the next chapter, rebuilt from index.db after each commit.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ...config import BookConfig
from ..records import Thread
from ..store import chain_ops, commit_ops, entity_ops, record_ops
from ..store.connection import Connection
from . import as_of_reads


def build_state(
    conn: Connection, config: BookConfig, commit_seq: int, book: dict[str, Any]
) -> dict[str, Any]:
    latest = commit_ops.latest_chapter(conn)
    protagonist = entity_ops.find_protagonist(conn)
    snapshot = None
    if protagonist is not None:
        snapshot = {
            "id": protagonist.id,
            "name": protagonist.name,
            "state": {
                v.field: v.value
                for v in chain_ops.versions_at(conn, "fact", None, subject=protagonist.id)
            },
        }
    open_threads = as_of_reads.threads(conn, "open", None, latest)
    overdue = [t for t in open_threads if t.overdue]
    conflicts = record_ops.list_conflicts(conn)
    words = commit_ops.chapter_totals(conn, None)
    return {
        "book": book,
        "progress": {
            "latest_chapter": latest,
            "chapters_committed": words[0],
            "total_words": words[1],
        },
        "protagonist": snapshot,
        "strand_tracker": _strands(conn, open_threads),
        "risks": {
            "overdue_threads": [
                {"id": t.id, "content": t.content, "due_chapter": t.due_chapter}
                for t in overdue[:10]
            ],
            "overdue_count": len(overdue),
            "open_conflicts": [
                {"id": c.id, "kind": c.kind, "chapter": c.chapter, "message": c.message}
                for c in conflicts[-10:]
            ],
            "open_conflict_count": len(conflicts),
        },
        "meta": {
            "commit_seq": commit_seq,
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        },
    }


def _strands(conn: Connection, open_threads: list[Thread]) -> dict[str, Any]:
    """Open threads per kind and when each strand (chapter_meta.strand) last led a chapter."""
    by_kind: dict[str, int] = {}
    for thread in open_threads:
        by_kind[thread.kind] = by_kind.get(thread.kind, 0) + 1
    last_led: dict[str, int] = {}
    for row in commit_ops.chapter_rows(conn, limit=200, newest_first=True):
        strand = row.meta.get("strand")
        if isinstance(strand, str):
            last_led.setdefault(strand, row.chapter)
    return {"open_threads_by_kind": by_kind, "strand_last_chapter": last_led}
