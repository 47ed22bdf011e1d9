"""JSON nested past any real document's depth, wherever it is read from (the commit log, a
received book's rows and files, the user's state, the pack log) is refused in one sentence or
treated as unreadable, never a RecursionError; the depth is measured without parsing."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.untrusted import json_limits

from cli_runner import run_cli

DEEP = "[" * 100_000 + "]" * 100_000


def book_with_two_chapters(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="深") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "linyan", "name": "林砚"}]})
        book.commit(
            {
                "chapter": 2,
                "state_changes": [{"entity_id": "linyan", "field": "location", "new": "青云山"}],
            }
        )
    return root


def tamper(root: Path, statement: str, *args: Any) -> None:
    conn = sqlite3.connect(root / ".webnovel" / "index.db", isolation_level=None)
    conn.execute(statement, args)
    conn.close()


def one_sentence(ran: Any, *expected: str) -> None:
    assert ran.returncode == 2, ran
    assert "Traceback" not in ran.stderr and len(ran.stderr.strip().splitlines()) == 1
    for part in expected:
        assert part in ran.stderr


def test_rebuild_names_the_commit_whose_result_nests_too_deep(tmp_path: Path) -> None:
    root = book_with_two_chapters(tmp_path)
    tamper(
        root,
        "UPDATE commits SET result_json = ? WHERE chapter = 2",
        '{"chapter": 2, "x": ' + DEEP + "}",
    )
    ran = run_cli("--project", str(root), "rebuild")
    one_sentence(ran, "第 2 章的提交记录", "嵌套超过 100 层")


def test_a_stored_value_nested_too_deep_is_refused_when_read(tmp_path: Path) -> None:
    root = book_with_two_chapters(tmp_path)
    tamper(root, "UPDATE versions SET value_json = ? WHERE field = 'location'", DEEP)
    one_sentence(run_cli("--project", str(root), "fact", "林砚", "location"), "嵌套超过 100 层")


def test_a_deep_state_json_is_rebuilt_like_a_broken_one(tmp_path: Path) -> None:
    root = book_with_two_chapters(tmp_path)
    (root / ".webnovel" / "state.json").write_text(DEEP, encoding="utf-8")
    with webnovel.open_project(root) as book:
        assert book.fact("林砚", "location").value == "青云山"
    state = json.loads((root / ".webnovel" / "state.json").read_text(encoding="utf-8"))
    assert state["meta"]["commit_seq"] == 2


def test_a_deep_line_in_the_pack_log_is_passed_over(tmp_path: Path) -> None:
    from webnovel.memory.packs.pack_log import latest_by_chapter

    log = tmp_path / "packs.jsonl"
    log.write_text(DEEP + "\n" + json.dumps({"chapter": 3, "tokens": 10}) + "\n", encoding="utf-8")
    assert list(latest_by_chapter(log)) == [3]


def test_a_deep_rejected_candidates_list_is_refused_in_one_sentence(tmp_path: Path) -> None:
    root = book_with_two_chapters(tmp_path)
    tamper(root, "INSERT INTO meta VALUES ('rejected_candidates', ?)", DEEP)
    one_sentence(run_cli("--project", str(root), "candidates"), "rejected_candidates")


def test_a_deep_list_of_trusted_stores_is_read_as_empty() -> None:
    from webnovel.user.config import trust_store, user_state_dir

    seen = user_state_dir() / "stores.json"
    seen.parent.mkdir(parents=True, exist_ok=True)
    seen.write_text(DEEP, encoding="utf-8")
    trust_store(["db.example:5432"])
    assert json.loads(seen.read_text(encoding="utf-8")) == ["db.example:5432"]


def test_a_chapter_result_file_nested_too_deep_is_named(tmp_path: Path) -> None:
    root = book_with_two_chapters(tmp_path)
    draft = tmp_path / "ch3.json"
    draft.write_text('{"chapter": 3, "x": ' + DEEP + "}", encoding="utf-8")
    one_sentence(run_cli("--project", str(root), "commit", str(draft)), "ch3.json", "100")


def _nesting(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_nesting(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_nesting(v) for v in value.values()), default=0)
    return 0


def _random_json(rng: random.Random, depth: int) -> Any:
    pick = rng.random()
    if depth > 6 or pick < 0.3:
        return rng.choice(['a"[{', "\\", "}]", 3, None, "", '"', '\\"]]'])
    if pick < 0.65:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {f'k{n}"[': _random_json(rng, depth + 1) for n in range(rng.randint(0, 3))}


def test_depth_is_measured_as_json_nests_strings_and_escapes_aside() -> None:
    rng = random.Random(42)
    for _ in range(500):
        value = _random_json(rng, 0)
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
        assert json_limits.depth(text) == _nesting(value), text


def test_the_limits_are_said_and_are_json_errors() -> None:
    with pytest.raises(json.JSONDecodeError, match="嵌套超过 5 层"):
        json_limits.loads("[" * 6 + "]" * 6, "x", max_depth=5)
    assert json_limits.loads("[" * 5 + "]" * 5, "x", max_depth=5) == [[[[[]]]]]
    with pytest.raises(webnovel.InvalidInput, match="超过上限 10 字节"):
        json_limits.loads('"' + "a" * 20 + '"', "x", max_bytes=10)


def test_a_model_server_answering_json_nested_too_deep_is_named(tmp_path: Path) -> None:
    """A real HTTP server whose body is a 100,000-deep array: one EndpointFailed, no
    RecursionError."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from webnovel.errors import EndpointFailed
    from webnovel.extraction.chat_client import ChatClient, ChatEndpoint

    class Deep(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            self.rfile.read(int(self.headers["Content-Length"]))
            body = DEEP.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Deep)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        client = ChatClient(ChatEndpoint(url, "m"), retries=0)
        with pytest.raises(EndpointFailed, match="嵌套超过 64 层"):
            client.complete([{"role": "user", "content": "hi"}], {"type": "object"}, 10)
    finally:
        server.shutdown()
        server.server_close()
