"""The pack for the scene being written: who is in play and why, the knowledge rule (a secret
about someone is known to them unless they are unaware of it), and 本章须知 surviving a small
budget."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.packs.memory_pack import MemoryPack, PackItem

CAST = [
    {"id": "hero", "name": "林砚", "type": "角色", "is_protagonist": True},
    {"id": "father", "name": "林远山", "type": "角色"},
    {"id": "jailer", "name": "血衣堂主", "type": "角色"},
    {"id": "friend", "name": "苏晚晴", "type": "角色"},
    {"id": "spy", "name": "霍忠", "type": "角色"},
]
ALIVE = "林砚的父亲林远山没死"
LINEAGE = "林砚身负玄霄真人血脉"


def _lines(pack: MemoryPack, section: str | None = None) -> list[str]:
    return [i.line for s in pack.sections if section in (None, s.name) for i in s.items]


def _unaware(lines: list[str]) -> set[tuple[str, str]]:
    """(who, secret) for each person a 「尚不知」 line names: one secret is one line naming all."""
    out = set()
    for line in lines:
        if " 尚不知：" in line:
            who, content = line.removeprefix("- ").split(" 尚不知：", 1)
            out |= {(name, content) for name in who.split("、")}
    return out


def _book_with_secrets(root: Path, unaware: list[str]) -> webnovel.Project:
    book = webnovel.init_project(root, title="t")
    book.commit(
        {
            "chapter": 1,
            "entities_new": CAST,
            "secrets": [
                {"id": "alive", "content": ALIVE, "about": ["林远山"], "known_by": ["血衣堂主"]},
                {"id": "lineage", "content": LINEAGE, "about": ["林砚"], "unaware": unaware},
            ],
            "scenes": [{"index": 1, "characters": ["林砚", "林远山", "血衣堂主", "苏晚晴"]}],
        }
    )
    return book


@pytest.mark.parametrize(
    ("unaware", "hero_knows_lineage"),
    [([], True), (["林砚"], False)],
)
def test_a_secret_about_a_person_is_known_to_them_unless_unaware(
    tmp_path: Path, unaware: list[str], hero_knows_lineage: bool
) -> None:
    with _book_with_secrets(tmp_path / "b", unaware) as book:
        assert {k.secret_id for k in book.knows("林远山")} == {"alive"}
        assert {k.secret_id for k in book.knows("血衣堂主")} == {"alive"}
        assert ("lineage" in {k.secret_id for k in book.knows("林砚")}) is hero_knows_lineage
        secrets = {s.id: s for s in book.secrets()}
        assert secrets["alive"].about == ("林远山",)
        assert secrets["lineage"].unaware == tuple(unaware)
        lines = _lines(
            book.build_memory_pack("chapter_write", 2, outline="林砚与林远山、血衣堂主、苏晚晴")
        )
        # no pack says a person does not know what they know
        gaps = _unaware(lines)
        assert ("林远山", ALIVE) not in gaps
        assert ("血衣堂主", ALIVE) not in gaps
        assert ("苏晚晴", ALIVE) in gaps
        assert ("林远山", LINEAGE) in gaps
        assert (("林砚", LINEAGE) in gaps) is not hero_knows_lineage


def test_about_and_known_by_naming_one_person_is_no_second_learning(book: webnovel.Project) -> None:
    report = book.commit(
        {
            "chapter": 1,
            "entities_new": CAST[:2],
            "secrets": [{"id": "s", "content": ALIVE, "about": ["林远山"], "known_by": ["林远山"]}],
        }
    )
    assert not report.warnings
    assert [k.since for k in book.knows("林远山")] == [1]


def test_unaware_lines_only_for_secrets_that_touch_the_scene(tmp_path: Path) -> None:
    with _book_with_secrets(tmp_path / "b", ["林砚"]) as book:
        book.commit(
            {
                "chapter": 2,
                "secrets": [{"id": "spy", "content": "霍忠是眼线", "about": ["霍忠"]}],
                "scenes": [{"index": 1, "characters": ["林砚", "苏晚晴"]}],
            }
        )
        pack = book.build_memory_pack("chapter_write", 3, outline="两人连夜赶路。")
        lines = _lines(pack)
        # 霍忠 is not in play and nobody in play knows: the secret does not touch the scene
        assert not [line for line in lines if "霍忠是眼线" in line]
        assert ("林砚", LINEAGE) in _unaware(lines)  # about 林砚, who is in play
        # when 霍忠 comes into the scene, the two in play who do not know are told
        pack = book.build_memory_pack("chapter_write", 3, outline="霍忠来访。")
        assert {("林砚", "霍忠是眼线"), ("苏晚晴", "霍忠是眼线")} <= _unaware(_lines(pack))


def test_who_is_in_play_and_why(book: webnovel.Project) -> None:
    book.commit(
        {
            "chapter": 1,
            "entities_new": CAST,
            "plot_threads": [
                {"id": "rescue", "content": "救出林远山", "due_chapter": 3, "related": ["林远山"]}
            ],
            "scenes": [
                {"index": 1, "characters": ["林砚", "霍忠"]},
                {"index": 2, "characters": ["林砚", "霍忠"]},
            ],
        }
    )
    book.commit(
        {
            "chapter": 2,
            "chapter_meta": {"pov": "血衣堂主"},
            "scenes": [
                {"index": 1, "characters": ["林砚"]},
                {"index": 2, "characters": ["林砚", "苏晚晴"]},
            ],
        }
    )
    pack = book.build_memory_pack("chapter_write", 3, outline="夜色渐深，两人继续前行。")
    why = {e["name"]: e["why"] for e in pack.entities_in_play}
    assert why == {
        "林砚": "protagonist",
        "苏晚晴": "in the last scene of ch 2",
        "血衣堂主": "point of view",
        "林远山": "named by a thread due at ch 3",
        "霍忠": "shared recent scenes with 林砚",
    }
    text = pack.render("text")
    assert "苏晚晴（第2章最后一场在场）" in text and "霍忠（近期与林砚同场）" in text
    # a review pack is about the draft, not the scene: no cast beyond what it names
    review = book.build_memory_pack("continuity_query", 3, query="苏晚晴在哪")
    assert {e["name"] for e in review.entities_in_play} == {"林砚", "苏晚晴"}


def test_companions_are_weighted_and_capped(book: webnovel.Project) -> None:
    extras = [{"id": f"x{i}", "name": f"路人{'甲乙丙丁戊己'[i]}", "type": "角色"} for i in range(6)]
    book.commit({"chapter": 1, "entities_new": CAST[:1] + extras})
    scenes = [{"index": i + 1, "characters": ["林砚", f"x{i}"]} for i in range(6)]
    scenes += [{"index": 7, "characters": ["林砚", "x5"]}, {"index": 8, "characters": ["林砚"]}]
    book.commit({"chapter": 2, "scenes": scenes})
    pack = book.build_memory_pack("chapter_write", 3, outline="独自修炼。")
    companions = [e for e in pack.entities_in_play if e["why"].startswith("shared")]
    assert len(companions) == 4  # scene_cast.CO_SCENE_CAP
    assert companions[0]["id"] == "x5"  # two scenes with 林砚 weigh more than one


def _sample_book(root: Path) -> webnovel.Project:
    book = webnovel.init_project(root, title="青灯")
    for chapter in sample_chapters():
        book.commit(chapter.result)
    return book


def test_must_know_comes_first_and_survives_a_small_budget(tmp_path: Path) -> None:
    with _sample_book(tmp_path / "b") as book:
        book.commit(
            {
                "chapter": 13,
                "state_changes": [{"entity_id": "韩啸", "field": "status", "new": "死亡"}],
                "scenes": [{"index": 1, "characters": ["林砚", "苏晚晴", "韩啸"]}],
            }
        )
        book.commit(
            {
                "chapter": 14,
                "timeline_events": [{"event": "韩啸挥刀断后", "participants": ["韩啸"]}],
                "scenes": [{"index": 1, "characters": ["林砚", "苏晚晴"]}],
            }
        )
        pack = book.build_memory_pack(
            "chapter_write", 15, outline="夜色渐深，两人继续前行。", budget_tokens=1500
        )
        assert pack.used_tokens <= 1500
        assert pack.sections[0].name == "must_know"
        must = _lines(pack, "must_know")
        assert any(line.startswith("- 韩啸 已于第13章死亡") for line in must)
        assert any("【未解决矛盾·致命】" in line and "韩啸" in line for line in must)
        held = {(i.subject_name, i.field): i.value for i in _items(pack, "must_know")}
        assert "青灯" in held[("林砚", "items")]  # whatever words the field is shown in
        assert "血衣堂令牌" in held[("苏晚晴", "items")]
        assert "苏晚晴" in {who for who, _ in _unaware(must)}
        prompt = pack.render("prompt")
        assert prompt.index("## 本章须知") < prompt.index("## 近期上下文")
        # the sample serial's secrets, fixed: no one is unaware of a secret about themself
        every = _lines(book.build_memory_pack("chapter_write", 15, outline="林远山与血衣堂主"))
        assert not {who for who, _ in _unaware(every)} & {"林远山", "血衣堂主"}


def test_events_and_history_come_from_a_window_and_passages_do_not_repeat(
    tmp_path: Path,
) -> None:
    with _sample_book(tmp_path / "b") as book:
        pack = book.build_memory_pack("chapter_write", 13, outline="林砚与苏晚晴夜探分舵。")
        events = [i.source_chapter or 0 for i in _items(pack, "timeline")]
        assert events and min(events) >= 8  # chapter_write's window: chapters 8–12
        history = [i for s in pack.sections if s.name == "history" for i in s.items]
        ended = [int(str(i.why).rsplit("until ch ", 1)[1].rstrip(")")) for i in history]
        assert ended and min(ended) >= 8  # changes inside the window only
        summaries = {
            i.source_chapter for i in _items(pack, "working_memory") if i.field == "summary"
        }
        passages = [i for i in _items(pack, "episodic")]
        assert summaries and passages
        assert not [
            i for i in passages if i.category.endswith("summary") and i.source_chapter in summaries
        ]
        summary_texts = [i.value for i in _items(pack, "working_memory") if i.field == "summary"]
        assert not [i for i in passages if any(i.value in t for t in summary_texts)]


def _items(pack: MemoryPack, name: str) -> list[PackItem]:
    return [i for s in pack.sections if s.name == name for i in s.items]


def test_review_counts_the_person_a_secret_is_about_as_a_source(tmp_path: Path) -> None:
    with _book_with_secrets(tmp_path / "b", ["林砚"]) as book:
        told = {
            "chapter": 2,
            "knowledge_changes": [{"entity_id": "苏晚晴", "secret_id": "alive", "from": "林远山"}],
        }
        assert not [i for i in book.review(told).issues if i.category == "secret_source_unaware"]
        unaware = {
            "chapter": 2,
            "knowledge_changes": [{"entity_id": "苏晚晴", "secret_id": "lineage", "from": "林砚"}],
        }
        issues = [i.category for i in book.review(unaware).issues]
        assert "secret_source_unaware" in issues  # 林砚 does not know his own lineage
