"""Hostile input on the other surfaces a received book or a careless client reaches: MCP raw
JSON-RPC over stdio, the dashboard over HTTP, a book's config.toml, and text files for
`import text` and `commit --text`, and symbolic links at every path a book controls. Seeded,
so a failure can be replayed.

Every case must end in an answer (a result, or an error that names what was wrong): no
traceback, no hang (an MCP request unanswered for 60 s), no 5xx from the dashboard, no link
followed (refused, its target unchanged and unread), and the book must still open and answer
afterwards (not poisoned).

    python benchmarks/fuzz_surfaces.py --cases 6000 --seed 1
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import webnovel
from webnovel.cli.main import main as cli
from webnovel.errors import WebnovelError
from webnovel.ingest.sample_book import sample_chapters

NASTY_STRINGS = [
    "\ud800",
    "林\udfff砚",
    "\x00",
    "\x1b[2J",
    "\u202e林砚",
    "林\u200b砚",
    "{who}",
    "{target}",
    "../../etc/passwd",
    "%00",
    "a" * 100_000,
    "",
    " ",
    "1e309",
    "NaN",
    "-1",
    "9" * 40,
    "<script>alert(1)</script>",
    "'; DROP TABLE versions; --",
    "林砚",
    "linyan",
    "\ufeff",
]
TOOLS = [
    "get_fact",
    "get_history",
    "get_relations",
    "list_threads",
    "search_memory",
    "build_memory_pack",
    "commit_chapter",
    "review_draft",
    "prefill_chapter",
    "retract_chapter",
    "list_entities",
    "no_such_tool",
]


def nasty_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return rng.choice(NASTY_STRINGS)
    if pick == 1:
        return rng.choice([0, -1, 1, 2**63, -(2**63) - 1, 10**30, 3.5, 1_000_001])
    if pick == 2:
        return rng.choice([True, False, None])
    if pick in (3, 4, 5):
        return rng.choice(["林砚", "linyan", "location", "青云宗", 3, 12])
    if pick == 6:
        return [nasty_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["chapter", "entity", "field", "text", "as_of", "top_k", "x"]): nasty_value(
            rng, depth + 1
        )
        for _ in range(rng.randrange(4))
    }


def mcp_line(rng: random.Random, request_id: int, tools: list[str] = TOOLS) -> tuple[str, bool]:
    """A line for the MCP server, and whether it expects an answer."""
    pick = rng.randrange(10)
    if pick == 0:
        return rng.choice(["{not json", "[]", "null", '"x"', "{}", "\x00", "[" * 500]), False
    arguments = {
        k: nasty_value(rng)
        for k in rng.sample(
            [
                "entity",
                "field",
                "as_of",
                "text",
                "top_k",
                "chapter",
                "result",
                "draft",
                "task",
                "status",
                "budget_tokens",
                "outline",
            ],
            rng.randrange(5),
        )
    }
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": rng.choice(tools), "arguments": arguments},
    }
    if pick == 1:
        message["method"] = rng.choice(["tools/list", "resources/list", "prompts/list", "nope"])
    line = json.dumps(message, ensure_ascii=rng.random() < 0.5)
    if pick == 2:  # NaN, or a huge number, written raw
        line = line.replace('"jsonrpc"', '"n": NaN, "jsonrpc"', 1)
    if pick == 3:  # framing: nested past any parser's depth, or (rarely) longer than a message
        depth = rng.choice([129, 1_000, 100_000])
        nested = "[" * depth + "]" * depth
        if rng.random() < 0.02:
            nested = json.dumps("林" * 3_000_000, ensure_ascii=False)  # 9 MB
        line = line[:-2] + ', "deep": ' + nested + "}}"  # inside params, after the id
    return line, True


def fuzz_mcp(
    root: Path, cases: int, rng: random.Random, counts: Counter[str], tools: list[str] = TOOLS
) -> list[str]:
    log = root.parent / "mcp.log"  # a file: the server logs every refusal, a pipe would fill
    proc = subprocess.Popen(
        [sys.executable, "-m", "webnovel", "--project", str(root), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log.open("wb"),
    )
    assert proc.stdin and proc.stdout

    def send(line: str) -> None:
        assert proc.stdin
        proc.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        proc.stdin.flush()

    pending = bytearray()  # read off the pipe but not yet a whole answer

    def answer(timeout: float = 60) -> dict[str, Any] | None:
        """The next answer line. Read from the pipe's descriptor with our own buffer: a
        buffered readline after select() kept a second answer that came in the same read (a
        refusal and the ping behind it) where select() could not see it, which looked like a
        hang."""
        assert proc.stdout
        deadline = time.monotonic() + timeout
        while b"\n" not in pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([proc.stdout], [], [], max(left, 0))
            if not ready:
                return None
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            pending.extend(chunk)
        line, _, rest = bytes(pending).partition(b"\n")
        pending[:] = rest
        return dict(json.loads(line))

    send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "fuzz", "version": "0"},
                },
            }
        )
    )
    answer()
    send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    problems = []
    for i in range(1, cases + 1):
        line, expects = mcp_line(rng, i, tools)
        send(line)
        if not expects:  # the next request, a ping, must still be answered
            send(json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}))
        reply = answer()
        while reply is not None and reply.get("id") != i:
            reply = answer()
        counts["mcp"] += 1
        if reply is None:
            problems.append(f"mcp hang on {line[:200]!r}")
            break
    proc.communicate(timeout=30)
    err = log.read_text("utf-8", "replace")
    if "Traceback" in err:
        problems.append("mcp traceback: " + err[err.index("Traceback") :][:1500])
    return problems


def dashboard_request(rng: random.Random, base: str, port: int) -> urllib.request.Request:
    paths = [
        "/",
        "/characters",
        "/characters/linyan",
        "/graph",
        "/threads",
        "/timeline",
        "/conflicts",
        "/search",
        "/pack",
        "/api/passage",
        "/api/seq",
        "/static/app.js",
        "/characters/%2e%2e%2f%2e%2e",
        "/static/../../etc/passwd",
        "/threads/" + "x" * 5000,
    ]
    params = {
        k: rng.choice(NASTY_STRINGS[:18])
        for k in rng.sample(
            [
                "as_of",
                "q",
                "task",
                "center",
                "hops",
                "recent",
                "entity",
                "before",
                "page",
                "chapter",
                "quote",
                "lane",
            ],
            rng.randrange(4),
        )
    }
    query = urllib.parse.urlencode(params, errors="surrogatepass")
    url = base + rng.choice(paths) + ("?" + query if query else "")
    headers = {
        "Host": rng.choice(
            [f"127.0.0.1:{port}", f"127.1:{port}", "evil.example", f"localhost:{port}"]
            + [f"[::1]:{port}", *malformed_hosts(port)]
        )
    }
    if rng.random() < 0.2:
        body = rng.choice([b"token=x&note=y", b"\xff" * 100, b"a=" + b"b" * 70_000, b""])
        return urllib.request.Request(
            base + "/conflicts/" + rng.choice(["c-1", "%00", "x" * 300]) + "/resolve",
            data=body,
            method="POST",
            headers={
                **headers,
                "Origin": rng.choice(["http://evil.example", f"http://127.0.0.1:{port}"]),
            },
        )
    return urllib.request.Request(url, headers=headers)


def malformed_hosts(port: int) -> list[str]:
    """Host headers that are not exactly one host: each must be refused (400), never served."""
    return [f"127.0.0.1:{port}, evil.example", "127.0.0.1\tevil", "127.0.0.1 evil", "::1"]


def fuzz_dashboard(root: Path, cases: int, rng: random.Random, counts: Counter[str]) -> list[str]:
    log = root.parent / "dashboard.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "webnovel", "--project", str(root), "dashboard", "--port", "0"],
        stderr=log.open("wb"),
    )
    deadline = time.monotonic() + 30
    while not (found := re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text("utf-8"))):
        assert time.monotonic() < deadline and proc.poll() is None, log.read_text("utf-8")
        time.sleep(0.1)
    port = int(found.group(1))
    base = f"http://127.0.0.1:{port}"
    problems = []
    for _ in range(cases):
        request = dashboard_request(rng, base, port)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
            if request.get_header("Host") in malformed_hosts(port):
                problems.append(f"dashboard served Host {request.get_header('Host')!r}")
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                problems.append(f"dashboard {error.code} on {request.full_url[:200]}")
        except OSError as exc:
            problems.append(f"dashboard {exc} on {request.full_url[:200]}")
        counts["dashboard"] += 1
    proc.terminate()
    proc.wait(timeout=30)
    err = log.read_text("utf-8", "replace")
    if "Traceback" in err:
        problems.append("dashboard traceback: " + err[err.index("Traceback") :][:1500])
    return problems


def config_text(rng: random.Random) -> str:
    pieces = [
        "tentative_below = " + rng.choice(["0.5", "2", '"x"', "true", "-1", "nan", "inf"]),
        "[retrieval]\nembedder = "
        + rng.choice(
            ['"hashing"', '"openai:m@https://x/v1"', "3", '"st:./model"', '"openai"', '""']
        ),
        "[retrieval]\n"
        + rng.choice(
            [
                'api_key_env = "AWS_SECRET"',
                'endpoint = "a/b"',
                'endpoint = "mine"',
                'base_url = "http://x"',
            ]
        ),
        "[llm]\n" + rng.choice(['model = "m"', "model = 3", 'url = "https://x"', "x = 1"]),
        "[relations]\nexclusive_groups = " + rng.choice(["[]", "[[1]]", '[["a"]]', "5"]),
        "[status]\ndead = " + rng.choice(['["死"]', "7", "[1]"]),
        "[ladders]\nrealm = " + rng.choice(['["a", "b"]', "1", "[[]]"]),
        rng.choice(["x = " + "[" * 3000 + "]" * 3000, "= broken", "\x00", "\ud800", "[a]\n[a]"]),
    ]
    return "\n".join(rng.sample(pieces, rng.randrange(1, 4)))


def fuzz_config(root: Path, cases: int, rng: random.Random, counts: Counter[str]) -> list[str]:
    config = root / ".webnovel" / "config.toml"
    saved = config.read_bytes()
    problems = []
    for _ in range(cases):
        text = config_text(rng)
        config.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            with webnovel.open_project(root) as book:
                book.search("林砚")
        except WebnovelError:
            pass
        except Exception as exc:  # noqa: BLE001 - counting what must never happen
            problems.append(f"config {type(exc).__name__}: {exc} for {text[:200]!r}")
        counts["config"] += 1
    config.write_bytes(saved)
    return problems


def text_bytes(rng: random.Random, sample: str) -> bytes:
    start = rng.randrange(len(sample) - 2000)
    text = sample[start : start + rng.randrange(10, 2000)]
    if rng.random() < 0.5:
        text = (
            f"第{rng.choice(['一', '12', '零', '百', '9' * 30])}章 {rng.choice(NASTY_STRINGS[:8])}\n"
            + text
        )
    encoding = rng.choice(["utf-8", "gb18030", "big5", "utf-16", "utf-8-sig"])
    data = text.encode(encoding, "replace")
    if rng.random() < 0.3:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))) + data
    return data


def fuzz_texts(root: Path, cases: int, rng: random.Random, counts: Counter[str]) -> list[str]:
    sample = "".join(c.text for c in sample_chapters())
    folder = root.parent / "texts"
    folder.mkdir(exist_ok=True)
    result = folder / "r.json"
    problems = []
    for i in range(cases):
        path = folder / f"t{i % 7}.txt"
        path.write_bytes(text_bytes(rng, sample))
        if i % 2:
            result.write_text(json.dumps({"chapter": 200 + i % 5, "summary": "测试"}), "utf-8")
            args = ["commit", str(result), "--text", str(path)]
        else:
            args = ["import", "text", str(path), "--start", str(300 + i % 5)]
            args += ["--dry-run"] if rng.random() < 0.7 else []
        out, err = io.StringIO(), io.StringIO()
        try:
            with redirect_stdout(out), redirect_stderr(err):
                code = cli(["--project", str(root), *args, "--format", "json"])
        except Exception as exc:  # noqa: BLE001 - counting what must never happen
            problems.append(f"text {type(exc).__name__}: {exc} for {args}")
            code = -1
        if code not in (0, 1, 2) or "Traceback" in err.getvalue():
            problems.append(f"text exit {code}: {err.getvalue()[-500:]}")
        counts["text"] += 1
    return problems


LINKED = [  # where a received book could hold a link (docs/security.md, "Links")
    ".webnovel",
    ".webnovel/index.db",
    ".webnovel/index.db-wal",
    ".webnovel/config.toml",
    ".webnovel/vectors.db",
    ".webnovel/state.json",
    ".webnovel/lexicon/meta.json",
    ".webnovel/embed.lock",
    ".webnovel/embed.log",
    ".webnovel/packs.jsonl",
    "outlines",
    "outlines/{next:03d}.md",
]
SECRET = "TOP-SECRET-KEY-MATERIAL"


def fuzz_links(root: Path, rng: random.Random, counts: Counter[str]) -> list[str]:
    """A link to a file outside the book at each path of LINKED, under commands that read or
    write there: each that reads through it must refuse, and the file it points to is left as
    it was and never shown. Not random: every place, every command (`rng` is unused, kept for the signature)."""
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    victim, secret = outside / "victim.txt", outside / "002.md"
    (outside / "meta.json").write_text("{}", "utf-8")
    result = outside / "r.json"
    problems = []
    for place in LINKED:
        with webnovel.open_project(root) as book:
            following = (book.latest_chapter() or 0) + 1
        path = root / place.format(next=following)
        result.write_text(json.dumps({"chapter": following, "summary": "链接"}), "utf-8")
        for args in (
            ["stats"],
            ["search", "林砚"],
            ["pack", "--chapter", str(following), "--format", "prompt"],
            ["resume"],
            ["commit", str(result)],
        ):
            victim.write_text("untouched", "utf-8")
            secret.write_text(SECRET, "utf-8")
            target = outside if place in (".webnovel", "outlines") else victim
            target = secret if place.endswith(".md") else target
            saved = path.with_name(path.name + ".saved")
            if path.exists() or path.is_symlink():
                path.rename(saved)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.symlink_to(target)
            out, err = io.StringIO(), io.StringIO()
            try:
                with redirect_stdout(out), redirect_stderr(err):
                    code = cli(["--project", str(root), *args, "--format", "json"])
            except Exception as exc:  # noqa: BLE001 - counting what must never happen
                problems.append(f"link {place} {type(exc).__name__}: {exc} for {args}")
                code = -1
            finally:
                path.unlink()
                if saved.exists() or saved.is_symlink():
                    saved.rename(path)
            said = out.getvalue() + err.getvalue()
            # an outline is read by the commands that read outlines; the memory folder by all
            must_refuse = place.startswith(".webnovel") or args[0] in ("pack", "resume")
            if (code != 2 and must_refuse) or code not in (0, 2) or "Traceback" in said:
                problems.append(f"link {place} not refused by {args[0]}: exit {code} {said[-300:]}")
            if SECRET in said or victim.read_text("utf-8") != "untouched":
                problems.append(f"link {place} reached outside the book on {args[0]}")
            counts["links"] += 1
    return problems


def still_whole(root: Path) -> list[str]:
    """The book opens, commits, and a rebuild gives the answers the incremental path gave:
    nothing above poisoned it. (A fuzzed client may legitimately retract chapters.)"""
    try:
        with webnovel.open_project(root) as book:
            chapter = (book.latest_chapter() or 0) + 1
            book.commit(
                {
                    "chapter": chapter,
                    "entities_new": [{"id": f"check{chapter}", "name": f"查验{chapter}"}],
                    "summary": "查验者回到青云宗。",
                }
            )
            before = [(e.id, e.name, e.aliases) for e in book.entities()]
            conflicts = sorted((c.id, c.kind, c.chapter) for c in book.conflicts())
            book.rebuild()
            if [(e.id, e.name, e.aliases) for e in book.entities()] != before:
                return ["poisoned: the cast differs after rebuild"]
            rebuilt = sorted((c.id, c.kind, c.chapter) for c in book.conflicts())
            if rebuilt != conflicts:
                only = sorted(set(conflicts) ^ set(rebuilt))[:6]
                return [f"poisoned: the conflicts differ after rebuild: {only}"]
            book.entity(f"查验{chapter}")
            book.search("青云宗")
    except Exception as exc:  # noqa: BLE001
        return [f"poisoned: {type(exc).__name__}: {exc}"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=6000, help="cases over all four surfaces")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--skip-tool",
        action="append",
        default=[],
        help="an MCP tool not to call (to narrow a finding down)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    problems: list[str] = []
    share = {"mcp": 0.4, "dashboard": 0.3, "config": 0.15, "text": 0.15}
    started = time.perf_counter()
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "book"
        with webnovel.init_project(root, title="fuzz", genre="仙侠") as book:
            for chapter in sample_chapters():
                book.commit(chapter.result, text=chapter.text)
        for name, run in (
            ("mcp", fuzz_mcp),
            ("dashboard", fuzz_dashboard),
            ("config", fuzz_config),
            ("text", fuzz_texts),
            ("links", fuzz_links),
        ):
            begun = time.perf_counter()
            tools = [t for t in TOOLS if t not in args.skip_tool]
            cases = int(args.cases * share.get(name, 0))
            if run is fuzz_mcp:
                problems += fuzz_mcp(root, cases, rng, counts, tools)
            elif run is fuzz_links:
                problems += fuzz_links(root, rng, counts)
            else:
                problems += run(root, cases, rng, counts)
            problems += [f"{name}: {p}" for p in still_whole(root)]
            seconds[name] = time.perf_counter() - begun
    total = sum(counts.values())
    print(
        f"{total:,} cases in {time.perf_counter() - started:.0f} s: "
        + ", ".join(f"{k} {v:,} ({seconds[k]:.0f} s)" for k, v in counts.items())
    )
    print(f"problems (tracebacks, hangs, 5xx, poisoned books): {len(problems)}")
    for problem in problems[:20]:
        print(" -", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
