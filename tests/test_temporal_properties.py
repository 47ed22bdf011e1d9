"""Invariants over random small books (hypothesis): as-of answers equal a naive replay in chapter
order whatever order chapters were committed in, re-commits included; rebuild equals the
incremental path; an identical second commit changes nothing."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import webnovel

from answers import book_answers, naive_replay
from stores import init_book

ENTITIES = ["e0", "e1", "e2"]
NAMES = {f"角色{e}": e for e in ENTITIES}  # references may use a name instead of the id
REFERENCES = ENTITIES + list(NAMES)
LATE = "e2"  # introduced in chapter 3: earlier chapters name it before it exists
VALUES = ["甲", "乙", "丙"]
CHAPTERS = 8


# Strategies are made once (cache): a strategy made anew at each draw is validated anew by
# hypothesis, which cost a third of the time drawing a history took; the draws are the same.
@cache
def state_change() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.fixed_dictionaries(
            {
                "entity_id": st.sampled_from(REFERENCES),
                "field": st.sampled_from(["realm", "location"]),
                "new": st.sampled_from(VALUES),
            },
            optional={"old": st.sampled_from(VALUES), "confidence": st.sampled_from([1.0, 0.3])},
        ),
        st.fixed_dictionaries(
            {
                "entity_id": st.sampled_from(REFERENCES),
                "field": st.just("status"),
                "new": st.sampled_from(["存活", "死亡"]),
            }
        ),
        st.fixed_dictionaries(
            {
                "entity_id": st.sampled_from(REFERENCES),
                "field": st.just("items"),
                "op": st.sampled_from(["add", "remove"]),
                "new": st.sampled_from(VALUES),
            }
        ),
    )


relation = st.fixed_dictionaries(
    {
        "from": st.sampled_from(REFERENCES),
        "to": st.sampled_from(REFERENCES),
        "type": st.sampled_from(["朋友", "仇敌", "师徒"]),
        "action": st.sampled_from(["create", "update", "end"]),
    },
    optional={"confidence": st.sampled_from([1.0, 0.3])},
)
thread = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["t0", "t1"]),
        "content": st.sampled_from(["伏笔一", "伏笔二"]),
        "action": st.sampled_from(["plant", "advance", "resolve", "abandon"]),
    }
)


rule = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["r0", "r1"]),
        "rule": st.sampled_from(["灵脉枯竭不可突破", "子时方可点灯"]),
        "action": st.sampled_from(["reveal", "revise", "retire"]),
    }
)


@cache
def chapter_result(n: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "chapter": st.just(n),
            "state_changes": st.lists(state_change(), max_size=4),
            "relationships_new": st.lists(relation, max_size=2),
            "plot_threads": st.lists(thread, max_size=2),
            "world_rules": st.lists(rule, max_size=2),
            "scenes": st.lists(
                st.fixed_dictionaries(
                    {}, optional={"time": STORY_TIMES, "flashback": st.just(True)}
                ),
                max_size=2,
            ).map(lambda scenes: [s | {"index": i} for i, s in enumerate(scenes, 1)]),
        }
    )


STORY_TIMES = st.sampled_from(["次日", "三日后", "黄昏", "清晨", "十年前", "数日后"])


def introduce(result: dict[str, Any], entities: list[str]) -> dict[str, Any]:
    result["entities_new"] = [
        {"id": e, "name": f"角色{e}", "current": {"location": "青石镇"}} for e in entities
    ]
    return result


def by_id(result: dict[str, Any]) -> dict[str, Any]:
    """The same result with every reference written as an id: what the naive oracle reads."""
    copy = dict(result)
    copy["state_changes"] = [
        {**c, "entity_id": NAMES.get(c["entity_id"], c["entity_id"])}
        for c in result.get("state_changes", [])
    ]
    copy["relationships_new"] = [
        {**r, "from": NAMES.get(r["from"], r["from"]), "to": NAMES.get(r["to"], r["to"])}
        for r in result.get("relationships_new", [])
    ]
    return copy


@st.composite
def histories(draw: st.DrawFn) -> tuple[dict[int, dict], list[dict]]:
    """Final chapter results, and the commit sequence (any order, with revisions) reaching them."""
    finals = {n: draw(chapter_result(n)) for n in range(1, CHAPTERS + 1)}
    introduce(finals[1], [e for e in ENTITIES if e != LATE])
    introduce(finals[3], [LATE])
    order = draw(st.permutations(list(finals)))
    sequence = []
    for n in order:
        if draw(st.booleans()) and n not in (1, 3):
            sequence.append(draw(chapter_result(n)))  # an earlier draft, later revised
        sequence.append(finals[n])
    return finals, sequence


def settings_for(examples: int) -> Any:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


# The README's test command checks both properties on each of a dozen histories on SQLite and
# three on PostgreSQL (one book and one drawn history each, both of which cost as much as the
# checks; a PostgreSQL book costs a schema and a round trip a statement); .ci/run tries 40 more
# for each property apart (marked slow).
EXAMPLES = {"sqlite": 12, "postgresql": 3}
THOROUGH = settings_for(40)


def engine_state(book: webnovel.Project, n: int) -> dict[str, Any]:
    facts = {}
    for entity in ENTITIES:
        for field in ("realm", "location", "items", "status"):
            item = book.fact(entity, field, as_of=n)
            if item is not None:
                facts[(entity, field)] = item.value
    relations = {(r.source, r.target, r.type) for e in ENTITIES for r in book.relations(e, as_of=n)}
    threads = {t.id: t.status for t in book.threads("all", as_of=n)}
    rules = {r.id: r.rule for r in book.rules(as_of=n)}
    clock = book.clock(as_of=n)
    return {
        "facts": facts,
        "relations": relations,
        "threads": threads,
        "rules": rules,
        "clock": (clock.day, clock.day_latest, clock.part),
    }


def test_as_of_answers_equal_a_naive_replay_and_a_rebuild_the_incremental_path(
    tmp_path_factory: Any, backend: str
) -> None:
    """Both properties on each book, on every store backend (the replay's checks read it
    before it is re-committed and rebuilt; the rebuild starts over from the commit log): a
    dozen histories on SQLite for each property, as two tests had, drawn and built once. The
    number of examples is the backend's, so hypothesis runs inside."""

    @settings_for(EXAMPLES[backend])
    @given(history=histories())
    def both_properties(history: Any) -> None:
        with committed(tmp_path_factory, history, backend) as book:
            check_against_naive_replay(book, history)
            check_rebuild_and_recommit(book, history)

    both_properties()


@pytest.mark.slow
@THOROUGH
@given(history=histories())
def test_as_of_answers_equal_a_naive_replay_thoroughly(tmp_path_factory: Any, history: Any) -> None:
    with committed(tmp_path_factory, history) as book:
        check_against_naive_replay(book, history)


@pytest.mark.slow
@THOROUGH
@given(history=histories())
def test_rebuild_equals_incremental_and_recommit_is_unchanged_thoroughly(
    tmp_path_factory: Any, history: Any
) -> None:
    with committed(tmp_path_factory, history) as book:
        check_rebuild_and_recommit(book, history)


def committed(tmp_path_factory: Any, history: Any, backend: str = "sqlite") -> webnovel.Project:
    """A new book in `backend` with the history's commit sequence committed."""
    _, sequence = history
    book = init_book(backend, tmp_path_factory.mktemp("prop") / "book", title="p")
    for result in sequence:
        book.commit(result)
    return book


def check_against_naive_replay(book: webnovel.Project, history: Any) -> None:
    finals, _ = history
    for n in range(0, CHAPTERS + 2):
        oracle = naive_replay({k: by_id(v) for k, v in finals.items()}, n)
        assert engine_state(book, n) == oracle, f"as of chapter {n}"


def check_rebuild_and_recommit(book: webnovel.Project, history: Any) -> None:
    finals, _ = history
    chapters = list(range(0, CHAPTERS + 2))
    fields = ["realm", "location", "items", "status"]
    incremental = book_answers(book, ENTITIES, fields, chapters)
    again = book.commit(finals[3])
    assert again.status == "unchanged"
    assert book_answers(book, ENTITIES, fields, chapters) == incremental
    book.rebuild()
    assert book_answers(book, ENTITIES, fields, chapters) == incremental
