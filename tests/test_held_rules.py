"""The rules a snapshot ranks for a pack (`ranking_scans.RankingSnapshot.rules_sharing`) are
those a scan of the state index ranks (`story_sections._rules_sharing`), cut to the best k the
same way, ties in the order of ids, for any k, chapter and terms; and the rules sharing nothing
that it offers are the newest of the others."""

from __future__ import annotations

import pytest

import webnovel
from webnovel.memory.packs.gathering import best
from webnovel.memory.packs.relevance_filter import bigrams, rule_terms
from webnovel.memory.packs.story_sections import _rules_sharing
from webnovel.memory.store.ranking_scans import RankingSnapshot, Wordings, rule_candidates


def _score(shared: int) -> float:
    return min(1.0, 0.2 + 0.1 * shared)  # ties at 1.0 from eight terms on, as a recipe's do


def _ranked(scored: list[tuple[int, str | None, object]], k: int) -> list[tuple[object, ...]]:
    """What `story_sections.world_rules` keeps: the best k, ties in the order given."""
    triples = [(_score(n) if code else 0.1, code, rule) for n, code, rule in scored]
    return [(score, code, rule) for score, code, rule in best(triples, k)]


@pytest.mark.parametrize("k", [1, 3, 12, 80])
def test_the_snapshot_ranks_the_rules_a_scan_ranks(saga_book: webnovel.Project, k: int) -> None:
    conn = saga_book.storage.conn
    snapshot = RankingSnapshot(conn, Wordings(rule_terms))
    texts = [rule.text for rule in rule_candidates(conn, 300)]
    cut, codes = 0, set()
    for n, as_of in enumerate([30, 90, 151, 222, 299, 5000]):
        # the outline shares terms with some rules, the scene with others (and common ones)
        context = bigrams(texts[n % len(texts)][-6:] + texts[(7 * n + 3) % len(texts)][-4:])
        scene = bigrams(texts[(5 * n + 1) % len(texts)][:4])
        scanned, newest = _rules_sharing(rule_candidates(conn, as_of), context, scene)
        held, held_newest = snapshot.rules_sharing(as_of, context, scene, k, (k, _score))
        assert held_newest == newest[:k], as_of
        want = _ranked([(c, code, r) for code, c, r in scanned] + [(0, None, r) for r in newest], k)
        got = _ranked([(c, code, r) for code, c, r in held] + [(0, None, r) for r in newest], k)
        assert got == want, (as_of, k)
        cut += len(scanned) > k
        codes |= {(code, count) for code, count, _ in scanned}
    if k < 80:
        assert cut >= 3  # the best k were chosen among more than k
    assert {code for code, _ in codes} == {"rule_shares_outline", "rule_shares_scene"}
