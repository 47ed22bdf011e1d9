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

from .errors import InvalidInput
from .text_files import read_text

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


def _rows(conn: sqlite3.Connection, table: str, order: str) -> list[sqlite3.Row]:
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    return conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall() if exists else []


def _json(text: Any, default: Any) -> Any:
    if not isinstance(text, str) or not text:
        return default
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return default


def _thread_id(content: str) -> str:
    return "loop-" + hashlib.blake2b(content.encode("utf-8"), digest_size=5).hexdigest()


def read_upstream(root: Path) -> UpstreamBook:
    memory = root / ".webnovel"
    if not (memory / "index.db").is_file():
        raise InvalidInput(
            f"{root} is not a webnovel-writer project: {memory / 'index.db'} is missing"
        )
    state = (
        _json((memory / "state.json").read_text("utf-8"), {})
        if (memory / "state.json").is_file()
        else {}
    )
    info = state.get("project_info") or {}
    conn = sqlite3.connect(f"file:{memory / 'index.db'}?mode=ro", uri=True)
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


def _read(conn: sqlite3.Connection, root: Path, memory: Path) -> UpstreamBook:
    out = UpstreamBook("", None, [], {})
    per_chapter: dict[int, dict[str, Any]] = defaultdict(dict)

    def result(chapter: int) -> dict[str, Any]:
        slot = per_chapter[chapter]
        slot.setdefault("chapter", chapter)
        return slot

    for row in _rows(conn, "chapters", "chapter"):
        slot = result(row["chapter"])
        slot["title"] = row["title"] or None
        slot["summary"] = row["summary"] or None
        if row["word_count"]:
            slot["word_count"] = int(row["word_count"])

    aliases: dict[str, list[str]] = defaultdict(list)
    for row in _rows(conn, "aliases", "rowid"):
        if row["alias"] not in GENERIC_ALIASES:
            aliases[row["entity_id"]].append(row["alias"])
    changes = _rows(conn, "state_changes", "chapter, id")
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
        for key, column in (("tier", "tier"), ("desc", "desc")):
            if row[column]:
                entity[key] = row[column]
        if row["is_protagonist"]:
            entity["is_protagonist"] = True
        result(max(1, int(row["first_appearance"] or 1))).setdefault("entities_new", []).append(
            entity
        )

    for row in changes:
        change = {"entity_id": row["entity_id"], "field": row["field"], "new": row["new_value"]}
        if row["old_value"]:
            change["old"] = row["old_value"]
        if row["reason"]:
            change["reason"] = row["reason"]
        result(row["chapter"]).setdefault("state_changes", []).append(change)

    for row in _rows(conn, "relationships", "chapter, id"):
        relation = {"from": row["from_entity"], "to": row["to_entity"], "type": row["type"]}
        if row["description"]:
            relation["description"] = row["description"]
        result(row["chapter"]).setdefault("relationships_new", []).append(relation)

    for row in _rows(conn, "scenes", "chapter, scene_index"):
        scene = {
            "index": int(row["scene_index"]),
            "location": row["location"] or None,
            "characters": _json(row["characters"], []),
            "summary": row["summary"] or None,
        }
        result(row["chapter"]).setdefault("scenes", []).append(scene)

    for row in _rows(conn, "appearances", "chapter, id"):
        appeared = {"id": row["entity_id"]}
        mentions = [m for m in _json(row["mentions"], []) if isinstance(m, str) and m]
        if mentions:
            appeared["mentions"] = mentions
        result(row["chapter"]).setdefault("entities_appeared", []).append(appeared)

    events = _rows(conn, "story_events", "chapter, id")
    scratchpad = (
        _json((memory / "memory_scratchpad.json").read_text("utf-8"), {})
        if (memory / "memory_scratchpad.json").is_file()
        else {}
    )
    if events:
        _threads_and_rules_from_events(events, result, out)
    else:
        _threads_and_rules_from_scratchpad(scratchpad, result, out)
    for item in scratchpad.get("timeline") or []:
        chapter = int(item.get("source_chapter") or 0)
        text = str(item.get("value") or item.get("subject") or "").strip()
        if chapter >= 1 and text:
            result(chapter).setdefault("timeline_events", []).append({"event": text})
    for key in ("character_state", "story_facts", "relationships"):
        if scratchpad.get(key):
            # derived upstream from the state changes and relationships read above
            out.unmapped[f"memory_scratchpad.json {key}"] = len(scratchpad[key])
    for table in ("tool_call_stats", "review_metrics", "invalid_facts", "rag_query_log"):
        count = len(_rows(conn, table, "rowid"))
        if count:
            out.unmapped[f"index.db {table}"] = count

    out.texts = _chapter_texts(root / "正文", out)
    for chapter in out.texts:
        result(chapter)
    out.results = [per_chapter[n] for n in sorted(per_chapter)]
    for slot in out.results:
        slot["title"] = slot.get("title") or None
    return out


def _threads_and_rules_from_events(
    events: list[sqlite3.Row], result: Any, out: UpstreamBook
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
                    f"第{chapter}章回收的线索「{row['subject']}」没有埋设记录，已跳过"
                )
                continue
            elif content:
                thread["content"] = content
            result(chapter).setdefault("plot_threads", []).append(thread)
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
                result(chapter).setdefault("world_rules", []).append(rule)
            elif kind == "world_rule_broken":
                result(chapter).setdefault("world_rules", []).append(
                    {"id": row["subject"], "action": "retire", "rule": text or row["subject"]}
                )
        elif kind not in (
            "relationship_changed",
            "character_state_changed",
            "power_breakthrough",
            "artifact_obtained",
        ):
            out.unmapped[f"story_events {kind}"] = out.unmapped.get(f"story_events {kind}", 0) + 1


def _threads_and_rules_from_scratchpad(scratchpad: dict, result: Any, out: UpstreamBook) -> None:
    for key, kind in (("open_loops", "open_loop"), ("reader_promises", "reader_promise")):
        for item in scratchpad.get(key) or []:
            payload = item.get("payload") or {}
            content = str(item.get("value") or item.get("subject") or "").strip()
            chapter = int(payload.get("planted_chapter") or item.get("source_chapter") or 0)
            if not content or chapter < 1:
                continue
            thread = {
                "id": _thread_id(content),
                "kind": kind,
                "action": "plant",
                "content": content,
            }
            if isinstance(payload.get("expected_payoff"), int):
                thread["due_chapter"] = payload["expected_payoff"]
            result(chapter).setdefault("plot_threads", []).append(thread)
    for item in scratchpad.get("world_rules") or []:
        text = str(item.get("value") or "").strip()
        chapter = int(item.get("source_chapter") or 0)
        if text and chapter >= 1:
            rule = {"id": _thread_id(text).replace("loop-", "rule-"), "rule": text}
            if item.get("subject"):
                rule["domain"] = str(item["subject"])
            result(chapter).setdefault("world_rules", []).append(rule)


def _chapter_texts(folder: Path, out: UpstreamBook) -> dict[int, str]:
    texts: dict[int, str] = {}
    if not folder.is_dir():
        out.warnings.append(f"{folder} is missing: chapters are imported without their texts")
        return texts
    for path in sorted(folder.rglob("*.md")):
        found = CHAPTER_FILE.search(path.name)
        if not found:
            continue
        number = int(found[1])
        if number in texts:
            out.warnings.append(
                f"two files for chapter {number}; kept the first ({path.name} skipped)"
            )
            continue
        text, encoding = read_text(path)
        texts[number] = text
    return texts
