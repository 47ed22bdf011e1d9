"""Memory values cannot be misread: built by keyword only, never changed in place (a change is a
`dataclasses.replace`), so a replay cannot alter a version it was handed."""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError

import pytest

from webnovel.config import BookConfig
from webnovel.memory import chains, records, schema
from webnovel.memory.chains import ConflictDraft, Version
from webnovel.memory.packs import recipes
from webnovel.memory.packs.memory_pack import PackRequest, Passage
from webnovel.memory.read.chapter_report import Change, ChapterReport
from webnovel.memory.read.knowledge_gap import Gap
from webnovel.memory.retrieval.chunker import Chunk
from webnovel.memory.retrieval.search_hit import SearchHit
from webnovel.memory.review.draft_review import ReviewIssue
from webnovel.memory.write.chain_folds import replay

from test_chain_folds import fact

MUTABLE_BY_DESIGN = {"CommitCounts", "Allocation", "Chain"}  # counters and work in progress
VALUE_MODULES = (schema, records, chains, recipes)
VALUES = sorted(
    (
        cls
        for module in VALUE_MODULES
        for cls in vars(module).values()
        if isinstance(cls, type)
        and dataclasses.is_dataclass(cls)
        and cls.__module__ == module.__name__
    ),
    key=lambda cls: cls.__name__,
) + [ChapterReport, Change, Chunk, Gap, PackRequest, Passage, ReviewIssue, SearchHit]


def test_the_value_modules_hold_values() -> None:
    assert {"Version", "ConflictDraft", "Conflict", "Recipe", "MemoryItem"} <= {
        cls.__name__ for cls in VALUES
    }


@pytest.mark.parametrize("cls", VALUES, ids=lambda cls: cls.__name__)
def test_every_value_is_built_by_keyword(cls: type) -> None:
    assert all(f.kw_only for f in dataclasses.fields(cls)), cls


@pytest.mark.parametrize(
    "cls", [c for c in VALUES if c.__name__ not in MUTABLE_BY_DESIGN], ids=lambda c: c.__name__
)
def test_every_value_is_frozen(cls: type) -> None:
    assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]


def test_a_conflict_draft_names_only_what_it_knows() -> None:
    draft = ConflictDraft(kind="thread_unknown", chapter=3, message="…", field="pact")
    assert (draft.entity_id, draft.expected, draft.found) == (None, None, None)
    with pytest.raises(TypeError):
        ConflictDraft("thread_unknown", 3, "…")  # type: ignore[call-arg]
    with pytest.raises(FrozenInstanceError):
        draft.chapter = 4  # type: ignore[misc]


def test_a_replay_never_changes_the_versions_it_was_handed() -> None:
    """The versions open before chapter 5 come from the store closed by what chapter 8 said;
    replaying chapter 5 reopens and closes copies, and the store's values stay as read."""
    stored = Version(
        family="fact",
        key="e\x1ff",
        subject="e",
        field="f",
        obj=None,
        value="A",
        valid_from=1,
        valid_to=8,
        status="outdated",
        source_chapter=1,
        source_type="state_change",
    )
    chain = replay("fact", [stored], [fact(5, "B")], BookConfig())
    assert (stored.valid_to, stored.status) == (8, "outdated")
    assert [(v.value, v.valid_from, v.valid_to, v.status) for v in chain.touched] == [
        ("A", 1, 5, "outdated"),
        ("B", 5, None, "active"),
    ]
    assert chain.current is chain.touched[1]
