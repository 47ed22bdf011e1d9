"""Reading a webnovel-writer (v5/v6) project as chapter results of ours.

That project keeps its memory in `.webnovel/index.db` (entities, aliases, state changes,
relationships, scenes, chapters, appearances, and in v6 the story event log), in
`.webnovel/memory_scratchpad.json` (open loops, reader promises, world rules, timeline) and in
`.webnovel/state.json` (the book's title and genre), with the chapter texts under `正文/`. Each
chapter's records become that chapter's result, so the book is rebuilt chapter by chapter and
answers as of any chapter. What has no place in a chapter result is counted in `unmapped`.

Two choices, both to avoid telling chapter 1 what a later chapter said:
- an entity is introduced with the state its first state change says it had before (`old`),
  not with its `current` state, which may have been updated since;
- threads and world rules come from the story event log, which says in which chapter each was
  planted, paid off or broken; the scratchpad (all that v5 has) says only where they began.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from ..messages import say
from ..untrusted import json_limits
from .text_files import MAX_RESULT_BYTES, read_bounded, read_text, refuse_links_outside

GENERIC_ALIASES = {"protagonist", "主角"}  # upstream gives every protagonist these two
CHAPTER_FILE = re.compile(r"第0*(\d+)章")
LOOP_EVENTS = {
    "open_loop_created": ("open_loop", "plant"),
    "open_loop_closed": ("open_loop", "resolve"),
    "promise_created": ("reader_promise", "plant"),
    "promise_paid_off": ("reader_promise", "resolve"),
}


@dataclass
class UpstreamBook:
    title: str
    genre: str | None
    results: list[dict[str, Any]]
    texts: dict[int, str]
    unmapped: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _has_table(conn: sqlite3.Connection, table: str) -> bool:
    """Older upstream projects lack some tables (v5 has no story event log)."""
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    return found is not None


def _rows(conn: sqlite3.Connection, table: str, order: str) -> list[sqlite3.Row]:
    if not _has_table(conn, table):
        return []
    return conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()


def _count(conn: sqlite3.Connection, table: str) -> int:
    if not _has_table(conn, table):
        return 0
    return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _json(text: Any, default: Any) -> Any:
    if not isinstance(text, str) or not text:
        return default
    try:
        return json_limits.loads(text, "index.db")
    except json.JSONDecodeError:  # too deep or long too: a received project's rows
        return default


def _stable_id(prefix: str, content: str) -> str:
    """An id for a scratchpad item that has none: the same text gets the same id again."""
    return f"{prefix}-" + hashlib.blake2b(content.encode("utf-8"), digest_size=5).hexdigest()


def read_upstream(root: Path) -> UpstreamBook:
    memory = root / ".webnovel"
    if not (memory / "index.db").is_file():
        raise InvalidInput.of("not_upstream_project", root=root, index=memory / "index.db")
    read = [memory / n for n in ("index.db", "state.json", "memory_scratchpad.json")]
    refuse_links_outside(root, [p for p in read if p.exists()] + _chapter_files(root / "正文"))
    state = (
        _json(_small_file(memory / "state.json"), {}) if (memory / "state.json").is_file() else {}
    )
    info = state.get("project_info") or {}
    # a proper file URI: `#`, `?` and `%` in a folder's name are a URI's own characters
    read_only = (memory / "index.db").resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(read_only, uri=True)
    conn.execute("PRAGMA trusted_schema=OFF")  # someone else's file: its schema runs nothing
    conn.row_factory = sqlite3.Row
    try:
        book = _read(conn, root, memory)
    finally:
        conn.close()
    book.title = str(info.get("title") or root.name)
    book.genre = str(info.get("genre") or "") or None
    for section in ("plot_threads", "world_settings", "protagonist_state", "relationships"):
        if state.get(section):
            # state.json's own copies; index.db and the event log above are the records
            book.unmapped[f"state.json {section}"] = len(state[section])
    return book


class _Results:
    """The chapter results being built, by chapter number."""

    def __init__(self) -> None:
        self.by_chapter: dict[int, dict[str, Any]] = {}

    def slot(self, chapter: int) -> dict[str, Any]:
        return self.by_chapter.setdefault(chapter, {"chapter": chapter})

    def add(self, chapter: int, key: str, item: dict[str, Any]) -> None:
        self.slot(chapter).setdefault(key, []).append(item)


def _read(conn: sqlite3.Connection, root: Path, memory: Path) -> UpstreamBook:
    out = UpstreamBook("", None, [], {})
    results = _Results()
    _chapters(conn, results)
    changes = _rows(conn, "state_changes", "chapter, id")
    _entities(conn, changes, results)
    _records(conn, changes, results)
    scratchpad_path = memory / "memory_scratchpad.json"
    scratchpad = _json(_small_file(scratchpad_path), {}) if scratchpad_path.is_file() else {}
    events = _rows(conn, "story_events", "chapter, id")
    if events:
        _threads_and_rules_from_events(events, results, out)
    else:
        _threads_and_rules_from_scratchpad(scratchpad, results, out)
    _timeline_and_leftovers(conn, scratchpad, results, out)
    out.texts = _chapter_texts(root / "正文", out)
    for chapter in out.texts:
        results.slot(chapter)
    out.results = [results.by_chapter[n] for n in sorted(results.by_chapter)]
    for slot in out.results:
        slot["title"] = slot.get("title") or None
    return out


def _chapters(conn: sqlite3.Connection, results: _Results) -> None:
    for row in _rows(conn, "chapters", "chapter"):
        slot = results.slot(row["chapter"])
        slot["title"] = row["title"] or None
        slot["summary"] = row["summary"] or None
        if row["word_count"]:
            slot["word_count"] = int(row["word_count"])


def _entities(conn: sqlite3.Connection, changes: list[sqlite3.Row], results: _Results) -> None:
    """Each entity introduced where it first appears, with the state it had then: a field's
    value before its first change (`old`), not its `current` value, which may be later."""
    aliases: dict[str, list[str]] = defaultdict(list)
    for row in _rows(conn, "aliases", "rowid"):
        if row["alias"] not in GENERIC_ALIASES:
            aliases[row["entity_id"]].append(row["alias"])
    first_change: dict[tuple[str, str], sqlite3.Row] = {}
    for row in changes:
        first_change.setdefault((row["entity_id"], row["field"]), row)
    for row in _rows(conn, "entities", "first_appearance, id"):
        current: dict[str, Any] = {}
        for name, value in _json(row["current_json"], {}).items():
            earlier = first_change.get((row["id"], name))
            if earlier is None:
                current[name] = value
            elif earlier["old_value"]:
                current[name] = earlier["old_value"]
        entity = {
            "id": row["id"],
            "name": row["canonical_name"] or row["id"],
            "type": row["type"] or "角色",
            "aliases": [a for a in aliases.get(row["id"], []) if a != row["canonical_name"]],
            "current": {
                k: v for k, v in current.items() if isinstance(v, str | int | float | bool)
            },
        }
        for key in ("tier", "desc"):
            if row[key]:
                entity[key] = row[key]
        if row["is_protagonist"]:
            entity["is_protagonist"] = True
        results.add(max(1, int(row["first_appearance"] or 1)), "entities_new", entity)


def _records(conn: sqlite3.Connection, changes: list[sqlite3.Row], results: _Results) -> None:
    """State changes, relationships, scenes and appearances, each in its own chapter."""
    for row in changes:
        change = {"entity_id": row["entity_id"], "field": row["field"], "new": row["new_value"]}
        if row["old_value"]:
            change["old"] = row["old_value"]
        if row["reason"]:
            change["reason"] = row["reason"]
        results.add(row["chapter"], "state_changes", change)
    for row in _rows(conn, "relationships", "chapter, id"):
        relation = {"from": row["from_entity"], "to": row["to_entity"], "type": row["type"]}
        if row["description"]:
            relation["description"] = row["description"]
        results.add(row["chapter"], "relationships_new", relation)
    for row in _rows(conn, "scenes", "chapter, scene_index"):
        scene = {
            "index": int(row["scene_index"]),
            "location": row["location"] or None,
            "characters": _json(row["characters"], []),
            "summary": row["summary"] or None,
        }
        results.add(row["chapter"], "scenes", scene)
    for row in _rows(conn, "appearances", "chapter, id"):
        appeared = {"id": row["entity_id"]}
        mentions = [m for m in _json(row["mentions"], []) if isinstance(m, str) and m]
        if mentions:
            appeared["mentions"] = mentions
        results.add(row["chapter"], "entities_appeared", appeared)


def _timeline_and_leftovers(
    conn: sqlite3.Connection, scratchpad: dict[str, Any], results: _Results, out: UpstreamBook
) -> None:
    """The scratchpad's timeline, and a count of what has no place in a chapter result."""
    for item in scratchpad.get("timeline") or []:
        chapter = int(item.get("source_chapter") or 0)
        text = str(item.get("value") or item.get("subject") or "").strip()
        if chapter >= 1 and text:
            results.add(chapter, "timeline_events", {"event": text})
    for key in ("character_state", "story_facts", "relationships"):
        if scratchpad.get(key):
            # derived upstream from the state changes and relationships read above
            out.unmapped[f"memory_scratchpad.json {key}"] = len(scratchpad[key])
    for table in ("tool_call_stats", "review_metrics", "invalid_facts", "rag_query_log"):
        if count := _count(conn, table):
            out.unmapped[f"index.db {table}"] = count


def _threads_and_rules_from_events(
    events: list[sqlite3.Row], results: _Results, out: UpstreamBook
) -> None:
    planted: set[str] = set()
    for row in events:
        payload = _json(row["payload_json"], {})
        kind = row["event_type"]
        chapter = int(row["chapter"])
        if kind in LOOP_EVENTS:
            thread_kind, action = LOOP_EVENTS[kind]
            thread = {"id": row["subject"], "kind": thread_kind, "action": action}
            content = str(payload.get("content") or payload.get("description") or "").strip()
            if action == "plant":
                planted.add(row["subject"])
                thread["content"] = content or row["subject"]
                if isinstance(payload.get("urgency"), int | float):
                    thread["urgency"] = max(0, min(100, payload["urgency"]))
                due = payload.get("expected_payoff") or payload.get("loop_deadline")
                if isinstance(due, int) and due >= 1:
                    thread["due_chapter"] = due
                related = [r for r in str(payload.get("target") or "").split(",") if r]
                if related:
                    thread["related"] = related
            elif row["subject"] not in planted:
                out.warnings.append(
                    say("upstream_unplanted_thread", chapter=chapter, thread=row["subject"])
                )
                continue
            elif content:
                thread["content"] = content
            results.add(chapter, "plot_threads", thread)
        elif kind in ("world_rule_revealed", "world_rule_broken"):
            text = str(
                payload.get("rule_content")
                or payload.get("rule")
                or payload.get("description")
                or ""
            ).strip()
            if kind == "world_rule_revealed" and text:
                rule = {"id": row["subject"], "rule": text}
                if payload.get("domain"):
                    rule["domain"] = str(payload["domain"])
                results.add(chapter, "world_rules", rule)
            elif kind == "world_rule_broken":
                retired = {"id": row["subject"], "action": "retire", "rule": text or row["subject"]}
                results.add(chapter, "world_rules", retired)
        elif kind not in (
            "relationship_changed",
            "character_state_changed",
            "power_breakthrough",
            "artifact_obtained",
        ):
            out.unmapped[f"story_events {kind}"] = out.unmapped.get(f"story_events {kind}", 0) + 1


def _threads_and_rules_from_scratchpad(
    scratchpad: dict[str, Any], results: _Results, out: UpstreamBook
) -> None:
    for key, kind in (("open_loops", "open_loop"), ("reader_promises", "reader_promise")):
        for item in scratchpad.get(key) or []:
            payload = item.get("payload") or {}
            content = str(item.get("value") or item.get("subject") or "").strip()
            chapter = int(payload.get("planted_chapter") or item.get("source_chapter") or 0)
            if not content or chapter < 1:
                continue
            thread = {
                "id": _stable_id("loop", content),
                "kind": kind,
                "action": "plant",
                "content": content,
            }
            if isinstance(payload.get("expected_payoff"), int):
                thread["due_chapter"] = payload["expected_payoff"]
            results.add(chapter, "plot_threads", thread)
    for item in scratchpad.get("world_rules") or []:
        text = str(item.get("value") or "").strip()
        chapter = int(item.get("source_chapter") or 0)
        if text and chapter >= 1:
            rule = {"id": _stable_id("rule", text), "rule": text}
            if item.get("subject"):
                rule["domain"] = str(item["subject"])
            results.add(chapter, "world_rules", rule)


def _chapter_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.md")) if folder.is_dir() else []


def _small_file(path: Path) -> str:
    """A JSON side file of the upstream project: bounded like every other read."""
    return read_bounded(path, MAX_RESULT_BYTES).decode("utf-8", "replace")


def _chapter_texts(folder: Path, out: UpstreamBook) -> dict[int, str]:
    texts: dict[int, str] = {}
    if not folder.is_dir():
        out.warnings.append(say("upstream_no_texts", folder=folder))
        return texts
    for path in _chapter_files(folder):
        found = CHAPTER_FILE.search(path.name)
        if not found:
            continue
        number = int(found[1])
        if number in texts:
            out.warnings.append(say("upstream_chapter_twice", chapter=number, skipped=path.name))
            continue
        text, encoding = read_text(path)
        texts[number] = text
    return texts
