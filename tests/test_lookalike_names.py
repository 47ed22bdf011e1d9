"""Names that look like other names, and names that look like placeholders: an invisible mark
cannot make a second 林砚, and what a result says is shown as it was written, never filled in."""

from __future__ import annotations

import pytest

import webnovel
from webnovel.errors import InvalidChapterResult

from cli_runner import run_cli


@pytest.mark.parametrize(
    "name",
    [
        "林\u200b砚",
        "\u200f林砚",
        "林砚\u200d",
        "林\u2060砚",
        "\ufeff林砚",
        "林\u00ad砚",
        "林\U000e0001砚",  # tag characters (U+E0000–E007F)
        "林砚\U000e0041\U000e007f",
        "林\ufe0f砚",  # variation selectors (U+FE00–FE0F, U+E0100–E01EF)
        "林砚\U000e0100",
    ],
)
def test_invisible_marks_cannot_make_a_second_name(book: webnovel.Project, name: str) -> None:
    book.commit({"chapter": 1, "entities_new": [{"id": "linyan", "name": "林砚"}]})
    for entity in (
        {"id": "x", "name": name},
        {"id": name, "name": "别人"},
        {"id": "y", "name": "某人", "aliases": [name]},
    ):
        with pytest.raises(InvalidChapterResult, match=r"entities_new\[0\].*不可见字符 U\+"):
            book.commit({"chapter": 2, "entities_new": [entity]})
    assert [e.name for e in book.entities()] == ["林砚"]


def test_placeholders_in_names_and_types_are_shown_as_written(book: webnovel.Project) -> None:
    book.commit(
        {
            "chapter": 1,
            "entities_new": [
                {"id": "a", "name": "{target}"},
                {"id": "b", "name": "韩啸"},
                {"id": "c", "name": "{who}{{x}}"},
            ],
        }
    )
    book.commit(
        {
            "chapter": 2,
            "relationships_new": [
                {"from": "a", "to": "b", "type": "{who}", "action": "end"},
                {"from": "c", "to": "b", "type": "师{target}徒", "action": "end"},
            ],
        }
    )
    messages = sorted(c.message for c in book.conflicts())
    assert len(messages) == 2
    assert "{target}→韩啸" in messages[0] and "「{who}」" in messages[0], messages
    assert "{who}{{x}}→韩啸" in messages[1] and "「师{target}徒」" in messages[1], messages
    root = book.root
    book.close()
    shown = run_cli("--project", str(root), "conflicts", "--format", "text").stdout
    assert "{target}→韩啸" in shown and "「{who}」" in shown
    with webnovel.open_project(root) as again:
        again.rebuild()
        assert sorted(c.message for c in again.conflicts()) == messages
