"""The published JSON Schema and the validator agree on what a chapter result is."""

from __future__ import annotations

import json

import pytest

from webnovel.errors import InvalidChapterResult
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.write.chapter_result import parse_chapter_result
from webnovel.memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA

from cli_runner import run_cli
from saga import generate_saga

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(CHAPTER_RESULT_SCHEMA)


def test_the_schema_is_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(CHAPTER_RESULT_SCHEMA)


def test_results_the_validator_accepts_validate_against_the_schema() -> None:
    results = [c.result for c in sample_chapters()] + generate_saga(30, seed=2).results
    for result in results:
        parse_chapter_result(result)
        assert list(VALIDATOR.iter_errors(result)) == [], result["chapter"]


@pytest.mark.parametrize(
    "bad",
    [
        {"chapter": 0},
        {"chapter": "3"},
        {},
        {"chapter": 1, "state_changes": [{"entity_id": "x", "field": "realm"}]},
        {
            "chapter": 1,
            "state_changes": [{"entity_id": "x", "field": "f", "new": 1, "op": "toggle"}],
        },
        {"chapter": 1, "relationships_new": [{"from": "a", "to": "b"}]},
        {"chapter": 1, "plot_threads": [{"id": "t", "action": "forget"}]},
        {"chapter": 1, "entities_new": [{"id": "a"}]},
        {"chapter": 1, "timeline_events": [{"participants": ["a"]}]},
    ],
)
def test_both_refuse_what_is_malformed(bad: dict) -> None:
    assert list(VALIDATOR.iter_errors(bad))
    with pytest.raises(InvalidChapterResult):
        parse_chapter_result(bad)


def test_cli_prints_the_schema() -> None:
    proc = run_cli("schema", "chapter-result")
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == CHAPTER_RESULT_SCHEMA
