"""The extraction's answer file (`.webnovel/answers.db`): every complete answer a model gave,
by key, so that no answer is paid for twice. The store keeps rows; what an answer means (a
completion and its token usage) is the extraction's (`extraction/answer_cache.py`).

This file is not derived from the commit log: `rebuild` leaves it alone, and deleting it only
costs money. It may come with a received book, so it is opened with the same defences as
`index.db` and refused if it holds anything that could run.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .schema_check import guard, refuse_code

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


@dataclass(frozen=True)
class StoredAnswer:
    """One kept answer: its text, why it ended, and the tokens it cost."""

    content: str
    finish_reason: str | None
    input_tokens: int
    cached_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class AnswerCount:
    answers: int
    chapters: int


class AnswerStore:
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

    def get(self, key: str) -> StoredAnswer | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT content, finish_reason, input_tokens, cached_tokens, output_tokens "
                "FROM answers WHERE key = ?",
                (key,),
            ).fetchone()
        return None if row is None else StoredAnswer(*row)

    def put(self, key: str, chapter: int, model: str, version: str, answer: StoredAnswer) -> None:
        """Keeps the first answer given for `key`; a second one for the same key is not kept."""
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
                    answer.input_tokens,
                    answer.cached_tokens,
                    answer.output_tokens,
                    stamp,
                ),
            )

    def forget(self, keys: list[str]) -> None:
        """Drops these answers: a run rejected them, so a next run must ask again."""
        with self._lock:
            self._conn.executemany("DELETE FROM answers WHERE key = ?", [(k,) for k in keys])

    def count(self) -> AnswerCount:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*), COUNT(DISTINCT chapter) FROM answers")
            answers, chapters = row.fetchone()
        return AnswerCount(answers, chapters)

    def close(self) -> None:
        with self._lock:
            self._conn.close()
