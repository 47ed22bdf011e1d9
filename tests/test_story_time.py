"""Story time on a hand-written book of six chapters over three years (tests/story_time_book.py):
the clock as of each chapter, asked from Python, the CLI and MCP; events in story order with the
flashback in its place; deadlines counted in story time; ages that grow with the clock."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webnovel
from story_time_book import CHAPTERS

from cli_runner import run_cli


@pytest.fixture(scope="module")
def book_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("story-time") / "book"
    with webnovel.init_project(root, title="青石三年") as book:
        for chapter in CHAPTERS:
            book.commit(chapter)
    return root


@pytest.fixture()
def book(book_root: Path) -> Iterator[webnovel.Project]:
    with webnovel.open_project(book_root) as opened:
        yield opened


def test_the_clock_counts_relative_times_from_the_scene_before(book: webnovel.Project) -> None:
    days = {n: (c.day, c.part, c.chapter, c.scene) for n in range(1, 7) for c in [book.clock(n)]}
    assert days == {
        1: (1, "黄昏", 1, 2),  # 清晨, 黄昏, and the ending at 黄昏
        2: (2, "夜", 2, 2),  # 次日清晨, 当夜
        3: (5, None, 3, 2),  # the flashback moves nothing; 三日后
        4: (60, None, 4, 2),  # 四十日后, 半月后
        5: (420, None, 5, 1),  # 翌年开春: a year of 360 days
        6: (1140, "黄昏", 6, 1),  # 两年后, ending at 黄昏
    }
    four = book.clock(4)
    assert (four.days_since_start, four.days_since_previous_chapter) == (59, 55)
    assert book.clock(0).to_dict()["day"] == 1 and book.clock(0).chapter is None


def test_the_clock_on_the_cli_and_over_mcp(book_root: Path) -> None:
    ran = run_cli("--project", str(book_root), "clock", "--as-of", "4", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    shown = json.loads(ran.stdout)
    assert {k: shown[k] for k in ("day", "part", "chapter", "scene")} == {
        "day": 60,
        "part": None,
        "chapter": 4,
        "scene": 2,
    }
    assert shown["since"] == {"start": 59, "previous_chapter": 55}
    text = run_cli("--project", str(book_root), "clock", "--as-of", "4", "--format", "text").stdout
    assert "故事时间：第60天（第4章第2场）" in text
    assert "距开篇 59 天；距上一章结束 55 天" in text
    if importlib.util.find_spec("mcp") is None:
        return
    from test_mcp import run_session, structured

    async def ask(client: Any) -> Any:
        clock = structured(await client.call_tool("get_clock", {"as_of": 4}))
        story = structured(await client.call_tool("get_timeline", {"story": True, "as_of": 4}))
        return clock, story

    clock, story = run_session(book_root, ask)
    assert clock == shown
    assert [(e["event"], e["day"], e["flashback"]) for e in story][:2] == [
        ("林家大火，周伯抱出林砚", 2 - 3600, "flashback"),
        ("周伯身死", 2, None),
    ]


def test_a_flashback_with_a_dead_man_falls_in_the_past_and_moves_no_clock(
    book: webnovel.Project,
) -> None:
    """周伯 dies on day 2; ten years before, he carried 林砚 out of the fire (chapter 3's
    flashback). The story timeline tells the fire first, the death second; the clock after the
    flashback counts 三日后 from the present, not from the memory."""
    events = [(e.event, e.day, e.part, e.to_dict()["flashback"]) for e in book.timeline(story=True)]
    assert events == [
        ("林家大火，周伯抱出林砚", 2 - 3600, None, "flashback"),
        ("周伯身死", 2, "夜", None),
        ("林砚拜入青云宗", 5, None, None),
        ("韩啸出关", 60, None, None),
    ]
    assert [e.event for e in book.timeline()][0] == "周伯身死"  # the order told
    assert "day" not in book.timeline()[0].to_dict()  # the plain timeline is as it was
    text = run_cli("--project", str(book.root), "timeline", "--story", "--format", "text").stdout
    assert text.index("开篇前3599天〔回忆〕·第3章") < text.index("第2天夜·第2章")


def test_a_deadline_in_story_time_is_counted_from_its_planting(book: webnovel.Project) -> None:
    [seclusion] = [d for d in book.clock(3).deadlines if d.thread_id == "hanxiao-seclusion"]
    assert (seclusion.due_day, seclusion.days_left, seclusion.overdue) == (50, 45, False)
    crossed = {d.thread_id: d for d in book.clock(4).deadlines}
    assert crossed["hanxiao-seclusion"].overdue and crossed["hanxiao-seclusion"].days_left == -10
    pact = crossed["three-year-pact"]  # planted on day 2: 三年 of 360 days
    assert (pact.due_day, pact.overdue) == (1082, False)
    # paid off in chapter 6: no longer a deadline; the 49 days stay passed without payoff
    assert [d.thread_id for d in book.clock(6).deadlines] == ["hanxiao-seclusion"]
    text = run_cli("--project", str(book.root), "clock", "--as-of", "4", "--format", "text").stdout
    assert "「韩啸出关」已过期 10 天（第50天到期，四十九日后），尚未兑现" in text
    assert "距「三年之约」还有 1022 天（第1082天到期）" in text
    # overdue in story time, with no due chapter: listed as overdue as of chapter 4, not 3
    assert [t.id for t in book.threads("overdue", as_of=4)] == ["hanxiao-seclusion"]
    assert not book.threads("逾期", as_of=3)
    [late] = [t for t in book.threads("open", as_of=4) if t.id == "hanxiao-seclusion"]
    assert late.overdue and late.due_chapter is None
    [thread] = [t for t in book.threads("all", as_of=2) if t.id == "three-year-pact"]
    assert thread.due_time == "三年后"
    listed = run_cli("--project", str(book.root), "threads", "--as-of", "2", "--format", "text")
    assert "故事内期限「三年后」" in listed.stdout


# -- review and commit judge story time by one rule set -----------------------------------------

SEVENTH = {
    "chapter": 7,
    "summary": "清晨林砚在青石镇；同一时刻他又在黑风谷；三日前苏晚晴在后山。",
    "scenes": [
        {"index": 1, "time": "清晨", "location": "青石镇", "characters": ["linyan"]},
        {
            "index": 2,
            "time": "同一时刻",
            "location": "黑风谷",
            "characters": ["linyan", "hanxiao"],
        },
        {"index": 3, "time": "三日前", "location": "后山", "characters": ["suwanqing"]},
    ],
}


def test_review_flags_a_backwards_scene_two_places_at_once_and_the_unstated_night(
    book: webnovel.Project,
) -> None:
    review = book.review(SEVENTH)
    found = {i.category: i for i in review.issues}
    twice = found["two_places_at_once"]
    assert (twice.severity, twice.blocking, twice.entity_id) == ("high", True, "linyan")
    assert twice.message.startswith("林砚 在同一时刻既在「青石镇」（第7章第1场）又在「黑风谷」")
    backwards = found["time_backwards"]
    assert backwards.severity == "medium" and "第7章第3场的时间「三日前」" in backwards.message
    night = found["unstated_night"]  # chapter 6 ended at 黄昏; chapter 7 opens at 清晨
    assert night.severity == "low" and "应写「次日清晨」" in night.message
    assert "次日" in night.fix_hint
    assert book.latest_chapter() == 6  # review wrote nothing
    # the same draft marked as it should be: a flashback, 次日清晨, one place
    fixed = json.loads(json.dumps(SEVENTH))
    fixed["scenes"][0]["time"] = "次日清晨"
    fixed["scenes"][1]["location"] = "青石镇"
    fixed["scenes"][2]["flashback"] = True
    assert not [i for i in book.review(fixed).issues if i.category in found]


def test_commit_records_two_places_at_once_and_warns_of_the_rest(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="青石三年") as book:
        reports = [book.commit(chapter) for chapter in CHAPTERS]
        # chapter 4 crosses day 50 without 韩啸出关 paid off
        assert reports[3].warnings == (
            "「韩啸出关」（四十九日后）应在第50天兑现，本章已到第60天，仍未兑现",
        )
        unread = dict(SEVENTH, scenes=[*SEVENTH["scenes"], {"index": 4, "time": "天晓得何时"}])
        report = book.commit(unread)
        assert [(c.kind, c.entity_id) for c in report.conflicts] == [
            ("two_places_at_once", "linyan")
        ]
        assert "第7章第4场的时间「天晓得何时」读不出，故事时钟按原日计" in report.warnings
        assert any("应写「次日清晨」" in w for w in report.warnings)
        assert book.clock().to_dict()["unread"] == [
            {"chapter": 7, "scene": 4, "time": "天晓得何时"}
        ]
        assert book.clock(6).unread == ()
        assert [c.kind for c in book.conflicts(as_of=7) if c.chapter == 7] == ["two_places_at_once"]
        book.retract(7)  # the chapter's finding goes with it
        assert not [c for c in book.conflicts() if c.chapter == 7]


# -- ages and the pack ---------------------------------------------------------------------------


def test_an_age_grows_with_the_story_clock(book: webnovel.Project) -> None:
    said = book.fact("林砚", "年龄", as_of=6)
    assert said is not None and said.value == "十六岁"  # what was written stays as written
    assert book.aged(said, as_of=4) is None  # day 60: not a year yet
    assert book.aged(said, as_of=5) == "十七岁"  # day 420
    assert book.aged(said, as_of=6) == "十九岁"  # day 1140: three story years on
    shown = json.loads(
        run_cli("--project", str(book.root), "fact", "林砚", "年龄", "--as-of", "6").stdout
    )
    assert (shown["value"], shown["value_now"]) == ("十六岁", "十九岁")
    text = run_cli(
        "--project", str(book.root), "fact", "林砚", "age", "--as-of", "6", "--format", "text"
    ).stdout
    assert "林砚的年龄：十六岁（按故事时间，如今十九岁）" in text


def test_a_character_track_says_where_on_which_day(book: webnovel.Project) -> None:
    track = [(s.day, s.location, s.mode) for s in book.track("林砚", as_of=4)]
    assert track == [
        (1, "青石镇", None),
        (1, "后山", None),
        (2, "青石镇", None),
        (2, "青石镇", None),
        (2 - 3600, "林家旧宅", "flashback"),
        (5, "青云宗", None),
        (45, "青云宗", None),
        (60, "黑风谷", None),
    ]
    assert [s.day for s in book.track("周伯")] == [1, 2, 2 - 3600]


def _lines(pack: Any, section: str) -> list[str]:
    [found] = [s for s in pack.sections if s.name == section]
    return [i.line for i in found.items]


def test_the_pack_opens_its_recent_context_with_the_clock(book: webnovel.Project) -> None:
    pack = book.build_memory_pack("chapter_write", 5, outline="林砚与苏晚晴重逢")
    recent = _lines(pack, "working_memory")
    assert recent[0].startswith("- 本章大纲")  # the outline, then the clock
    assert recent[1] == "- 故事时间：第60天（第4章第2场）；距开篇 59 天；距上一章结束 55 天"
    assert "- 距「三年之约」还有 1022 天（第1082天到期）" in recent
    must = _lines(pack, "must_know")
    assert "- 「韩啸出关」已过期 10 天（第50天到期，四十九日后），尚未兑现" in must
    later = book.build_memory_pack("chapter_write", 7, outline="林砚与苏晚晴重逢")
    assert "- 林砚 年龄：十九岁（按故事时间；原记十六岁）（第1章起）" in _lines(
        later, "character_state"
    )
    assert _lines(later, "working_memory")[1].startswith("- 故事时间：第1140天黄昏（第6章第1场）")


def test_a_book_that_says_no_time_has_no_clock_in_its_pack(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="无时") as book:
        book.commit({"chapter": 1, "entities_new": CHAPTERS[0]["entities_new"]})
        pack = book.build_memory_pack("chapter_write", 2, outline="林砚")
        assert not [line for line in _lines(pack, "working_memory") if "故事时间" in line]
        assert book.clock().chapter is None and book.clock().day == 1


# -- extraction and import ask for times ---------------------------------------------------------


def test_an_imported_text_without_a_model_gives_its_scenes_their_opening_times(
    tmp_path: Path,
) -> None:
    novel = tmp_path / "book.txt"
    novel.write_text(
        "第一章 青石镇\n林砚在镇上习字。\n\n黄昏，林砚上了后山。\n\n"
        "第二章 出镇\n次日清晨，林砚辞别周伯。\n\n三日后，他到了青云宗。\n\n"
        "是夜，山风大作。\n林砚说：次日再来。\n",
        encoding="utf-8",
    )
    with webnovel.init_project(tmp_path / "book", title="青石") as book:
        book.import_text(novel)
        two = book.chapter(2)
        assert [(s.index, s.time) for s in two.scenes] == [
            (1, "次日清晨"),
            (2, "三日后"),
            (3, "是夜"),
        ]
        assert [(s.index, s.time) for s in book.chapter(1).scenes] == [(1, None), (2, "黄昏")]
        clock = book.clock()
        assert (clock.day, clock.part, clock.chapter, clock.scene) == (5, "夜", 2, 3)


def test_a_deadline_is_read_in_chinese_words_too(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="期限") as book:
        book.commit(
            {
                "chapter": 1,
                "scenes": [{"index": 1, "时间": "清晨"}],
                "plot_threads": [{"id": "seclusion", "content": "闭关", "期限": "七日后"}],
            }
        )
        [deadline] = book.clock().deadlines
        assert (deadline.due_time, deadline.due_day, deadline.days_left) == ("七日后", 8, 7)


def test_extraction_asks_the_model_for_scene_times_and_deadlines() -> None:
    from webnovel.book.values import chapter_result_schema
    from webnovel.extraction.prompt import system_prompt

    prompt = system_prompt()
    assert "time 用原文的时间说法" in prompt and "flashback" in prompt
    assert "due_time" in prompt and "四十九日后" in prompt
    thread = chapter_result_schema()["properties"]["plot_threads"]["items"]["properties"]
    assert thread["due_time"] == {"type": "string"}


# -- revisions, retractions and the book's calendar ---------------------------------------------


def test_a_revision_or_a_retraction_moves_the_days_after_it(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="青石三年") as book:
        for chapter in CHAPTERS:
            book.commit(chapter)
        revised = json.loads(json.dumps(CHAPTERS[3]))
        revised["scenes"][0]["time"] = "五十日后"  # chapter 4 now lasts ten days longer
        book.commit(revised)
        assert [book.clock(n).day for n in (3, 4, 5, 6)] == [5, 70, 430, 1150]
        book.retract(5)  # no 翌年开春: chapter 6's 两年后 counts from day 70
        assert [book.clock(n).day for n in (4, 5, 6)] == [70, 70, 790]
        night = json.loads(json.dumps(CHAPTERS[2]))
        night["chapter_meta"] = {"ending": {"time": "夜"}}  # chapter 3 now ends at night
        book.commit(night)
        assert (book.clock(3).day, book.clock(3).part) == (5, "夜")
        assert [book.clock(n).day for n in (4, 6)] == [70, 790]
        before = {n: book.clock(n).to_dict() for n in range(1, 7)}
        book.rebuild()
        assert {n: book.clock(n).to_dict() for n in range(1, 7)} == before


def test_a_book_counts_in_its_own_calendar_after_a_rebuild(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="青石三年") as book:
        for chapter in CHAPTERS:
            book.commit(chapter)
        assert book.clock(5).day == 420
    config = tmp_path / "book" / ".webnovel" / "config.toml"
    written = config.read_text(encoding="utf-8")  # init writes [calendar] with 年 commented out
    config.write_text(written.replace('# "年" = 365', '"年" = 365'), encoding="utf-8")
    with webnovel.open_project(tmp_path / "book") as book:
        book.rebuild()  # the clock's rows were counted in the old calendar
        assert [book.clock(n).day for n in (5, 6)] == [425, 1155]
        [pact] = [d for d in book.clock(4).deadlines if d.thread_id == "three-year-pact"]
        assert pact.due_day == 2 + 3 * 365


def test_a_retracted_last_chapter_leaves_the_clock_where_the_chapter_before_ended(
    tmp_path: Path,
) -> None:
    """The clock now is the clock as the last standing chapter ended: a retracted chapter leaves
    no row of its own (as a rebuild would not), in Python and on the CLI."""
    from webnovel.ingest.sample_book import sample_chapters
    from webnovel.memory.clock.shown import clock_since

    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
        last = book.clock().to_dict()
        assert clock_since(book.clock()).startswith("距开篇 69～279 天")  # 第70～280天, a span
        book.commit({"chapter": 13, "summary": "林砚闭关。"})
        book.retract(13)
        assert book.clock().to_dict() == last
        book.rebuild()
        assert book.clock().to_dict() == last
    said = run_cli("--project", str(tmp_path / "book"), "clock", "--format", "text")
    assert "第13章" not in said.stdout and "第12章" in said.stdout, said.stdout


def test_the_clock_is_read_in_the_readers_language(
    book_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every part of day the clock knows has its words in the catalogue; an English reader is
    told the day and its part in English."""
    from webnovel.memory.clock.expressions import PART_NAMES
    from webnovel.memory.clock.shown import PART_KEYS, when_words

    assert set(PART_KEYS) == set(PART_NAMES)
    assert when_words(60, None, "黄昏") == "第60天黄昏"
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert when_words(70, 280, "夜") == "days 70 to 280, night"
    said = run_cli("--project", str(book_root), "clock", "--as-of", "6", "--format", "text")
    assert said.stdout.startswith("story time: day 1140, dusk (chapter 6"), said.stdout
