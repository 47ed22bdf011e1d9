"""Who knows what: secrets and knowledge as of any chapter, in packs, and in review."""

from __future__ import annotations

from pathlib import Path

import webnovel

from stores import init_book

CAST = [
    {"id": "linyan", "name": "林砚", "is_protagonist": True},
    {"id": "zhoubo", "name": "周伯"},
    {"id": "suwanqing", "name": "苏晚晴"},
]
ORIGIN = "林砚的父亲林远山没死"


def book_with_a_secret(root: Path, backend: str) -> webnovel.Project:
    book = init_book(backend, root, title="t")
    book.commit(
        {
            "chapter": 1,
            "entities_new": CAST,
            "secrets": [{"id": "origin", "content": ORIGIN, "known_by": ["周伯"], "reveal_due": 5}],
        }
    )
    book.commit(
        {
            "chapter": 3,
            "knowledge_changes": [
                {"entity_id": "林砚", "secret_id": "origin", "how": "周伯临终相告", "from": "周伯"},
                {"entity_id": "苏晚晴", "secret_id": "origin", "change": "suspects"},
            ],
        }
    )
    return book


def test_knows_and_secrets_as_of_a_chapter(tmp_path: Path, backend: str) -> None:
    with book_with_a_secret(tmp_path / "b", backend) as book:
        assert book.knows("林砚", as_of=2) == []
        [known] = book.knows("林砚")
        assert (known.content, known.state, known.since, known.how, known.source) == (
            ORIGIN,
            "knows",
            3,
            "周伯临终相告",
            "zhoubo",
        )
        assert [k.state for k in book.knows("苏晚晴")] == ["suspects"]
        [secret] = book.secrets(as_of=2)
        assert (secret.known_by, secret.reader_knows, secret.reveal_due) == (("周伯",), False, 5)
        [secret] = book.secrets()
        assert (secret.known_by, secret.suspected_by) == (("周伯", "林砚"), ("苏晚晴",))


def test_the_pack_keeps_the_information_gap(tmp_path: Path, backend: str) -> None:
    with book_with_a_secret(tmp_path / "b", backend) as book:
        early = book.build_memory_pack("chapter_write", 3, outline="周伯与林砚、苏晚晴在铁匠铺")
        lines = early.render("prompt")
        assert f"- 林砚、苏晚晴 尚不知：{ORIGIN}" in lines  # one secret: one line naming both
        assert f"仅作者知（勿在叙述中揭示）：{ORIGIN}" in lines
        due = book.build_memory_pack("chapter_write", 5, outline="林砚与苏晚晴谈起父亲").render(
            "prompt"
        )
        assert f"本章应揭示：{ORIGIN}" in due and "仅作者知" not in due
        assert "林砚 尚不知" not in due  # he learned it in chapter 3


def test_review_raises_a_source_who_did_not_know(tmp_path: Path, backend: str) -> None:
    with book_with_a_secret(tmp_path / "b", backend) as book:
        draft = {
            "chapter": 4,
            "knowledge_changes": [
                {"entity_id": "苏晚晴", "secret_id": "origin", "from": "林砚", "how": "林砚说的"},
                {"entity_id": "苏晚晴", "secret_id": "lamp", "from": "苏晚晴"},
            ],
        }
        issues = {(i.category, i.severity) for i in book.review(draft).issues}
        assert ("secret_unknown", "medium") in issues  # never planted
        assert ("secret_source_unaware", "high") in issues  # she cannot have told herself
        clean = {"chapter": 4, "knowledge_changes": draft["knowledge_changes"][:1]}
        assert [i for i in book.review(clean).issues if i.severity != "low"] == []
        early = {"chapter": 4, "secrets": [{"id": "origin", "action": "reveal"}]}
        assert [(i.category, i.severity) for i in book.review(early).issues] == [
            ("early_reveal", "low")
        ]
