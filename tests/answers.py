"""Helpers for tests: a naive replay oracle, and a dump of a book's answers for comparison."""

from __future__ import annotations

from typing import Any

import webnovel
from webnovel.config import BookConfig
from webnovel.memory.clock import SceneTime, fold_clock

CLOSING = {"resolve": "resolved", "abandon": "abandoned"}


def naive_replay(
    results: dict[int, dict[str, Any]], as_of: int, config: BookConfig | None = None
) -> dict[str, Any]:
    """Apply chapters 1..as_of in order, the slow obvious way (entity refs are ids)."""
    config = config or BookConfig()
    facts: dict[tuple[str, str], Any] = {}
    relations: dict[tuple[str, str, str], str] = {}
    threads: dict[str, str] = {}
    rules: dict[str, str] = {}
    for chapter in sorted(results):
        if chapter > as_of:
            break
        result = results[chapter]
        for entity in result.get("entities_new", []):
            for field, value in entity.get("current", {}).items():
                facts[(entity["id"], field)] = value
        for change in result.get("state_changes", []):
            if change.get("confidence", 1.0) < config.tentative_below:
                continue
            key = (change["entity_id"], change["field"])
            op = change.get("op", "set")
            if op == "set":
                facts[key] = change["new"]
                continue
            current = facts.get(key)
            members = (
                set(current)
                if isinstance(current, list)
                else (set() if current is None else {current})
            )
            if op == "add":
                members.add(change["new"])
            elif change["new"] in members:
                members.remove(change["new"])
            else:
                continue
            facts[key] = sorted(members)
        for rel in result.get("relationships_new", []):
            key = (rel["from"], rel["to"], config.relation_group(rel["type"]))
            if rel.get("action") in ("end", "remove"):
                if relations.get(key) == rel["type"]:
                    del relations[key]
            elif rel.get("confidence", 1.0) >= config.tentative_below:
                relations[key] = rel["type"]
        for thread in result.get("plot_threads", []):
            action = thread.get("action", "plant")
            current = threads.get(thread["id"])
            if current is None:
                threads[thread["id"]] = CLOSING.get(action, "open")
            elif current != "open":
                if action == "plant":
                    threads[thread["id"]] = "open"
            elif action in CLOSING:
                threads[thread["id"]] = CLOSING[action]
        for rule in result.get("world_rules", []):
            if rule.get("action", "reveal") == "retire":
                rules.pop(rule["id"], None)
            else:
                rules[rule["id"]] = rule["rule"]
    clock = fold_clock(
        SceneTime(
            chapter=chapter,
            scene=scene["index"],
            time=scene.get("time"),
            mode="flashback" if scene.get("flashback") is True else scene.get("flashback"),
        )
        for chapter in sorted(results)
        if chapter <= as_of
        for scene in results[chapter].get("scenes", [])
    )
    return {
        "clock": (clock.day, clock.day_latest, clock.part),
        "rules": rules,
        "facts": facts,
        "relations": {(s, t, rel_type) for (s, t, _), rel_type in relations.items()},
        "threads": threads,
    }


def book_answers(
    book: webnovel.Project, entities: list[str], fields: list[str], chapters: list[int]
) -> dict[str, Any]:
    """Everything the book answers about these entities and chapters, minus record times."""
    out: dict[str, Any] = {}
    for n in chapters:
        for entity in entities:
            # Every field the entity holds, in one read (a fact apiece cost an entity lookup and
            # a statement each: a round trip each on PostgreSQL); the fields asked for are named
            # even where nothing holds. `fact` itself is checked against a naive replay
            # (test_temporal_properties).
            held = {i.field: i for i in book.facts(entity, as_of=n)}
            for field in sorted({*fields, *held}):
                item = held.get(field)
                out[f"fact {entity}.{field}@{n}"] = (
                    (item.value, item.status, item.valid_from, item.valid_to) if item else None
                )
            out[f"rel {entity}@{n}"] = sorted(
                (r.source, r.target, r.type, r.valid_from) for r in book.relations(entity, as_of=n)
            )
        out[f"threads@{n}"] = sorted(
            (t.id, t.status, t.overdue, t.content) for t in book.threads("all", as_of=n)
        )
        out[f"rules@{n}"] = sorted((r.id, r.rule, r.valid_from) for r in book.rules(as_of=n))
        out[f"clock@{n}"] = book.clock(as_of=n).to_dict()
    for entity in entities:
        out[f"history {entity}"] = [
            (
                i.field,
                i.value,
                i.status,
                i.valid_from,
                i.valid_to,
                tuple(e["ref"] for e in i.evidence),
            )
            for i in book.history(entity)
        ]
    out["conflicts"] = sorted(
        (c.id, c.kind, c.entity_id, c.field, c.chapter) for c in book.conflicts()
    )
    out["timeline"] = [(e.id, e.event) for e in book.timeline()]
    return out
