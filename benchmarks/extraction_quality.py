"""How well a real model extracts chapter results, against the sample serial's own results.

    WEBNOVEL_LLM_BASE_URL=https://api.deepseek.com/v1 WEBNOVEL_LLM_API_KEY=… \\
    WEBNOVEL_LLM_MODEL=deepseek-chat python benchmarks/extraction_quality.py
    python benchmarks/extraction_quality.py --self-check   # the metrics on a perfect "model"

It imports the twelve chapter texts of 《青灯照剑》 (examples/sample-book) into a new book, runs
`extract` over them with the model the user configured (user config or WEBNOVEL_LLM_*), and
compares the result with the demo book, which commits the hand-written results:

- entities: recall and precision of the gold entities (a match is the same name, or a name one
  side lists as an alias of the other);
- state changes: of the gold (entity, field) values as of each chapter, the share the extracted
  book answers the same;
- threads: of the gold threads, the share found (by content, bigram overlap) with the same
  status as of chapter 12;
- tokens and cost per chapter, and the share of input the provider's cache served.

With no model configured or reachable it says "not measured here" and exits 0. `--self-check`
answers with the gold results from a local server, so every score must be 1.0: a test of the
measuring code itself.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.errors import WebnovelError  # noqa: E402
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters  # noqa: E402

ASKED = re.compile(r"请输出第(\d+)章的章节结果")


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


def _similar(a: str, b: str) -> float:
    x, y = _bigrams(a), _bigrams(b)
    return len(x & y) / len(x | y) if x and y else 0.0


def entity_scores(gold: webnovel.Project, got: webnovel.Project) -> dict[str, float]:
    def names(e: Any) -> set[str]:
        return {e.name, *e.aliases}

    gold_entities, got_entities = gold.entities(), [e for e in got.entities() if not e.tentative]
    found = sum(any(names(g) & names(e) for e in got_entities) for g in gold_entities)
    right = sum(any(names(g) & names(e) for g in gold_entities) for e in got_entities)
    return {
        "entity_recall": found / len(gold_entities) if gold_entities else 1.0,
        "entity_precision": right / len(got_entities) if got_entities else 0.0,
    }


def _same_entity(got: webnovel.Project, name: str) -> str | None:
    try:
        return got.entity(name).id
    except WebnovelError:
        return None


def state_accuracy(gold: webnovel.Project, got: webnovel.Project) -> float:
    checked = agreed = 0
    for chapter in sample_chapters():
        for change in chapter.result.get("state_changes", []):
            entity = gold.entity(change["entity_id"])
            expected = gold.fact(entity.id, change["field"], as_of=chapter.number)
            checked += 1
            other = _same_entity(got, entity.name)
            if other is None or expected is None:
                continue
            found = got.fact(other, change["field"], as_of=chapter.number)
            agreed += found is not None and found.value == expected.value
    return agreed / checked if checked else 1.0


def thread_accuracy(gold: webnovel.Project, got: webnovel.Project) -> float:
    theirs = got.threads("all", as_of=12)
    hits = 0
    gold_threads = gold.threads("all", as_of=12)
    for thread in gold_threads:
        best = max(theirs, key=lambda t: _similar(t.content, thread.content), default=None)
        if best and _similar(best.content, thread.content) >= 0.2 and best.status == thread.status:
            hits += 1
    return hits / len(gold_threads) if gold_threads else 1.0


def measure(root: Path) -> dict[str, Any]:
    with webnovel.init_project(root / "demo", title="青灯照剑") as gold:
        for chapter in sample_chapters():
            gold.commit(chapter.result, text=chapter.text)
        with webnovel.init_project(root / "extracted", title="青灯照剑") as got:
            got.import_text(sample_book_dir() / "chapters")
            report = got.extract().to_dict()
            scores = {
                **entity_scores(gold, got),
                "state_accuracy": state_accuracy(gold, got),
                "thread_accuracy": thread_accuracy(gold, got),
            }
    total = report["total"]
    chapters = max(1, total["chapters"])
    tokens = total["tokens"]
    return {
        "model": report["model"],
        "response_mode": report["response_mode"],
        **{k: round(v, 3) for k, v in scores.items()},
        "per_chapter": {
            "requests": round(total["requests"] / chapters, 2),
            "input_tokens": tokens["input"] // chapters,
            "output_tokens": tokens["output"] // chapters,
            "cost": None if total["cost"] is None else round(total["cost"] / chapters, 5),
        },
        "cached_share": round(tokens["cached"] / tokens["input"], 3) if tokens["input"] else 0.0,
        "repairs": sum(r["repairs"] for r in report["chapters"]),
    }


def gold_server() -> ThreadingHTTPServer:
    results = {c.number: c.result for c in sample_chapters()}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            chapter = int(ASKED.search(body["messages"][-1]["content"]).group(1))
            content = json.dumps(results[chapter], ensure_ascii=False)
            payload = json.dumps(
                {
                    "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-check", action="store_true", help="a perfect local 'model'")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.self_check:
            httpd = gold_server()
            os.environ.update(
                WEBNOVEL_LLM_BASE_URL=f"http://127.0.0.1:{httpd.server_address[1]}/v1",
                WEBNOVEL_LLM_MODEL="gold",
                XDG_STATE_HOME=folder,
            )
        try:
            result = measure(Path(folder))
        except WebnovelError as exc:
            print(f"extraction quality: not measured here ({exc})")
            return 0
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if args.self_check:
        perfect = all(
            result[k] == 1.0
            for k in ("entity_recall", "entity_precision", "state_accuracy", "thread_accuracy")
        )
        return 0 if perfect else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
