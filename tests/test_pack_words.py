"""What a pack and `resume` say about the chapters before: no 「第0章之后」 for a book imported from
its first chapter; the last chapter's summary before where it ended; a 章回体 chapter's ending
quoted by its last real sentences, not 「欲知后事如何，且听下回分解」 (also for a book imported
before the importer left the formula off); an extractive summary that says a repeated sentence
once; a budget that leaves everything out says so."""

from __future__ import annotations

from pathlib import Path

import webnovel
from webnovel.book.coverage import coverage_line
from webnovel.ingest.text_summary import ending_passage, extractive_summary

FORMULA = "欲知后事如何，且听下回分解。"
# Three 回, each ending on the storyteller's formula; the last real sentence of each is marked.
NOVEL = "".join(
    f"第{n}回　陆青云夜闯藏经阁\n"
    f"　　陆青云在青石镇外练剑，一练便是整整一夜，直到东方发白。\n\n"
    f"　　白眉真人站在山门前，望着远处的云海，久久不语。\n\n"
    f"　　陆青云收剑入鞘，转身走进了第{n}座石屋。\n\n"
    f"　　{FORMULA}\n\n"
    for n in ("一", "二", "三")
)


def imported(tmp_path: Path) -> Path:
    path = tmp_path / "qingming.txt"
    path.write_text(NOVEL, encoding="utf-8")
    root = tmp_path / "book"
    with webnovel.init_project(root, title="青冥剑歌") as book:
        book.import_text(path)
    return root


def test_a_book_imported_from_chapter_one_names_no_chapter_zero() -> None:
    line = coverage_line([[1, 9], 11])
    assert line is not None and "第0章" not in line
    assert "从第1章起" in line
    later = coverage_line([[6, 12]])
    assert later is not None and "第5章之后的状态可能已过时" in later


def test_an_ending_is_the_story_s_last_words_not_the_formula() -> None:
    passage = ending_passage(NOVEL.split("第二回")[0])
    assert "下回分解" not in passage
    assert passage.endswith("转身走进了第一座石屋。")
    couplet = "他大笑而去。\n　　正是：\n　　眼前一笑皆知己，座上全无碍目人。\n　　毕竟性命如何，下回便见。"
    assert ending_passage(couplet) == "他大笑而去。"
    plain = "他大笑而去。\n　　张三道：“且听下回分解是什么话？”李四摇头不答，自顾自喝酒。"
    assert ending_passage(plain).endswith("自顾自喝酒。")


def test_the_pack_quotes_the_last_chapter_after_its_summary(tmp_path: Path) -> None:
    root = imported(tmp_path)
    with webnovel.open_project(root) as book:
        prompt = book.build_memory_pack(chapter=4, record=False).render("prompt")
    lines = prompt.splitlines()
    ending = next(i for i, line in enumerate(lines) if line.startswith("- 上章结尾（第3章）"))
    summary = next(i for i, line in enumerate(lines) if line.startswith("- 第3章"))
    assert summary < ending, prompt
    assert "下回分解" not in prompt
    quoted = "\n".join(lines[ending:])  # the passage keeps its paragraphs
    assert "原文：" in lines[ending] and "转身走进了第三座石屋。" in quoted, quoted


def test_a_book_that_stored_the_formula_as_its_ending_is_quoted_from_its_text(
    tmp_path: Path,
) -> None:
    """Imported before the importer left the formula off: the stored passage is the formula
    alone, so the pack takes the ending again from the chapter's text."""
    with webnovel.init_project(tmp_path / "book", title="青冥剑歌") as book:
        text = NOVEL.split("第二回")[0].split("\n", 1)[1]
        book.commit(
            {
                "chapter": 1,
                "summary": "陆青云练剑。",
                "chapter_meta": {"ending": {"passage": FORMULA}},
            },
            text=text,
        )
        prompt = book.build_memory_pack(chapter=2, record=False).render("prompt")
    assert "下回分解" not in prompt, prompt
    assert "- 上章结尾（第1章）：原文：" in prompt and "转身走进了第一座石屋。" in prompt


def test_an_extractive_summary_says_a_repeated_sentence_once() -> None:
    said = "韩啸天拔出九转金丹，剑光如水，逼得白眉真人连退三步。"
    text = "".join(
        [
            said,
            "陆青云在云梦泽与沈月华议事，江湖风声渐紧。",
            said,
            "苏小蛮月下传书给白眉真人。",
            said,
        ]
    )
    summary = extractive_summary(text)
    assert summary.count(said) == 1, summary


def test_a_budget_that_leaves_everything_out_says_so(tmp_path: Path) -> None:
    root = imported(tmp_path)
    with webnovel.open_project(root) as book:
        pack = book.build_memory_pack(chapter=4, budget_tokens=5, record=False)
    assert pack.dropped > 0 and not any(s.items for s in pack.sections)
    for fmt in ("prompt", "text"):
        assert f"预算 5 token 内放不下任何一条记忆：{pack.dropped} 条全部舍去" in pack.render(fmt)
    with webnovel.open_project(root) as book:
        roomy = book.build_memory_pack(chapter=4, record=False).render("prompt")
    assert "放不下任何一条记忆" not in roomy


def test_an_emptied_item_set_takes_no_pack_line(tmp_path: Path) -> None:
    """白眉真人 gave his only sword to 陆青云: 「白眉真人 物品：（无）」 is no state worth a line;
    who holds the sword is said."""
    people = [
        {"id": "master", "name": "白眉真人", "current": {"location": "青石镇"}},
        {"id": "hero", "name": "陆青云", "current": {"location": "青石镇"}},
    ]
    sword = {"id": "sword", "name": "青冥剑", "type": "物品"}
    moves = [
        {"entity_id": "master", "field": "items", "op": "remove", "new": "青冥剑"},
        {"entity_id": "hero", "field": "items", "op": "add", "new": "青冥剑"},
    ]
    with webnovel.init_project(tmp_path / "book", title="青冥剑歌") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [*people, sword],
                "state_changes": [
                    {"entity_id": "master", "field": "items", "op": "add", "new": "青冥剑"}
                ],
            }
        )
        book.commit(
            {
                "chapter": 2,
                "entities_appeared": [{"id": "master"}, {"id": "hero"}, {"id": "sword"}],
                "state_changes": moves,
            }
        )
        prompt = book.build_memory_pack(chapter=3, record=False).render("prompt")
    assert "陆青云 物品：青冥剑" in prompt, prompt
    assert "白眉真人 物品" not in prompt, prompt
