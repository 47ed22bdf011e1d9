"""`rebuild` of a book holding many conflicts stays linear: a master dead from chapter 3 and
present in every later chapter (an agent's results) is one conflict a chapter, and a rebuild
that judged his whole life again after each chapter read every earlier chapter's activity
again (the trial's 2,000 chapters: 4 s → 360 s). The conflicts found are the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import webnovel
from test_commit_conflict_changes import result
from webnovel.memory.write import write_pipeline

CHAPTERS = 40


def test_a_rebuild_judges_each_chapters_activity_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with webnovel.init_project(tmp_path / "book", title="青冥剑歌") as book:
        for n in range(1, CHAPTERS + 1):
            book.commit(result(n))
        before = sorted((c.id, c.kind, c.chapter, c.message) for c in book.conflicts())
        assert sorted(chapter for _, _, chapter, _ in before) == list(range(4, CHAPTERS + 1))
        judged: list[int] = []  # how many activities each judgement of an entity read
        judge = write_pipeline.entity_conflicts

        def counting(entity_id: str, statuses: Any, activities: Any, *rest: Any) -> Any:
            activities = list(activities)
            judged.append(len(activities))
            return judge(entity_id, statuses, activities, *rest)

        monkeypatch.setattr(write_pipeline, "entity_conflicts", counting)
        book.rebuild()
        # once: his activity after death (37 chapters) and each one's before introduction (none)
        assert sum(judged) <= 2 * CHAPTERS, judged
        assert sorted((c.id, c.kind, c.chapter, c.message) for c in book.conflicts()) == before
