"""Impact: what a revision of chapter N would do, asked before it is made, equals what making
it does. On a generated saga, each revision (a death, a realm, a relation ended, a thread
resolved early) is asked about, then committed for real in a copy of the book: the answers that
differ before and after the commit, and the conflicts it adds and removes, are the impact's;
a rebuild of the revised book answers the same again."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest

import webnovel

from saga import Saga, generate_saga
from stores import init_book

CHAPTERS = 120
REVISED = 30


@pytest.fixture(scope="module")
def saga() -> Saga:
    return generate_saga(CHAPTERS, seed=11)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, saga: Saga) -> Path:
    root = tmp_path_factory.mktemp("impact") / "base"
    with webnovel.init_project(root, title="saga") as book:
        for result in saga.results:
            book.commit(result)
    return root


def answers(book: webnovel.Project) -> dict[tuple[Any, ...], Any]:
    """Every answer as of the latest chapter: each entity's fields, relations, each thread's
    status and each rule in force."""
    latest = book.latest_chapter()
    found: dict[tuple[Any, ...], Any] = {}
    # names only (tentative entities) too: a retraction leaves later chapters' names unresolved
    ids = [row[0] for row in book.storage.conn.execute("SELECT id FROM entities ORDER BY id")]
    for entity_id in ids:
        for item in book.facts(entity_id, as_of=latest):
            found[("fact", entity_id, item.field)] = item.value
        for edge in book.relations(entity_id, as_of=latest):
            found[("relation", edge.source, edge.target, edge.type)] = True
    for thread in book.threads("all", as_of=latest):
        found[("thread", thread.id)] = thread.status
    for rule in book.rules(as_of=latest):
        found[("rule", rule.id)] = rule.rule
    return found


def conflict_ids(book: webnovel.Project) -> set[str]:
    return {c.id for c in book.conflicts(include_settled=True)}


def differences(before: dict[tuple[Any, ...], Any], after: dict[tuple[Any, ...], Any]) -> set[Any]:
    """(key, before, after) for each answer that differs; lists as tuples."""
    return {
        (k, _hashable(before.get(k)), _hashable(after.get(k)))
        for k in before.keys() | after.keys()
        if before.get(k) != after.get(k)
    }


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def impact_differences(found: dict[str, Any]) -> set[Any]:
    """The impact's `changed` in the shape of `differences`."""
    out: set[Any] = set()
    for c in found["changed"]:
        if c["kind"] == "fact":
            before, after = _hashable(c["before"]), _hashable(c["after"])
            out.add((("fact", c["entity_id"], c["field"]), before, after))
        elif c["kind"] == "relation":
            for type_, was, now in ((c["before"], True, None), (c["after"], None, True)):
                if type_ is not None:
                    out.add((("relation", c["entity_id"], c["target"], type_), was, now))
        elif c["kind"] == "thread":
            out.add((("thread", c["entity_id"]), c["before"], c["after"]))
        elif c["kind"] == "rule":
            out.add((("rule", c["entity_id"]), c["before"], c["after"]))
    return out


def revised_as_committed(
    base: Path, tmp_path: Path, revision: dict[str, Any] | None, chapter: int
) -> dict[str, Any]:
    """On a copy of the base book: see `compared_with_the_commit`."""
    root = tmp_path / "book"
    shutil.copytree(base, root)
    with webnovel.open_project(root) as book:
        return compared_with_the_commit(book, revision, chapter)


def compared_with_the_commit(
    book: webnovel.Project, revision: dict[str, Any] | None, chapter: int
) -> dict[str, Any]:
    """Ask for the impact (of committing `revision`, or of retracting `chapter` when None),
    check it wrote nothing, make the revision for real, compare; then rebuild the revised book
    and compare again. Returns the impact's JSON."""
    before, ids_before, seq = answers(book), conflict_ids(book), book.commit_seq()
    if revision is None:
        found = book.impact(chapter=chapter, retract=True).to_dict()
    else:
        found = book.impact(revision).to_dict()
    assert book.commit_seq() == seq and answers(book) == before  # nothing written
    assert conflict_ids(book) == ids_before
    if revision is None:
        book.retract(chapter)
    else:
        book.commit(revision)
    after, ids_after = answers(book), conflict_ids(book)
    assert impact_differences(found) == differences(before, after)
    assert {c["id"] for c in found["conflicts_added"]} == ids_after - ids_before
    assert {c["id"] for c in found["conflicts_removed"]} == ids_before - ids_after
    later = {c["chapter"] for c in found["conflicts_added"] + found["conflicts_removed"]}
    assert {c for c in later if c > chapter} <= set(found["chapters"])
    assert found["chapters"] == sorted(found["chapters"])
    assert all(c > chapter for c in found["chapters"])
    book.rebuild()
    assert answers(book) == after and conflict_ids(book) == ids_after
    return found


def _result(saga: Saga, chapter: int) -> dict[str, Any]:
    return copy.deepcopy(saga.results[chapter - 1])


def _acting_later(saga: Saga, after: int) -> str:
    """An entity alive at `after` that the saga has act in many later chapters."""
    seen: dict[str, int] = {}
    for result in saga.results[after:]:
        for appeared in result.get("entities_appeared", []):
            seen[appeared["id"]] = seen.get(appeared["id"], 0) + 1
    alive = [e for e in seen if saga.truth.fact(e, "status", after) == "存活"]
    return max(alive, key=lambda e: seen[e])


def test_killing_a_character_lists_every_later_chapter_where_he_acts(
    base: Path, tmp_path: Path, saga: Saga
) -> None:
    victim = _acting_later(saga, REVISED)
    revision = _result(saga, REVISED)
    revision["state_changes"].append(
        {"entity_id": victim, "field": "status", "new": "死亡", "reason": "战死"}
    )
    found = revised_as_committed(base, tmp_path, revision, REVISED)
    acting = {
        n
        for n, result in enumerate(saga.results, start=1)
        if n > REVISED and any(a["id"] == victim for a in result.get("entities_appeared", []))
    }
    dead_acting = {
        c["chapter"]
        for c in found["conflicts_added"]
        if c["kind"] == "dead_entity_active" and c["entity_id"] == victim
    }
    assert acting and acting <= dead_acting
    assert dead_acting <= set(found["chapters"])
    name = saga.truth.names[victim][0]
    assert any(c["entity_name"] == name and c["field"] == "status" for c in found["changed"])
    assert found["published"] == []  # no published line yet


def test_changing_a_realm(base: Path, tmp_path: Path, saga: Saga) -> None:
    chapter = next(
        n
        for n in range(REVISED, CHAPTERS)
        if any(c["field"] == "realm" for c in saga.results[n - 1]["state_changes"])
    )
    revision = _result(saga, chapter)
    change = next(c for c in revision["state_changes"] if c["field"] == "realm")
    change["new"] = "渡劫"  # the ladder's top, far above where the saga has him
    found = revised_as_committed(base, tmp_path, revision, chapter)
    own = [r for r in found["records"] if r["chapter"] == chapter and r["field"] == "realm"]
    assert own and own[0]["after"] == "渡劫"
    # his later promotions now step down from 渡劫: each later chapter that says so is listed
    later = [c for c in found["conflicts_added"] if c["entity_id"] == change["entity_id"]]
    assert later and all(c["chapter"] in found["chapters"] for c in later)


def test_ending_a_relation(base: Path, tmp_path: Path, saga: Saga) -> None:
    holding = sorted(
        (s, t, k)
        for e in sorted(saga.truth.names)
        for s, t, k in saga.truth.relations_of(e, REVISED)
        if s == e and saga.truth.relations_of(e, CHAPTERS) >= {(s, t, k)}
    )
    source, target, kind = holding[0]
    revision = _result(saga, REVISED)
    revision["relationships_new"].append(
        {"from": source, "to": target, "type": kind, "action": "end"}
    )
    found = revised_as_committed(base, tmp_path, revision, REVISED)
    assert any(
        c["kind"] == "relation" and c["entity_id"] == source and c["target"] == target
        for c in found["changed"] + found["records"]
    )


def test_resolving_a_thread_early(base: Path, tmp_path: Path, saga: Saga) -> None:
    open_then = sorted(
        (saga.truth.thread_status(t, CHAPTERS) != "resolved", t)
        for t in saga.truth.threads
        if saga.truth.thread_status(t, REVISED) == "open"
    )
    thread = open_then[0][1]  # one the saga resolves later: its later steps are now too late
    revision = _result(saga, REVISED)
    revision["plot_threads"].append({"id": thread, "action": "resolve", "content": "提前回收"})
    found = revised_as_committed(base, tmp_path, revision, REVISED)
    assert any(
        c["kind"] == "thread"
        and c["entity_id"] == thread
        and (c["before"], c["after"]) == ("open", "resolved")
        and c["chapter"] == REVISED
        for c in found["records"]
    )


def test_retracting_a_chapter(base: Path, tmp_path: Path) -> None:
    found = revised_as_committed(base, tmp_path, None, REVISED)
    assert found["action"] == "retract" and found["status"] == "changed"


def test_the_same_result_again_changes_nothing(base: Path, saga: Saga) -> None:
    with webnovel.open_project(base) as book:
        found = book.impact(_result(saga, REVISED))
    assert found.status == "unchanged"
    assert not (found.changed or found.conflicts_added or found.chapters or found.published)


def test_a_death_on_each_backend(backend: str, tmp_path: Path) -> None:
    """The same on PostgreSQL: the trial is the store's own rolled-back transaction."""
    small = generate_saga(40, seed=11)
    with init_book(backend, tmp_path / "book", title="saga") as book:
        for result in small.results:
            book.commit(result)
        revision = _result(small, 15)
        victim = _acting_later(small, 15)
        revision["state_changes"].append({"entity_id": victim, "field": "status", "new": "死亡"})
        found = compared_with_the_commit(book, revision, 15)
    assert any(c["kind"] == "dead_entity_active" for c in found["conflicts_added"])
