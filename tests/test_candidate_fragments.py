"""Fragments of names are not offered as candidates (trial 3 §9: at 2,000 chapters the queue
was led by 向白眉, 向苏小, 那九转 and 那玄, and `prefill` offered 白眉真): a preposition or a
pronoun glued to the start of a known name or of another candidate, a demonstrative before a
word, and a name cut off before the title it mostly goes on into (白眉真 of 白眉真人)."""

from __future__ import annotations

from pathlib import Path

import webnovel
from webnovel.ingest.name_finder import candidate_names

CHAPTER = (
    "苏小蛮忽然出手，一掌拍向白眉真人的后心。白眉真人冷笑道：“来得好。”"
    "韩啸天一刀劈向赵铁山的左肩。赵铁山低声道：“那九转金丹若落入外人之手，天下便再无宁日。”"
    "陆青云道：“那玄龟甲呢？”沈青推门而入，笑道：“我来迟了。”沈青看了看众人，又道：“走罢。”"
)
CAST = ["白眉真人", "苏小蛮", "韩啸天", "九转金丹", "陆青云"]
FRAGMENTS = {"向白眉", "向赵铁", "向苏小", "那九转", "那玄", "白眉真"}


def chapters(count: int = 8) -> list[tuple[int, str]]:
    return [(n, CHAPTER) for n in range(1, count + 1)]


def test_a_known_name_with_a_preposition_or_a_demonstrative_before_it_is_no_candidate() -> None:
    offered = {c.name for c in candidate_names(chapters(), CAST)}
    assert {"沈青", "赵铁山"} <= offered  # the people the cast lacks are still offered
    assert not offered & FRAGMENTS, offered


def test_with_no_cast_the_fragments_of_candidates_and_titles_are_no_candidates() -> None:
    offered = {c.name for c in candidate_names(chapters(), [])}
    assert {"沈青", "赵铁山", "苏小蛮", "韩啸天"} <= offered
    assert not offered & FRAGMENTS, offered


def test_the_queue_and_a_chapter_skeleton_offer_no_fragment(tmp_path: Path) -> None:
    """Through the book: `candidates` and `prefill`, the two places an author sees them."""
    source = tmp_path / "book.txt"
    source.write_text(
        "\n".join(f"第{n}章 夜行\n\n{text}\n" for n, text in chapters()), encoding="utf-8"
    )
    with webnovel.init_project(tmp_path / "book", title="青冥剑歌") as book:
        book.import_text(source)
        queue = {c.name for c in book.candidates(min_count=2)}
        skeleton = {c["name"] for c in book.prefill(1)["candidate_new_entities"]}
    assert "沈青" in queue and "沈青" in skeleton
    assert not (queue | skeleton) & FRAGMENTS, (queue, skeleton)
