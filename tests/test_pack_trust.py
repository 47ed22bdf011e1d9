"""The pack an agent can trust (issue 38), on a serial written the way agents write it
(tests/trust_book.py): memories and dreams move nobody and wake no dead; who knows what is said
only from the records; items are things with one holder; the realm answers to its genre's words;
scenes are held against memory's places."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import trust_book
import webnovel
from webnovel.book.project import Project
from webnovel.errors import InvalidChapterResult

from cli_runner import run_cli
from stores import init_book


@pytest.fixture
def book(tmp_path: Path, backend: str) -> Iterator[Project]:
    with init_book(backend, tmp_path / "book", title="青灯", genre="仙侠") as project:
        yield project


def commit_until(book: Project, last: int) -> None:
    for write in trust_book.BOOK[:last]:
        report = book.commit(write())
        assert report is not None


# -- scenes that are not now ------------------------------------------------------------------


def test_a_dead_friend_in_a_memory_or_a_dream_is_no_dead_man_acting(book: Project) -> None:
    commit_until(book, 3)
    assert not [c for c in book.conflicts() if c.kind == "dead_entity_active"]
    # the same chapter told as the present is the contradiction it always was
    present = trust_book.ch3()
    for scene in present["scenes"]:
        scene.pop("flashback", None)
    review = book.review(present, 3)
    assert [i.entity_id for i in review.issues if i.category == "dead_entity_active"] == ["hanxiao"]


def test_a_memory_shows_as_one_in_the_timeline(book: Project, tmp_path: Path) -> None:
    commit_until(book, 3)
    events = book.timeline(3, 3)
    assert [(e.event, e.flashback) for e in events] == [("韩啸与林砚论剑", "flashback")]
    text = run_cli("--project", str(tmp_path / "book"), "timeline", "--format", "text")
    assert "〔回忆〕韩啸与林砚论剑" in text.stdout, text.stdout + text.stderr
    shown = json.loads(run_cli("--project", str(tmp_path / "book"), "timeline").stdout)
    assert shown[-1]["flashback"] == "flashback"


def test_who_was_in_a_memory_is_not_in_the_scene_now(book: Project) -> None:
    commit_until(book, 3)
    pack = book.build_memory_pack("chapter_write", chapter=4, outline="二人启程")
    in_play = {e["name"]: e["why"] for e in pack.to_dict()["entities_in_play"]}
    assert "苏晚晴" in in_play and "韩啸" not in in_play
    assert "- 第3章：〔回忆〕韩啸与林砚论剑＠玄霄门" in pack.render("prompt")


# -- know what is known, say only what is known ----------------------------------------------

OUTLINE_6 = "林砚在玄霄门后山与严松对质"


def _unaware_lines(book: Project, chapter: int, outline: str) -> list[tuple[tuple[str, ...], str]]:
    """(who, secret) of each 「尚不知」 line: one secret is one line naming everyone lacking it."""
    prompt = book.build_memory_pack("chapter_write", chapter=chapter, outline=outline).render(
        "prompt"
    )
    found = []
    for line in prompt.splitlines():
        if " 尚不知：" in line:
            who, content = line.removeprefix("- ").split(" 尚不知：")
            found.append((tuple(who.split("、")), content))
    return found


def test_the_pack_says_only_the_gaps_the_records_support(book: Project) -> None:
    commit_until(book, 5)
    lines = _unaware_lines(book, 6, OUTLINE_6)
    assert 1 <= len(lines) <= 6
    # the gap the scene turns on, the point of view's own, comes first
    assert lines[0][0][0] == "林砚" and "严松" in lines[0][1]
    assert any("林砚" in who and c == "严松是血衣堂安插在玄霄门的内奸" for who, c in lines[:2])
    shown = {(name, content) for who, content in lines for name in who}
    contents = {s.content: s.id for s in book.secrets()}
    for who, content in shown:  # each is true by the records: no learning of it is recorded
        assert contents[content] not in {k.secret_id for k in book.knows(who)}, (who, content)
    # those in the hall when it was announced learnt it by being there
    assert ("林砚", "玄霄门将封山三年") not in shown and ("苏晚晴", "玄霄门将封山三年") not in shown
    # whoever met the man whose death was the secret no longer lacks it
    assert not [who for who, content in shown if content.startswith("林远山没死") and who != "严松"]
    # a lock broken (its thread resolved) is no secret to keep
    prompt = book.build_memory_pack("chapter_write", chapter=6, outline=OUTLINE_6).render("prompt")
    assert "玄字碑" not in prompt.split("## 近期上下文")[0].split("## 硬性约束")[-1]
    # one line a secret, naming everyone who lacks it: all of them fit, none is held back
    assert "另有" not in prompt and len(lines) < 6


def test_a_reveal_told_to_everyone_is_learnt_by_those_there(book: Project) -> None:
    commit_until(book, 4)
    knowing = {k.entity_name for k in book.knows("林砚") + book.knows("苏晚晴")}
    assert knowing == {"林砚", "苏晚晴"}
    assert "sect-seal" not in {k.secret_id for k in book.knows("严松")}  # not in the hall


def _confrontation() -> dict[str, object]:
    return {
        "chapter": 6,
        "title": "对质",
        "summary": "林砚在后山与严松对质。",
        "scenes": [{"index": 1, "location": "黑风谷", "characters": ["林砚", "严松", "林远山"]}],
    }


def test_review_asks_whether_a_gap_resting_on_no_record_still_holds(book: Project) -> None:
    commit_until(book, 5)
    review = book.review(_confrontation(), 6)
    asked = [i for i in review.issues if i.category == "knowledge_unrecorded"]
    assert {(i.found, i.field) for i in asked} >= {("linyan", "yansong-mole")}
    assert all(i.severity == "low" and "是否已得知" in i.message for i in asked)
    assert not [i for i in asked if i.field == "father-alive"]  # meeting settles a 生死 secret
    told = _confrontation()
    told["knowledge_changes"] = [
        {"entity_id": "林砚", "secret_id": "yansong-mole", "change": "learns", "from": "屠七"}
    ]
    again = book.review(told, 6)
    assert not [
        i
        for i in again.issues
        if i.category == "knowledge_unrecorded" and (i.found, i.field) == ("linyan", "yansong-mole")
    ]


# -- the scene's people -----------------------------------------------------------------------


@pytest.mark.parametrize("task", ["chapter_write", "consistency_check"])
def test_an_outline_adds_to_the_scene_never_replaces_it(book: Project, task: str) -> None:
    commit_until(book, 5)
    outline = "严松、白眉、屠七、韩啸、林远山、林砚在玄霄门议事"
    pack = book.build_memory_pack(task, chapter=6, outline=outline)
    in_play = {e["name"]: e["why_zh"] for e in pack.to_dict()["entities_in_play"]}
    assert {"严松", "白眉", "屠七", "林砚"} <= set(in_play)
    assert in_play["苏晚晴"] == "第5章最后一场在场"  # in the last scene, named or not


# -- the dead and the uncertain ---------------------------------------------------------------


def test_a_relation_to_the_dead_reads_as_one(book: Project) -> None:
    commit_until(book, 3)
    prompt = book.build_memory_pack("chapter_write", chapter=4, outline="林砚为韩啸扫墓").render(
        "prompt"
    )
    assert "林砚 → 韩啸（已故）：挚友" in prompt
    assert "林砚 → 韩啸：挚友" not in prompt
    assert (
        "- 韩啸 已于第2章死亡，不得再出场或行动（回忆或梦境中可以出现：该场景标 flashback）"
        in prompt
    )


def test_an_enemys_word_is_said_as_his_word_not_as_fact(book: Project) -> None:
    commit_until(book, 6)
    prompt = book.build_memory_pack(
        "chapter_write", chapter=7, outline="林砚追查严松的去向"
    ).render("prompt")
    assert "严松 位置：焚骨岭（据屠七所说，第6章起）" in prompt
    fact = book.fact("严松", "location")
    assert fact is not None and fact.value == "焚骨岭"
    assert fact.evidence[0]["certainty"] == "rumor" and fact.evidence[0]["said_by"] == "tuqi"
    claimed = trust_book.ch6()
    claimed["state_changes"] = [
        {"entity_id": "严松", "field": "identity", "new": "玄霄门执事", "certainty": "自称"}
    ]
    book.commit(claimed)  # the chapter again, now with his own claim
    prompt = book.build_memory_pack("chapter_write", chapter=7, outline="严松").render("prompt")
    assert "严松 身份：玄霄门执事（自称，第6章起）" in prompt


# -- items as things ---------------------------------------------------------------------------


def test_an_item_never_introduced_is_asked_for_by_name(book: Project, tmp_path: Path) -> None:
    commit_until(book, 7)
    before, after = book.fact("血色骨哨", "持有者", as_of=6), book.fact("血色骨哨", "持有者")
    assert before is not None and (before.value, before.valid_from) == ("屠七", 1)
    assert after is not None and (after.value, after.valid_from) == ("白眉", 7)
    assert "血色骨哨" in [e.name for e in book.entities(entity_type="物品")]
    assert "血色骨哨" not in [e.name for e in book.entities(entity_type="角色")]
    project = str(tmp_path / "book")
    shown = run_cli("--project", project, "fact", "血色骨哨", "持有者", "--as-of", "6")
    assert shown.returncode == 0 and json.loads(shown.stdout)["value"] == ["屠七"], shown.stderr
    listed = run_cli("--project", project, "entities", "--type", "物品", "--format", "text")
    assert "血色骨哨" in listed.stdout, listed.stderr


def test_handing_over_what_another_holds_is_blocked(book: Project) -> None:
    commit_until(book, 6)
    wrong = trust_book.ch7()
    wrong["summary"] = "林砚把血色骨哨交给白眉。"
    wrong["state_changes"] = [
        {"entity_id": "林砚", "field": "items", "op": "remove", "new": "血色骨哨"},
        {"entity_id": "白眉", "field": "items", "op": "add", "new": "血色骨哨"},
    ]
    review = book.review(wrong, 7)
    blocked = [i for i in review.blocking if i.category == "item_not_held"]
    assert len(blocked) == 1 and blocked[0].severity == "high"
    assert "屠七" in blocked[0].message and "第1章" in blocked[0].message
    assert "林砚" in blocked[0].message
    # committed anyway, it is a conflict on record, until the chapter is taken back
    book.commit(wrong)
    assert [c.kind for c in book.conflicts() if c.kind == "item_not_held"] == ["item_not_held"]
    book.retract(7)
    assert not [c for c in book.conflicts() if c.kind == "item_not_held"]
    # the holder handing it over is no issue
    right = book.review(trust_book.ch7(), 7)
    assert not [i for i in right.issues if i.category in ("item_not_held", "set_remove_missing")]


# -- ladder fields -------------------------------------------------------------------------------


def test_xiuwei_answers_as_the_realm_and_its_drop_is_a_regression(book: Project) -> None:
    commit_until(book, 3)
    fact = book.fact("林砚", "修为")
    assert fact is not None and (fact.field, fact.value) == ("realm", "金丹")
    lowered = {
        "chapter": 4,
        "summary": "林砚与人斗法。",
        "state_changes": [{"entity_id": "林砚", "field": "修为", "new": "筑基"}],
    }
    review = book.review(lowered, 4)
    assert [(i.category, i.severity, i.field) for i in review.blocking] == [
        ("regression", "critical", "realm")
    ]
    lowered["state_changes"][0]["field"] = "等级"  # type: ignore[index]
    assert [i.category for i in book.review(lowered, 4).blocking] == ["regression"]


def test_a_books_own_word_for_its_ladder_wins(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="星河", genre="科幻") as book:
        config = tmp_path / "b" / ".webnovel" / "config.toml"
        text = config.read_text(encoding="utf-8")
        text = text.replace("[ladders]", '[ladders]\npower = ["C级", "B级", "A级", "S级"]', 1)
        text = text.replace("[fields]", '[fields]\npower = ["战力", "等级"]', 1)
        config.write_text(text, encoding="utf-8")
    with webnovel.open_project(tmp_path / "b") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "k", "name": "凯", "type": "角色", "current": {"等级": "A级"}}
                ],
            }
        )
        fact = book.fact("凯", "战力")
        assert fact is not None and (fact.field, fact.value) == ("power", "A级")
        review = book.review(
            {"chapter": 2, "state_changes": [{"entity_id": "凯", "field": "等级", "new": "C级"}]}
        )
        assert [i.category for i in review.blocking] == ["regression"]


# -- places against scenes -----------------------------------------------------------------------


def _at_the_lords_house(**extra: object) -> dict[str, object]:
    return {
        "chapter": 8,
        "title": "城主府",
        "summary": "林远山与苏晚晴在城主府见城主。",
        "scenes": [{"index": 1, "location": "城主府", "characters": ["林远山", "苏晚晴"]}],
        **extra,
    }


def test_a_scene_somewhere_memory_does_not_have_them_is_an_issue(book: Project) -> None:
    commit_until(book, 7)
    review = book.review(_at_the_lords_house(), 8)
    found = {i.entity_id: i for i in review.issues if i.category == "scene_location"}
    assert set(found) == {"linyuanshan", "suwanqing"}
    assert all(i.severity == "medium" for i in found.values())
    said = found["suwanqing"].message
    assert "城主府" in said and "黑风谷" in said and "第5章" in said
    assert "第1章" in found["linyuanshan"].message
    # nothing explains the change from where chapter 7 ended: that is said too, once
    assert [i.category for i in review.issues if i.category == "location_continuity"] == [
        "location_continuity"
    ]


def test_a_recorded_move_is_silent(book: Project) -> None:
    commit_until(book, 7)
    moved = _at_the_lords_house(
        state_changes=[
            {"entity_id": "林远山", "field": "location", "new": "城主府", "reason": "应邀赴宴"},
            {"entity_id": "苏晚晴", "field": "位置", "new": "城主府", "reason": "随行"},
        ]
    )
    review = book.review(moved, 8)
    assert not [i for i in review.issues if i.category in ("scene_location", "location_continuity")]


def test_a_scene_where_they_already_are_needs_no_crossing(book: Project) -> None:
    commit_until(book, 7)  # chapter 7 ended at 玄霄门; 林砚 is at 黑风谷 since chapter 5
    draft = {"chapter": 8, "scenes": [{"index": 1, "location": "黑风谷", "characters": ["林砚"]}]}
    assert not book.review(draft, 8).issues


def test_a_flashback_with_a_dead_man_is_clean(book: Project) -> None:
    commit_until(book, 2)
    review = book.review(trust_book.ch3(), 3)
    assert not review.blocking
    assert not [i for i in review.issues if i.category in ("scene_location", "dead_entity_active")]


def test_a_sect_told_a_secret_is_its_members_knowing_it(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "sect", title="青云", genre="仙侠") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "jia", "name": "孟甲", "current": {"faction": "青云宗"}},
                    {"id": "yi", "name": "赵乙"},
                    {"id": "bing", "name": "钱丙"},
                    {"id": "qingyun", "name": "青云宗", "type": "势力"},
                ],
                "secrets": [
                    {"id": "s", "kind": "计划", "content": "魔门三日后攻山", "known_by": ["钱丙"]}
                ],
            }
        )
        book.commit({"chapter": 2, "secrets": [{"id": "s", "action": "reveal", "to": ["青云宗"]}]})
        lines = _unaware_lines(book, 3, "孟甲、赵乙与钱丙议事")
        shown = {(name, content) for who, content in lines for name in who}
        assert ("赵乙", "魔门三日后攻山") in shown
        assert ("孟甲", "魔门三日后攻山") not in shown


def test_chapter_n_shows_a_remembered_event_as_one(book: Project, tmp_path: Path) -> None:
    commit_until(book, 3)
    report = book.chapter(3)
    assert report is not None and [e.flashback for e in report.events] == ["flashback"]
    text = run_cli("--project", str(tmp_path / "book"), "chapter", "3", "--format", "text")
    assert "- 〔回忆〕韩啸与林砚论剑＠玄霄门" in text.stdout, text.stdout + text.stderr


def test_secrets_say_their_kind_and_thread(book: Project, tmp_path: Path) -> None:
    commit_until(book, 1)
    found = {s.id: s for s in book.secrets()}
    assert (found["father-alive"].kind, found["stele-lock"].thread) == ("fate", "stele")
    text = run_cli("--project", str(tmp_path / "book"), "secrets", "--format", "text")
    assert "〔生死〕林远山没死" in text.stdout, text.stdout + text.stderr


def test_a_reveal_in_a_scene_the_chapter_lacks_is_refused(book: Project) -> None:
    commit_until(book, 3)
    told = trust_book.ch4()
    told["secrets"][0]["scene"] = 5  # type: ignore[index]
    with pytest.raises(InvalidChapterResult) as refused:
        book.commit(told)
    assert "$.secrets[0].scene" in str(refused.value) and "5" in str(refused.value)
    assert book.latest_chapter() == 3


def test_the_pack_says_who_holds_an_item_the_outline_names(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "lamp", title="青灯", genre="仙侠") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {"id": "linyan", "name": "林砚", "current": {"items": "青灯"}},
                    {"id": "lamp", "name": "青灯", "type": "物品"},
                ],
            }
        )
        prompt = book.build_memory_pack("chapter_write", 2, outline="青灯忽明忽暗").render("prompt")
        assert "- 青灯 持有者：林砚（第1章起）" in prompt.split("## 近期上下文")[0]
