"""Every answer a model gave, kept in the book (`.webnovel/answers.db`), so that no answer is
paid for twice: a second run of the same range sends nothing, and an interrupted run resumes.

An answer is keyed by the prompt version, the model and the whole conversation it answered
(instructions, what memory knew, the chapter's text, and any repair turns), so a changed text,
a changed memory or another model asks again. Only complete answers are kept (not one cut off
at its token limit). This file is not derived from the commit log: `rebuild` leaves it alone,
and deleting it only costs money.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from ..memory.store.schema_check import guard, refuse_code
from .chat_client import Completion, Usage

HASH_PREFIX = "b2:"
SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    chapter INTEGER NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    content TEXT NOT NULL,
    finish_reason TEXT,
    input_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_chapter ON answers (chapter);
"""


def answer_key(prompt_version: str, model: str, messages: list[dict[str, str]]) -> str:
    payload = json.dumps([prompt_version, model, messages], ensure_ascii=False)
    return HASH_PREFIX + hashlib.blake2b(payload.encode("utf-8"), digest_size=20).hexdigest()


class AnswerCache:
    """Shared by a run's worker threads: one connection behind a lock (writes are rare, a few
    a minute against a real model)."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        guard(self._conn)  # the book's file, maybe a received one: nothing in it may run
        refuse_code(self._conn, path)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(SCHEMA)
        self._lock = threading.Lock()

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT content, finish_reason, input_tokens, cached_tokens, output_tokens "
                "FROM answers WHERE key = ?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        return Completion(row[0], row[1], Usage(row[2], row[3], row[4]), attempts=0)

    def put(self, key: str, chapter: int, model: str, version: str, answer: Completion) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self._lock:
            self._conn.execute(
                "INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO NOTHING",
                (
                    key,
                    chapter,
                    model,
                    version,
                    answer.content,
                    answer.finish_reason,
                    answer.usage.input,
                    answer.usage.cached,
                    answer.usage.output,
                    stamp,
                ),
            )

    def stats(self) -> dict[str, Any]:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*), COUNT(DISTINCT chapter) FROM answers")
            answers, chapters = row.fetchone()
        return {"answers": answers, "chapters": chapters}

    def close(self) -> None:
        with self._lock:
            self._conn.close()
