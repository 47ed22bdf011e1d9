"""The engine's own part of `webnovel extract`, against a local server that answers at once.

    python benchmarks/extraction_speed.py --chapters 1000 --concurrency 8
    python benchmarks/extraction_speed.py --prompt-at 10000

The first run imports a seeded saga's text (benchmarks/saga.py), then extracts every chapter
from a chat-completions server in another process that answers each request instantly with
the saga's own result for the chapter: what is left is the engine's time (building requests,
HTTP, parsing, validating, committing). The second commits a saga of N chapters and times the
request build (what memory knows through the chapter before, the previous ending, the text) for
the last chapters, and reports each request's size beyond its chapter, its estimated input
tokens and the stable prefix's share of them (what a provider's prefix cache serves).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.extraction.answer_cache import AnswerCache  # noqa: E402
from webnovel.extraction.run import Extraction, plan  # noqa: E402
from webnovel.extraction.settings import LLMSettings  # noqa: E402
from webnovel.memory.packs.recipes import estimate_tokens  # noqa: E402
from webnovel.memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA  # noqa: E402

from saga import generate_saga  # noqa: E402

ASKED = re.compile(r"请输出第(\d+)章的章节结果")


def serve(port_file: str, chapters: int, seed: int) -> None:
    """An instant chat-completions server answering the saga's result for the chapter asked."""
    results = generate_saga(chapters, seed=seed).results

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            chapter = int(ASKED.search(body["messages"][-1]["content"]).group(1))
            content = json.dumps(results[chapter - 1], ensure_ascii=False)
            prompt = sum(len(m["content"]) for m in body["messages"])
            payload = json.dumps(
                {
                    "choices": [
                        {
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": len(content)},
                },
                ensure_ascii=False,
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Path(port_file).write_text(str(httpd.server_address[1]))
    httpd.serve_forever()


def extraction_run(chapters: int, concurrency: int, chars: int, seed: int) -> int:
    saga = generate_saga(chapters, seed=seed, text_chars=chars)
    with tempfile.TemporaryDirectory() as folder:
        novel = Path(folder) / "novel.txt"
        novel.write_text(
            "".join(
                f"第{n}章 {r.get('title') or ''}\n{(t or '').split(chr(10), 2)[-1]}\n"
                for n, (r, t) in enumerate(zip(saga.results, saga.texts, strict=True), start=1)
            ),
            encoding="utf-8",
        )
        port_file = Path(folder) / "port"
        server = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                str(port_file),
                "--chapters",
                str(chapters),
                "--seed",
                str(seed),
            ]
        )
        try:
            while not port_file.exists() or not port_file.read_text():
                time.sleep(0.05)
            os.environ["WEBNOVEL_LLM_BASE_URL"] = f"http://127.0.0.1:{port_file.read_text()}/v1"
            os.environ["WEBNOVEL_LLM_API_KEY"] = "sk-bench"
            os.environ["WEBNOVEL_LLM_MODEL"] = "instant"
            os.environ["XDG_STATE_HOME"] = folder
            os.environ["XDG_CONFIG_HOME"] = folder
            with webnovel.init_project(Path(folder) / "book", title="bench") as book:
                book.import_text(novel)
                started = time.perf_counter()
                report = book.extract(concurrency=concurrency).to_dict()
                first = time.perf_counter() - started
                started = time.perf_counter()
                again = book.extract(force=True, concurrency=concurrency).to_dict()
                second = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait()
    total = report["total"]
    print(
        f"extract {total['committed']:,} chapters (concurrency {concurrency}, batch "
        f"{report['batch']}, {chars} characters each): {first:.1f} s engine time, "
        f"{1000 * first / chapters:.1f} ms a chapter; {total['requests']:,} requests, "
        f"{total['tokens']['input']:,} input characters"
    )
    print(
        f"again with --force (every answer from the book's cache, {again['total']['requests']} "
        f"requests): {second:.1f} s"
    )
    return 0 if total["committed"] == chapters and again["total"]["requests"] == 0 else 1


def prompt_build(
    chapters: int, chars: int, seed: int, samples: int = 40, keep: Path | None = None
) -> int:
    with tempfile.TemporaryDirectory() as folder:
        root = keep or Path(folder) / "book"
        if not (root / ".webnovel").exists():
            saga = generate_saga(chapters, seed=seed, text_chars=chars)
            with webnovel.init_project(root, title="bench") as book:
                started = time.perf_counter()
                for result, text in zip(saga.results, saga.texts, strict=True):
                    book.commit(result, text=text)
                print(f"committed {chapters:,} chapters in {time.perf_counter() - started:.0f} s")
        book = webnovel.open_project(root)
        chapters = book.latest_chapter() or 0
        started = time.perf_counter()
        book.aliases()
        print(f"the alias automaton, once per run: {1000 * (time.perf_counter() - started):.0f} ms")
        settings = LLMSettings(endpoint=None, model="instant")
        cache = AnswerCache(Path(folder) / "answers.db")
        run = Extraction(book, settings, None, cache, 1)
        items = plan(book, chapters - samples + 1, chapters, force=True)
        timings, sizes = [], []
        for item in items:
            began = time.perf_counter()
            messages = run.messages_for(item, items)
            timings.append(1000 * (time.perf_counter() - began))
            sizes.append(request_size(messages, item.text))
        cache.close()
        book.close()
    beyond = [s["beyond_chapter"] for s in sizes]
    tokens = [s["input_tokens"] for s in sizes]
    share = statistics.mean(s["stable_tokens"] / s["input_tokens"] for s in sizes)
    print(
        f"request build at {chapters:,} chapters: mean {statistics.mean(timings):.1f} ms, "
        f"max {max(timings):.1f} ms; a request is its chapter plus {statistics.mean(beyond):,.0f} "
        f"characters (at most {max(beyond):,}); {statistics.mean(tokens):,.0f} input tokens a "
        f"chapter (estimated), of which the stable prefix (instructions and schema, what a "
        f"provider's cache serves) is {share:.0%}"
    )
    return 0 if statistics.mean(timings) < 20 and max(beyond) <= 10_000 else 1


def request_size(messages: list[dict[str, str]], text: str) -> dict[str, int]:
    """A request's size as sent with json_schema: its messages, and the schema once in
    `response_format`; the stable prefix is the instructions and the schema."""
    schema = json.dumps(CHAPTER_RESULT_SCHEMA, ensure_ascii=False, separators=(",", ":"))
    stable = messages[0]["content"] + schema
    whole = stable + "".join(m["content"] for m in messages[1:])
    return {
        "beyond_chapter": len(whole) - len(text),
        "input_tokens": estimate_tokens(whole),
        "stable_tokens": estimate_tokens(stable),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chapters", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--chars", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--prompt-at", type=int, default=None, help="time the request build")
    parser.add_argument("--book", type=Path, default=None, help="keep (or reuse) the book here")
    parser.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.chapters, args.seed)
        return 0
    if args.prompt_at:
        return prompt_build(args.prompt_at, 400, args.seed, keep=args.book)
    return extraction_run(args.chapters, args.concurrency, args.chars, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
