"""Every answer a model gave, kept in the book (`.webnovel/answers.db`), so that no answer is
paid for twice: a second run of the same range sends nothing, and an interrupted run resumes.

An answer is keyed by the prompt version, the model and the whole conversation it answered
(instructions, what memory knew, the chapter's text, and any repair turns), so a changed text,
a changed memory or another model asks again. Only complete answers are kept (not one cut off
at its token limit), and only while no run rejects them: the answers of a chapter that failed
after its repairs are forgotten, so that a next run asks again instead of replaying them. The rows live in the store (`memory/store/answer_store.py`); this module
turns them into completions and back.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..memory.store.answer_store import AnswerStore, StoredAnswer
from .chat_client import Completion, Usage

HASH_PREFIX = "b2:"


def answer_key(prompt_version: str, model: str, messages: list[dict[str, str]]) -> str:
    payload = json.dumps([prompt_version, model, messages], ensure_ascii=False)
    return HASH_PREFIX + hashlib.blake2b(payload.encode("utf-8"), digest_size=20).hexdigest()


class AnswerCache:
    """The book's kept answers, as completions (a kept answer costs no attempt)."""

    def __init__(self, path: Path) -> None:
        self._store = AnswerStore(path)

    def get(self, key: str) -> Completion | None:
        kept = self._store.get(key)
        if kept is None:
            return None
        usage = Usage(kept.input_tokens, kept.cached_tokens, kept.output_tokens)
        return Completion(kept.content, kept.finish_reason, usage, attempts=0)

    def put(self, key: str, chapter: int, model: str, version: str, answer: Completion) -> None:
        kept = StoredAnswer(
            answer.content,
            answer.finish_reason,
            answer.usage.input,
            answer.usage.cached,
            answer.usage.output,
        )
        self._store.put(key, chapter, model, version, kept)

    def forget(self, keys: list[str]) -> None:
        self._store.forget(keys)

    def stats(self) -> dict[str, Any]:
        count = self._store.count()
        return {"answers": count.answers, "chapters": count.chapters}

    def close(self) -> None:
        self._store.close()
