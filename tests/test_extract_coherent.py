"""Extraction keeps the book coherent: each chapter's request carries what memory knows through
the chapter before it, including what this run just committed, so a model that writes only what
its request shows gives the same memory as committing the gold results, at any concurrency.
Against a real chat-completions server on 127.0.0.1 answering as `honest_model` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from honest_model import HonestModel
from test_extract import answers_of, demo_book, imported_book, use

from chat_server import chat_server


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_model_that_knows_only_its_request_gives_the_gold_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, concurrency: int
) -> None:
    model = HonestModel()
    with chat_server(model.script) as server, imported_book(tmp_path / "book") as book:
        use(monkeypatch, server)
        report = book.extract(concurrency=concurrency)
        assert report.total.committed == 12 and report.total.failed == 0
        with demo_book(tmp_path / "demo") as demo:
            assert answers_of(book) == answers_of(demo)
            ours = sorted((e.id, e.name) for e in book.entities())
            assert ours == sorted((e.id, e.name) for e in demo.entities())  # one per person
            kinds = sorted(c.to_dict()["kind"] for c in book.conflicts())
            assert kinds == sorted(c.to_dict()["kind"] for c in demo.conflicts())
        if concurrency > 1:  # asked ahead: chapters asked again are counted, never committed
            assert report.total.requests >= 12
