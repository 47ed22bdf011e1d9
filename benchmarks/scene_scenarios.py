"""Scene scenarios for `pack_quality.py --scenes`: packs for chapter N + 1 built with an outline
that names nobody, judged by what the next scene needs.

Two books: the sample serial continued to chapter 19 (`scene_chapters.py`), packs for 14–19;
and a generated saga, packs for sampled chapters. For each pack the needed facts are:

- present: the people of the next chapter's scenes known by N (sample serial); in the saga,
  whose casts are drawn at random each chapter, the protagonist and the people of chapter N's
  last scene;
- their state as of N (location, status, items, health; the saga's realm too), stated with the
  true value;
- what they do not know: for each open secret about or known by one of them, each living one
  who neither knows it nor is it about (unless unaware): a 「X 尚不知：…」 line (「仅怀疑」 for a
  suspicion);
- the dead among them or in the scenes of chapter N;
- open conflicts touching them (and critical ones of the last five chapters).

False lines: a 「X 尚不知」 said of someone who knows the secret (learned it, or it is about them
and they are not listed unaware) or who is dead, and a current-state line whose value is not
the truth as of N. Unneeded tokens: items that are none of the needed facts, not in 本章须知 or
the working memory, name none of the people present, are not a thread due within ten
chapters, and are not a world rule sharing two character bigrams with the next chapter's
summary or with what those present hold or where they are.
"""

from __future__ import annotations

import random
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import webnovel
from scene_chapters import CHAPTERS
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.packs.memory_pack import MemoryPack
from webnovel.memory.packs.relevance_filter import bigrams
from webnovel.memory.write.rulebook import RULES

from saga import generate_saga

OUTLINE = "夜色渐深，故事继续。"  # names nobody
BUDGETS = (1500, 4000, 8000)
STATE_FIELDS = ("location", "status", "items", "health")
SAGA_FIELDS = ("realm", "location", "status", "items")
WINDOW = 5
UNAWARE = re.compile(r"^- (.+?) (尚不知|仅怀疑)：(.+)$")
DUE = re.compile(r"第(\d+)章前回收")
DUE_WINDOW = 10

Truth = Callable[[str, str, int], Any]


def _needed(
    book: webnovel.Project,
    pack: MemoryPack,
    present: set[str],
    as_of: int,
    truth: Truth,
    fields: tuple[str, ...],
    next_summary: str,
) -> dict[str, Any]:
    """(needed, found, false, unneeded tokens, used tokens) of one pack."""
    items = [(s.name, i) for s in pack.sections for i in s.items]
    lines = {i.line for _, i in items}
    state = {
        (i.subject, i.field): i.value
        for _, i in items
        if i.category == "character_state" and i.status == "active"
    }
    names = book.names(present, as_of=as_of)
    dead = {e for e in _scene_people(book, as_of) | present if _is_dead(truth, e, as_of)}
    living = present - dead
    in_play = {e["id"] for e in pack.entities_in_play}
    needed: list[tuple[str, bool]] = [(f"present:{e}", e in in_play) for e in present]
    for entity in sorted(living):
        for field in fields:
            value = truth(entity, field, as_of)
            if value not in (None, []):
                needed.append((f"state:{entity}:{field}", state.get((entity, field)) == value))
    for entity in sorted(dead):
        shown = any(line.startswith(f"- {_name(book, entity, as_of)} 已于第") for line in lines)
        needed.append((f"dead:{entity}", shown))
    unaware_lines = _unaware_needed(book, living, as_of)
    needed += [(line, line in lines) for line in unaware_lines]
    shown_conflicts = {c.id for c in pack.conflicts}
    for conflict in book.conflicts(as_of=as_of):
        touches = conflict.entity_id in present or conflict.target in present
        rule = RULES.get(conflict.kind)
        critical = rule is not None and rule.severity == "critical"
        if touches or (critical and conflict.chapter > as_of - WINDOW):
            needed.append((f"conflict:{conflict.id}", conflict.id in shown_conflicts))
    false = _false_lines(book, items, as_of, truth)
    wanted = set(unaware_lines)
    next_text = bigrams(next_summary)
    for entity in living:  # a rule about what those present hold or where they are
        for field in ("items", "location"):
            value = truth(entity, field, as_of)
            for part in value if isinstance(value, list) else [value]:
                next_text |= bigrams(str(part)) if part else frozenset()
    unneeded = sum(
        i.tokens
        for section, i in items
        if section not in ("must_know", "working_memory")
        and i.line not in wanted
        and i.subject not in present
        and not any(names.get(e, e) in i.line for e in present)
        and not _due_soon(i, as_of + 1)
        and not (i.category == "world_rules" and len(bigrams(str(i.value)) & next_text) >= 2)
    )
    return {
        "needed": len(needed),
        "found": sum(found for _, found in needed),
        "false": false,
        "unneeded_tokens": unneeded,
        "used_tokens": pack.used_tokens,
        "missing": [what for what, found in needed if not found],
    }


def _due_soon(item: Any, chapter: int) -> bool:
    """A thread due within the pack's due window: the writer works towards it now."""
    found = DUE.search(item.line) if item.source_type == "thread" else None
    return found is not None and int(found[1]) - chapter <= DUE_WINDOW


def _name(book: webnovel.Project, entity: str, as_of: int) -> str:
    return book.names([entity], as_of=as_of).get(entity, entity)


def _is_dead(truth: Truth, entity: str, as_of: int) -> bool:
    return truth(entity, "status", as_of) == "死亡"


def _scene_people(book: webnovel.Project, as_of: int) -> set[str]:
    try:
        return {
            book.entity(name).id
            for scene in book.chapter(as_of).scenes
            for name in scene.characters
        }
    except webnovel.errors.WebnovelError:
        return set()


def _unaware_needed(book: webnovel.Project, living: set[str], as_of: int) -> list[str]:
    """The 「尚不知」 lines the scene needs, from the secrets' own records (who knows, whom each
    is about and who of those is unaware), not from the pack's code path."""
    characters = {e for e in living if book.entity(e).type == "角色"}
    names = book.names(characters, as_of=as_of)
    knowing = {e: {k.secret_id: k.state for k in book.knows(e, as_of=as_of)} for e in characters}
    out = []
    for secret in book.secrets(as_of=as_of):
        if secret.status != "open":
            continue
        holders = {e for e in characters if knowing[e].get(secret.id) == "knows"}
        about = {e for e in characters if names[e] in secret.about}
        if not (holders | about):
            continue
        for entity in sorted(characters - holders):
            if names[entity] in secret.about and names[entity] not in secret.unaware:
                continue  # the rule: a secret about someone is theirs to know
            word = "仅怀疑" if knowing[entity].get(secret.id) == "suspects" else "尚不知"
            out.append(f"- {names[entity]} {word}：{secret.content}")
    return out


def _false_lines(
    book: webnovel.Project, items: list[tuple[str, Any]], as_of: int, truth: Truth
) -> int:
    false = 0
    secrets = {s.content: s for s in book.secrets(as_of=as_of)}
    for _, item in items:
        found = UNAWARE.match(item.line)
        if found:
            entity = book.entity(found[1])
            secret = secrets.get(found[3])
            knows = {k.secret_id: k.state for k in book.knows(entity.id, as_of=as_of)}
            concerned = secret is not None and found[1] in secret.about
            aware = concerned and found[1] not in secret.unaware
            if (
                secret is None
                or knows.get(secret.id) == "knows"
                or aware
                or _is_dead(truth, entity.id, as_of)
            ):
                false += 1
        elif item.category == "character_state" and item.status == "active":
            false += item.value != truth(item.subject, item.field, as_of)
    return false


def _add(totals: dict[str, Any], one: dict[str, Any]) -> None:
    for key in ("needed", "found", "false", "unneeded_tokens", "used_tokens"):
        totals[key] = totals.get(key, 0) + one[key]
    totals.setdefault("missing", []).extend(one["missing"])


def _report(totals: dict[str, Any], timings: list[float]) -> dict[str, Any]:
    timings.sort()
    return {
        "packs": totals.get("packs", 0),
        "needed": totals["needed"],
        "recall": round(totals["found"] / max(1, totals["needed"]), 4),
        "false_lines": totals["false"],
        "unneeded_share": round(totals["unneeded_tokens"] / max(1, totals["used_tokens"]), 4),
        "pack_ms_p95": round(timings[int(0.95 * (len(timings) - 1))], 1) if timings else None,
        "missing": sorted(set(totals["missing"]))[:12],
    }


def sample_serial() -> dict[int, dict[str, Any]]:
    """The sample serial continued: packs for chapters 14–19 at each budget."""
    with tempfile.TemporaryDirectory() as folder:
        book = webnovel.init_project(Path(folder) / "book", title="青灯照剑")
        with book:
            for chapter in sample_chapters():
                book.commit(chapter.result)
            report = {}
            for budget in BUDGETS:
                totals: dict[str, Any] = {"packs": 0}
                timings: list[float] = []
                for following in CHAPTERS[1:]:
                    n = following["chapter"]
                    _commit_through(book, n - 1)
                    present = {
                        book.entity(name).id
                        for scene in following["scenes"]
                        for name in scene["characters"]
                        if _known(book, name, n - 1)
                    }
                    started = time.perf_counter()
                    pack = book.build_memory_pack(
                        "chapter_write", n, outline=OUTLINE, budget_tokens=budget, record=False
                    )
                    timings.append((time.perf_counter() - started) * 1000)
                    truth = _book_truth(book)
                    summary = following["summary"]
                    _add(totals, _needed(book, pack, present, n - 1, truth, STATE_FIELDS, summary))
                    totals["packs"] += 1
                report[budget] = _report(totals, timings)
    return report


def _commit_through(book: webnovel.Project, last: int) -> None:
    latest = book.latest_chapter() or 0
    for result in CHAPTERS:
        if latest < result["chapter"] <= last:
            book.commit(result)


def _known(book: webnovel.Project, name: str, as_of: int) -> bool:
    return any(e.name == name or name in e.aliases for e in book.entities(as_of))


def _book_truth(book: webnovel.Project) -> Truth:
    def truth(entity: str, field: str, as_of: int) -> Any:
        item = book.fact(entity, field, as_of=as_of)
        return item.value if item is not None else None

    return truth


def saga(chapters: int = 300, samples: int = 30, seed: int = 7) -> dict[int, dict[str, Any]]:
    """The generated saga: packs for sampled chapters, present = the last scene of N and the
    protagonist."""
    story = generate_saga(chapters, seed=seed)
    with tempfile.TemporaryDirectory() as folder:
        book = webnovel.init_project(Path(folder) / "book", title="saga")
        with book:
            for result in story.results:
                book.commit(result)
            picks = sorted(random.Random(3).sample(range(3, chapters + 1), samples))
            report = {}
            for budget in BUDGETS:
                totals: dict[str, Any] = {"packs": 0}
                timings: list[float] = []
                for n in picks:
                    scenes = story.results[n - 2]["scenes"]
                    present = set(scenes[-1]["characters"]) if scenes else set()
                    present.add("e0")  # the protagonist, in every chapter's point of view
                    started = time.perf_counter()
                    pack = book.build_memory_pack(
                        "chapter_write", n, outline=OUTLINE, budget_tokens=budget, record=False
                    )
                    timings.append((time.perf_counter() - started) * 1000)
                    summary = story.results[n - 1]["summary"]
                    one = _needed(
                        book, pack, present, n - 1, story.truth.fact, SAGA_FIELDS, summary
                    )
                    _add(totals, one)
                    totals["packs"] += 1
                report[budget] = _report(totals, timings)
    return report
