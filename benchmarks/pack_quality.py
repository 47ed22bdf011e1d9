"""Pack quality on a generated saga: does a `chapter_write` pack for chapter N+1 carry what the
writer of N+1 needs, and nothing stale or from the future?

"Needed" comes from the generator's ground truth. The outline of N+1 is its summary, which names
three characters; half the time one of them goes by an alias. For each of them, the writer needs
realm, location, status and items as of N. The writer also needs the relations between any two of
them that hold at N.

- recall: needed facts present as `active` items with the true value;
- stale leaks: `active` character-state items whose value is not the truth as of N;
- future leaks: items or evidence from chapter N+1 or later.

    python benchmarks/pack_quality.py --chapters 300 --samples 40
    python benchmarks/pack_quality.py --scenes      # the scene scenarios (scene_scenarios.py)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402

from saga import Saga, generate_saga  # noqa: E402

NEEDED_FIELDS = ("realm", "location", "status", "items")


def outline_for(saga: Saga, chapter: int, rng: random.Random) -> tuple[str, list[str]]:
    result = saga.results[chapter - 1]
    cast = [c for c in (s["characters"] for s in result["scenes"]) for c in c]
    named = list(dict.fromkeys(cast))[:3]
    text = result["summary"]
    for entity in named:
        name, aliases = saga.truth.names[entity]
        if rng.random() < 0.5:
            text = text.replace(name, rng.choice(aliases))
    return text, named


def check_pack(
    pack: webnovel.memory.packs.memory_pack.MemoryPack, saga: Saga, named: list[str], as_of: int
) -> dict[str, Any]:
    truth = saga.truth
    active: dict[tuple[str, str], Any] = {}
    stale, future, duplicate = 0, 0, 0
    relations = set()
    for section in pack.sections:
        for item in section.items:
            chapters = [item.source_chapter or 0] + [e.get("chapter") or 0 for e in item.evidence]
            if max(chapters) > as_of:
                future += 1
            if item.category == "relationship":
                relations.add((item.subject, item.field.split(":", 1)[1], item.value))
            # a held item's state may stand in 本章须知 (must_know) rather than its own section
            if item.category != "character_state" or item.status != "active":
                continue
            key = (item.subject, item.field)
            duplicate += key in active
            active[key] = item.value
            if item.value != truth.fact(item.subject, item.field, as_of):
                stale += 1
    needed, found = 0, 0
    for entity in named:
        for field in NEEDED_FIELDS:
            expected = truth.fact(entity, field, as_of)
            if expected is None:
                continue
            needed += 1
            found += active.get((entity, field)) == expected
    for a in named:
        for b in named:
            for source, target, rel_type in truth.relations_of(a, as_of):
                if (source, target) == (a, b):
                    needed += 1
                    found += (source, target, rel_type) in relations
    return {
        "needed": needed,
        "found": found,
        "stale": stale,
        "future": future,
        "duplicate_active": duplicate,
        "within_budget": pack.used_tokens <= pack.budget_tokens,
    }


def evaluate(
    book: webnovel.Project, saga: Saga, chapters: list[int], budget: int, seed: int = 1
) -> dict[str, Any]:
    rng = random.Random(seed)
    totals = {
        "needed": 0,
        "found": 0,
        "stale": 0,
        "future": 0,
        "duplicate_active": 0,
        "over_budget": 0,
        "packs": 0,
    }
    for chapter in chapters:
        outline, named = outline_for(saga, chapter, rng)
        pack = book.build_memory_pack(
            "chapter_write", chapter, outline=outline, budget_tokens=budget
        )
        result = check_pack(pack, saga, named, chapter - 1)
        for key in ("needed", "found", "stale", "future", "duplicate_active"):
            totals[key] += result[key]
        totals["over_budget"] += not result["within_budget"]
        totals["packs"] += 1
    totals["recall"] = round(totals["found"] / max(1, totals["needed"]), 4)
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chapters", type=int, default=300)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument(
        "--scenes",
        action="store_true",
        help="the scene scenarios: outlines naming nobody, at 1,500/4,000/8,000 tokens",
    )
    args = parser.parse_args()
    if args.scenes:
        return scene_report(args.chapters, args.samples)
    saga = generate_saga(args.chapters, seed=7)
    with (
        tempfile.TemporaryDirectory() as folder,
        webnovel.init_project(Path(folder) / "book", title="quality") as book,
    ):
        for result in saga.results[:-1]:
            book.commit(result)
        rng = random.Random(2)
        chapters = sorted(rng.sample(range(3, args.chapters + 1), args.samples))
        report = evaluate(book, saga, chapters, args.budget)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0 if report["recall"] >= 0.95 and not report["stale"] and not report["future"] else 1


def scene_report(chapters: int, samples: int) -> int:
    import scene_scenarios

    report = {
        "sample_serial": scene_scenarios.sample_serial(),
        "saga": scene_scenarios.saga(chapters, min(samples, chapters - 3)),
    }
    print(json.dumps(report, ensure_ascii=False, indent=2))
    at_4000 = [r[4000] for r in report.values()]
    ok = all(r["recall"] >= 0.95 and r["false_lines"] == 0 for r in at_4000)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
