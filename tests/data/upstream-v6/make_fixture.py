"""Make the upstream fixture: a webnovel-writer v6 project written by that project's own scripts.

The first chapters of the bundled sample serial are told to the upstream pipeline the way its
agents would (its review, fulfillment, disambiguation and extraction artifacts for each chapter,
then its `chapter_commit.py`; extra aliases through its `entity_linker register-alias`). What its
scripts wrote is copied here: `.webnovel/state.json`, `index.db`, `memory_scratchpad.json` and
the chapter texts. Only that data is kept in this repository, never the upstream code.

    python tests/data/upstream-v6/make_fixture.py --scripts UPSTREAM/webnovel-writer/scripts \\
        --python VENV/bin/python        # a Python with pydantic, filelock and aiohttp
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parents[2] / "examples" / "sample-book"
CHAPTERS = 4


def entity_ids(results: list[dict[str, Any]]) -> dict[str, str]:
    """Every name and alias of the sample's entities → the entity's id."""
    names: dict[str, str] = {}
    for result in results:
        for entity in result.get("entities_new", []):
            for name in (entity["id"], entity["name"], *entity.get("aliases", [])):
                names.setdefault(name, entity["id"])
    return names


def artifacts(result: dict[str, Any], ids: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The upstream pipeline's four artifacts for one chapter of the sample."""
    n = result["chapter"]
    events: list[dict[str, Any]] = []
    for rel in result.get("relationships_new", []):
        events.append(
            {
                "event_type": "relationship_changed",
                "subject": rel["from"],
                "payload": {
                    "from_entity": rel["from"],
                    "to_entity": rel["to"],
                    "relationship_type": rel["type"],
                    "description": rel.get("description", ""),
                },
            }
        )
    for thread in result.get("plot_threads", []):
        kind, action = thread.get("kind", "open_loop"), thread["action"]
        if action == "plant" and kind == "reader_promise":
            event_type = "promise_created"
        elif action == "plant":
            event_type = "open_loop_created"
        elif action == "resolve" and kind == "reader_promise":
            event_type = "promise_paid_off"
        elif action == "resolve":
            event_type = "open_loop_closed"
        else:
            continue  # upstream has no event for advancing a thread
        events.append(
            {
                "event_type": event_type,
                "subject": thread["id"],
                "payload": {
                    "content": thread["content"],
                    "urgency": thread.get("urgency"),
                    "planted_chapter": n if action == "plant" else None,
                    "expected_payoff": thread.get("due_chapter"),
                    "target": ",".join(thread.get("related", [])),
                },
            }
        )
    for rule in result.get("world_rules", []):
        events.append(
            {
                "event_type": "world_rule_revealed",
                "subject": rule["id"],
                "payload": {"rule_content": rule["rule"], "domain": rule.get("domain")},
            }
        )
    entity_deltas = [
        {
            "entity_id": e["id"],
            "canonical_name": e["name"],
            "type": e.get("type", "角色"),
            "tier": e.get("tier", "装饰"),
            "desc": e.get("desc", ""),
            "current": e.get("current", {}),
            "is_protagonist": bool(e.get("is_protagonist")),
            "chapter": n,
        }
        for e in result.get("entities_new", [])
    ]
    state_deltas = [
        {
            "entity_id": c["entity_id"],
            "field": c["field"],
            "old": c.get("old"),
            "new": c["new"],
            "reason": c.get("reason", ""),
            "chapter": n,
        }
        for c in result.get("state_changes", [])
    ]
    appeared = [
        {"id": ids.get(a["id"], a["id"]), "mentions": [a["id"]], "confidence": 1.0}
        for a in result.get("entities_appeared", [])
    ]
    scenes = [
        {
            "scene_index": s["index"],
            "location": s.get("location", ""),
            "characters": s.get("characters", []),
            "summary": s.get("summary", ""),
        }
        for s in result.get("scenes", [])
    ]
    return {
        "review": {"blocking_count": 0, "issues": []},
        "fulfillment": {
            "planned_nodes": [],
            "covered_nodes": [],
            "missed_nodes": [],
            "extra_nodes": [],
        },
        "disambiguation": {"pending": []},
        "extraction": {
            "accepted_events": events,
            "state_deltas": state_deltas,
            "entity_deltas": entity_deltas,
            "entities_appeared": appeared,
            "scenes": scenes,
            "chapter_meta": {
                "title": result["title"],
                "word_count": result.get("word_count", 0),
                "location": (result.get("chapter_meta", {}).get("ending") or {}).get(
                    "location", ""
                ),
            },
            "summary_text": result.get("summary", ""),
        },
    }


def run(python: str, scripts: Path, *args: str) -> None:
    subprocess.run([python, *args], cwd=scripts, check=True, capture_output=True, text=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scripts", type=Path, required=True, help="upstream webnovel-writer/scripts"
    )
    parser.add_argument("--python", default=sys.executable, help="a Python with pydantic, filelock")
    parser.add_argument("--out", type=Path, default=HERE / "project")
    args = parser.parse_args()
    results = [
        json.loads((SAMPLE / "results" / f"{n:03d}.json").read_text(encoding="utf-8"))
        for n in range(1, CHAPTERS + 1)
    ]
    ids = entity_ids(results)
    with tempfile.TemporaryDirectory() as work:
        root = Path(work) / "青灯照剑"
        run(
            args.python,
            args.scripts,
            "init_project.py",
            str(root),
            "青灯照剑",
            "仙侠",
            "--protagonist-name",
            "林砚",
        )
        for result in results:
            n = result["chapter"]
            text = (SAMPLE / "chapters" / f"{n:03d}.md").read_text(encoding="utf-8")
            (root / "正文" / f"第{n:04d}章-{result['title']}.md").write_text(text, encoding="utf-8")
            paths = []
            for name, data in artifacts(result, ids).items():
                path = Path(work) / f"ch{n}.{name}.json"
                path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
                paths.append(str(path))
            run(
                args.python,
                args.scripts,
                "chapter_commit.py",
                "--project-root",
                str(root),
                "--chapter",
                str(n),
                "--review-result",
                paths[0],
                "--fulfillment-result",
                paths[1],
                "--disambiguation-result",
                paths[2],
                "--extraction-result",
                paths[3],
            )
            for entity in result.get("entities_new", []):
                for alias in entity.get("aliases", []):
                    run(
                        args.python,
                        args.scripts,
                        "-m",
                        "data_modules.entity_linker",
                        "--project-root",
                        str(root),
                        "register-alias",
                        "--entity",
                        entity["id"],
                        "--alias",
                        alias,
                        "--type",
                        entity.get("type", "角色"),
                    )
        if args.out.exists():
            shutil.rmtree(args.out)
        (args.out / ".webnovel").mkdir(parents=True)
        for name in ("state.json", "index.db", "memory_scratchpad.json"):
            if (root / ".webnovel" / name).exists():
                shutil.copy2(root / ".webnovel" / name, args.out / ".webnovel" / name)
        shutil.copytree(root / "正文", args.out / "正文")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
