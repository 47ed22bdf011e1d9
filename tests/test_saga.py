"""A 300-chapter generated saga committed through the API answers as-of questions exactly as the
generator's ground truth says: by id, name and alias; sets as sorted lists; relations inside
exclusive groups; thread statuses; rules in force."""

from __future__ import annotations

import random

import pytest

import webnovel

from saga import Saga

CHECKPOINTS = [1, 2, 25, 26, 99, 150, 151, 240, 299, 300]


def test_facts_as_of_every_checkpoint(saga_book: webnovel.Project, saga300: Saga) -> None:
    truth = saga300.truth
    rng = random.Random(3)
    checked = 0
    for entity, field in sorted(truth.facts):
        name, aliases = truth.names[entity]
        for n in CHECKPOINTS:
            expected = truth.fact(entity, field, n)
            reference = rng.choice([entity, name, *aliases])
            item = saga_book.fact(reference, field, as_of=n)
            if expected is None:
                assert item is None, (entity, field, n)
            else:
                assert item is not None and item.value == expected, (entity, field, n)
                assert item.status == "active"
                checked += 1
    assert checked > 2000


def test_relations_as_of(saga_book: webnovel.Project, saga300: Saga) -> None:
    for entity in sorted(saga300.truth.names)[:40]:
        for n in CHECKPOINTS:
            found = {(r.source, r.target, r.type) for r in saga_book.relations(entity, as_of=n)}
            assert found == saga300.truth.relations_of(entity, n), (entity, n)


def test_threads_as_of(saga_book: webnovel.Project, saga300: Saga) -> None:
    for n in CHECKPOINTS:
        found = {t.id: t.status for t in saga_book.threads("all", as_of=n)}
        expected = {tid: saga300.truth.thread_status(tid, n) for tid in saga300.truth.threads}
        assert found == {k: v for k, v in expected.items() if v is not None}, n
        open_ids = {t.id for t in saga_book.threads("open", as_of=n)}
        assert open_ids == {k for k, v in found.items() if v == "open"}
        overdue = saga_book.threads("overdue", as_of=n)
        assert all(t.due_chapter is not None and t.due_chapter < n for t in overdue)


def test_rules_as_of(saga_book: webnovel.Project, saga300: Saga) -> None:
    for n in CHECKPOINTS:
        found = {r.id: r.rule for r in saga_book.rules(as_of=n)}
        expected = {rid: saga300.truth.rule_text(rid, n) for rid in saga300.truth.rules}
        assert found == {k: v for k, v in expected.items() if v is not None}, n


def test_the_generated_saga_is_conflict_free_and_dense(
    saga_book: webnovel.Project, saga300: Saga
) -> None:
    from saga import items_per_chapter

    assert saga_book.conflicts() == []
    assert items_per_chapter(saga300) >= 25


@pytest.mark.parametrize("as_of", [None, 150])
def test_deaths_are_remembered(
    saga_book: webnovel.Project, saga300: Saga, as_of: int | None
) -> None:
    dead = [e for (e, f), h in saga300.truth.facts.items() if f == "status" and h[-1][1] == "死亡"]
    assert dead
    for entity in dead:
        died = saga300.truth.facts[(entity, "status")][-1][0]
        item = saga_book.fact(entity, "status", as_of=as_of)
        if as_of is None or as_of >= died:
            assert item is not None and item.value == "死亡"
