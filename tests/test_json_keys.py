"""A key written twice in one object of a chapter result is refused, naming it by its JSON path
(issue 43): JSON keeps the last of the two, and the first was lost without a word."""

from __future__ import annotations

from pathlib import Path

import webnovel

from cli_runner import run_cli

TWICE = (
    '{"chapter": 1, "summary": "林砚入门。", "summary": "林砚下山。",'
    ' "entities_new": [{"id": "linyan", "name": "林砚", "name": "秦桧"}]}'
)


def test_a_key_given_twice_is_refused_naming_its_path(tmp_path: Path) -> None:
    root = tmp_path / "book"
    webnovel.init_project(root, title="重复的键").close()
    result = tmp_path / "ch1.json"
    result.write_text(TWICE, encoding="utf-8")
    for args, stdin in ((["commit", str(result)], None), (["commit", "-"], TWICE)):
        ran = run_cli("--project", str(root), *args, stdin=stdin)
        assert ran.returncode == 2, ran.stderr
        assert "$.summary" in ran.stderr and "$.entities_new[0].name" in ran.stderr
        assert "写了两次" in ran.stderr
    reviewed = run_cli("--project", str(root), "review", str(result))
    assert reviewed.returncode == 2 and "$.entities_new[0].name" in reviewed.stderr
    with webnovel.open_project(root) as book:
        assert book.latest_chapter() is None  # a refused commit writes nothing


def test_equal_keys_in_different_objects_are_fine(tmp_path: Path) -> None:
    root = tmp_path / "book"
    webnovel.init_project(root, title="不重复").close()
    result = tmp_path / "ch1.json"
    result.write_text(
        '{"chapter": 1, "entities_new": [{"id": "a", "name": "林砚"}, {"id": "b", "name": "周伯"}]}',
        encoding="utf-8",
    )
    ran = run_cli("--project", str(root), "commit", str(result), "--format", "json")
    assert ran.returncode == 0, ran.stderr
