"""Without a model, an imported book still has a working memory: every chapter gets an
extractive summary in its own words, its ending passage, who is in it, and its scenes where the
text shows breaks; a pack for the next chapter, with no outline and no query, is never empty."""

from __future__ import annotations

import json
from pathlib import Path

import webnovel
from webnovel.ingest.text_summary import (
    ending_passage,
    is_verse,
    is_whole,
    scene_parts,
    split_sentences,
    summary_sentences,
    title_halves,
)

from cli_runner import run_cli

DATA = Path(__file__).resolve().parent / "data"
MONKEY = ("孙悟空", "悟空", "美猴王", "猴王", "石猴")


def xiyouji(n: int) -> str:
    return (DATA / f"xiyouji_0{n}.txt").read_text(encoding="utf-8").split("\n", 1)[1]


def test_the_summary_is_the_texts_own_central_sentences() -> None:
    text = xiyouji(1)
    chosen = summary_sentences(text)
    assert 1 <= len(chosen) <= 3
    assert all(sentence in text for sentence in chosen)  # the text's own words, in order
    assert [text.index(s) for s in chosen] == sorted(text.index(s) for s in chosen)
    assert sum(map(len, chosen)) <= 200
    assert any(name in "".join(chosen) for name in MONKEY)


def test_verse_is_passed_over() -> None:
    assert is_verse("混沌未分天地乱，茫茫渺渺无人见。")
    assert not is_verse("石猴喜不自胜，急抽身往外便走，复瞑目蹲身，跳出水外。")
    poem = "混沌未分天地乱，茫茫渺渺无人见。\n" * 20
    assert summary_sentences(poem + "美猴王领着群猴进了水帘洞，众猴拜他为王。") == [
        "美猴王领着群猴进了水帘洞，众猴拜他为王。"
    ]


def test_a_sentence_never_ends_inside_a_quotation() -> None:
    said = "兀术叫声：“岳雷！你往哪里走！”牛皋大叫道：“兀术！休要猖狂！”众将一齐杀上。"
    assert [s.text for s in split_sentences(said)] == [
        "兀术叫声：“岳雷！你往哪里走！”",
        "牛皋大叫道：“兀术！休要猖狂！”",
        "众将一齐杀上。",
    ]
    assert is_whole("他道：“走吧。”") and not is_whole("兀术叫声：“岳雷！")
    # a speech left open at its paragraph's end (as classical texts do) is never a summary line
    text = "岳飞道：“贤弟听我说，此去须小心。\n次日岳飞拜别了母亲，带着众弟兄上马往汴京去了。\n"
    assert summary_sentences(text) == ["次日岳飞拜别了母亲，带着众弟兄上马往汴京去了。"]


def test_the_summary_takes_the_sentences_that_carry_the_title() -> None:
    assert title_halves("第十二回　夺状元枪挑小梁王　反武场放走岳鹏举") == [
        "夺状元枪挑小梁王",
        "反武场放走岳鹏举",
    ]
    town = [f"第{n}日，众人在汤阴县城中饮酒说笑，街上车马往来不绝。" for n in "一二三四五六"]
    text = "".join(town[:3]) + "小梁王被岳飞一枪挑死在校场之上。" + "".join(town[3:])
    plain = summary_sentences(text, count=2)
    leaning = summary_sentences(text, count=2, title="第十二回　夺状元枪挑小梁王")
    assert not any("小梁王" in s for s in plain)
    assert "小梁王被岳飞一枪挑死在校场之上。" in leaning


def test_sentences_endings_and_scene_breaks() -> None:
    text = "林砚推门而入。“你来了？”周伯问。\n\n＊＊＊\n\n夜深了，韩啸还在等。\n◇◇◇\n天亮了。"
    assert [s.text for s in split_sentences("他笑了。“走吧！”她说。")] == [
        "他笑了。",
        "“走吧！”",
        "她说。",
    ]
    parts = scene_parts(text)
    assert [p.strip() for _, p in parts] == [
        "林砚推门而入。“你来了？”周伯问。",
        "夜深了，韩啸还在等。",
        "天亮了。",
    ]
    assert all(text[at : at + len(part)] == part for at, part in parts)
    assert ending_passage("第一段。\n\n第二段。\n最后一段。", chars=9) == "第二段。\n最后一段。"


def test_an_import_gives_every_chapter_a_summary_ending_people_and_scenes(
    tmp_path: Path,
) -> None:
    novel = tmp_path / "novel.txt"
    scenes = "林砚推门而入，周伯正在打铁。周伯说：“你来了。”\n\n＊＊＊\n\n夜里韩啸来找林砚，两人商量去玄霄门拜师。"
    novel.write_text(
        f"第一回　灵根育孕源流出\n{xiyouji(1)}\n第二回　悟彻菩提真妙理\n{xiyouji(2)}\n第三章 夜谈\n{scenes}\n",
        encoding="utf-8",
    )
    cast = [
        {"id": "linyan", "name": "林砚", "aliases": [], "type": "角色"},
        {"id": "zhoubo", "name": "周伯", "aliases": [], "type": "角色"},
        {"id": "hanxiao", "name": "韩啸", "aliases": [], "type": "角色"},
    ]
    with webnovel.init_project(tmp_path / "book", title="西游记") as book:
        book.import_text(novel, cast=cast)
        first = book.stored_commit(1)["result"]
        assert first["chapter_meta"]["origin"] == "text_import"
        assert any(name in first["summary"] for name in MONKEY)
        passage = first["chapter_meta"]["ending"]["passage"]
        # the story's last words (a long paragraph's tail), not 正是：… 且听下回分解
        assert passage.removeprefix("…") in xiyouji(1)
        assert passage.endswith("自今就叫做孙悟空也！”") and "下回分解" not in passage
        third = book.stored_commit(3)["result"]
        assert [s["characters"] for s in third["scenes"]] == [
            ["linyan", "zhoubo"],
            ["hanxiao", "linyan"],
        ]
        pack = book.build_memory_pack(chapter=4)
        lines = [item.value for section in pack.sections for item in section.items]
        assert pack.used_tokens > 0
        assert third["summary"] in lines  # the latest summaries
        assert {"passage": ending_passage(scenes)} in lines  # the last ending
        in_play = {e["id"] for e in pack.to_dict()["entities_in_play"]}
        assert {"linyan", "hanxiao"} <= in_play  # the people recently in play


def test_summarize_fills_an_older_import_and_leaves_written_chapters_alone(
    tmp_path: Path,
) -> None:
    with webnovel.init_project(tmp_path / "book", title="西游记") as book:
        # as `import text` committed chapters before it summarized them
        book.commit({"chapter": 1, "title": "第一回", "word_count": 10}, text=xiyouji(1))
        book.commit({"chapter": 2, "summary": "作者写的摘要", "title": "第二回"}, text=xiyouji(2))
        root = book.root
    ran = run_cli("--project", str(root), "summarize", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {
        "chapters": 2,
        "summarized": 1,
        "unchanged": 0,
        "skipped": 1,
    }
    again = json.loads(run_cli("--project", str(root), "summarize", "--format", "json").stdout)
    assert again["summarized"] == 0 and again["unchanged"] == 1
    with webnovel.open_project(root) as book:
        assert any(name in book.chapters()[0]["summary"] for name in MONKEY)
        assert book.chapters()[1]["summary"] == "作者写的摘要"


def test_cooccurrence_as_of_a_chapter_is_marked_as_such(tmp_path: Path) -> None:
    chapters = tmp_path / "chapters"
    chapters.mkdir()
    (chapters / "1.txt").write_text("林砚和周伯在铁匠铺打铁。\n＊＊＊\n林砚独自练剑。", "utf-8")
    (chapters / "2.txt").write_text("韩啸来找林砚。", "utf-8")
    cast = [
        {"id": i, "name": n, "aliases": [], "type": "角色"}
        for i, n in (("linyan", "林砚"), ("zhoubo", "周伯"), ("hanxiao", "韩啸"))
    ]
    with webnovel.init_project(tmp_path / "book", title="t") as book:
        book.import_text(chapters, cast=cast)
        now = book.cooccurrence("林砚")
        assert [(t.name, t.chapters, t.scenes) for t in now] == [
            ("韩啸", 1, 0),
            ("周伯", 1, 1),
        ]
        assert {t.to_dict()["kind"] for t in now} == {"co-occurrence"}
        assert [t.name for t in book.cooccurrence("林砚", as_of=1)] == ["周伯"]
        assert book.relations("林砚") == []  # never a relation fact
    ran = run_cli("--project", str(tmp_path / "book"), "cooccurrence", "林砚", "--format", "text")
    assert ran.returncode == 0 and "同章" in ran.stdout and "韩啸" in ran.stdout
