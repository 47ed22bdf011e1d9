"""The vocabulary's words (memory/vocabulary.py, worded in messages/vocabwords.py): each
enumerated value's label is said from the catalogue when it is shown, so WEBNOVEL_LANG=en
reaches the CLI's tables, packs and conflict lists; the words an author types mean the same
value whatever the language; JSON keeps the canonical values."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from webnovel.book import words as shown
from webnovel.ingest.sample_book import sample_book_dir
from webnovel.memory import vocabulary
from webnovel.messages import MESSAGES

from cli_runner import run_cli

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")


def _tables() -> Iterator[tuple[str, vocabulary.Labels]]:
    for name, value in vars(vocabulary).items():
        if isinstance(value, vocabulary.Labels):
            yield name, value
        elif isinstance(value, vocabulary.Terms):
            yield name, value.labels


def test_every_value_has_its_words_in_both_languages() -> None:
    """Each enumeration's values, and its name, have a catalogue entry, Chinese and English."""
    for name, labels in _tables():
        for value in labels:
            term = labels._terms[value]
            chinese, english = MESSAGES[term.key]
            assert HAN.search(chinese) and not HAN.search(english), (name, value)
    for terms in vocabulary.ENUMS.values():
        assert f"vocab:{terms.kind}" in MESSAGES


def test_a_label_is_said_when_read_and_a_word_typed_in_either_language_is_understood(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tables are made at import; each access says its label in the language of now. Intake
    and the questions take a value, its label in either language or a synonym, whatever
    WEBNOVEL_LANG says."""
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert shown.FIELD["spirit_root"] == "灵根" and shown.SEVERITY["high"] == "严重"
    assert shown.label(shown.THREAD_STATUS, "open") == "未回收"
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert shown.FIELD["spirit_root"] == "spirit root" and shown.SEVERITY["high"] == "high"
    assert shown.label(shown.THREAD_STATUS, "open") == "open"
    assert shown.label(shown.ENTITY_TYPE, "角色") == "character"
    assert shown.TASK.get("chapter_write") == "writing"
    assert shown.label(shown.CONFLICT_KIND, "not_a_kind") == "not_a_kind"  # shown as written
    assert vocabulary.THREAD_KINDS.name == "thread kind"
    for language in ("zh", "en"):
        monkeypatch.setenv("WEBNOVEL_LANG", language)
        assert vocabulary.FIELDS.find("境界") == "realm"
        assert vocabulary.FIELDS.find("spirit root") == "spirit_root"
        assert vocabulary.THREAD_FILTER_WORDS.find("逾期") == "overdue"
        assert (
            vocabulary.ENTITY_TYPES.find("人物")
            == vocabulary.ENTITY_TYPES.find("character")
            == "角色"
        )
        assert vocabulary.THREAD_ACTIONS.find("回收") == vocabulary.THREAD_ACTIONS.find("pay off")
        assert vocabulary.SET_OPS.find("set to") == "set"  # the English label, as a reader sees it


def test_a_book_s_own_field_name_is_shown_as_the_book_wrote_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A field a book declares (config.toml [fields]) keeps its own label in any language; a
    built-in field the book renames answers to our words for it too."""
    fields = vocabulary.field_terms({"power": ("战力", "武力"), "realm": ("阶位",)})
    for language in ("zh", "en"):
        monkeypatch.setenv("WEBNOVEL_LANG", language)
        assert fields.label("power") == "战力" and fields.label("realm") == "阶位"
        assert fields.find("武力") == "power"
        assert fields.find("境界") == fields.find("realm") == "realm"
    assert fields.label("location") == "location"  # en: ours, said in the reader's language


def test_a_choice_is_described_in_the_reader_s_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert vocabulary.SCENE_MODES.described() == "flashback（回忆）、dream（梦境）"
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert vocabulary.SCENE_MODES.described() == "flashback, dream"
    assert vocabulary.THREAD_ACTIONS.described().endswith("resolve (pay off), abandon")


# -- met on the demo book, as an English-reading engineer meets it -----------------------------


CHAPTER_13 = {
    "chapter": 13,
    "title": "断刀",
    "summary": "林砚与苏晚晴夜探分舵。",
    "state_changes": [
        {"entity_id": "linyan", "field": "items", "op": "remove", "new": "玉佩"},
        {"entity_id": "linyan", "field": "location", "new": "血衣堂赤炎分舵"},
    ],
}


@pytest.fixture(scope="module")
def demo_with_a_conflict(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo book, and a chapter 13 whose 林砚 gives up a 玉佩 he never held: a conflict."""
    folder = tmp_path_factory.mktemp("english")
    assert run_cli("demo", str(folder / "demo-book"), "--format", "json").returncode == 0
    path = folder / "13.json"
    path.write_text(json.dumps(CHAPTER_13, ensure_ascii=False), "utf-8")
    committed = run_cli("--project", str(folder / "demo-book"), "commit", str(path))
    assert committed.returncode == 0, committed
    return folder / "demo-book"


def _book_s_own_text() -> str:
    """Everything the sample book wrote (chapters, results, outlines, drafts): its names,
    values, summaries and quotes may be shown in any language, as written."""
    folder = sample_book_dir()
    return "\n".join(p.read_text("utf-8") for p in sorted(folder.rglob("*")) if p.is_file())


# keys whose values the book writes in the vocabulary's words (角色, 伏笔, 回忆, 境界, 添加)
ENUMERATED = {"type", "tier", "kind", "action", "op", "role", "field", "flashback", "certainty"}


def _values(node: object, key: str = "") -> Iterator[str]:
    if isinstance(node, dict):
        relation = "from" in node or "to" in node  # its `type` is the book's word: 敌对, 师徒
        for k, v in node.items():
            yield from _values(v, "relation_type" if relation and k == "type" else k)
    elif isinstance(node, list):
        for item in node:
            yield from _values(item, key)
    elif isinstance(node, str) and key not in ENUMERATED:
        yield node


def _chinese_words() -> set[str]:
    """The catalogue's Chinese said as a word of its own (已提交, 当前, 角色, 本章须知): a run of
    Han characters that is one of these is the engine's word, unless the book wrote it as a
    value of its own (a rule's domain 功法, which is also a field's name)."""
    folder = sample_book_dir() / "results"
    values = {v for p in folder.glob("*.json") for v in _values(json.loads(p.read_text("utf-8")))}
    return {zh for zh, _ in MESSAGES.values() if HAN.fullmatch(zh)} - values


@pytest.mark.parametrize(
    "command",
    [
        "threads --status all",
        "conflicts",
        "entities",
        "history 林砚",
        "knows 厉沉",
        "chapter 9",
        "resume",
        "pack --chapter 14 --format text",
        "pack --chapter 14 --format prompt",
    ],
)
def test_english_text_output_has_no_chinese_but_the_book_s_own(
    demo_with_a_conflict: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Under WEBNOVEL_LANG=en every run of Chinese in a command's text is the book's own
    (a name, a value, a summary, a quote), and none is a word of the engine's."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    book = ("--project", str(demo_with_a_conflict))
    ran = run_cli(*book, *command.split(), "--format", "text")
    assert ran.returncode == 0, ran
    own, engine = _book_s_own_text() + json.dumps(CHAPTER_13, ensure_ascii=False), _chinese_words()
    runs = set(HAN.findall(ran.stdout))
    assert runs, ran.stdout  # the book's names are there
    assert {run for run in runs if run in engine} == set(), ran.stdout
    assert {run for run in runs if run not in own} == set(), ran.stdout


def test_json_keeps_the_canonical_values_in_english_too(
    demo_with_a_conflict: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    book = ("--project", str(demo_with_a_conflict))
    conflicts = json.loads(run_cli(*book, "conflicts", "--format", "json").stdout)
    assert [(c["kind"], c["field"]) for c in conflicts] == [("set_remove_missing", "items")]
    entities = json.loads(run_cli(*book, "entities", "--format", "json").stdout)
    assert {e["type"] for e in entities} == {"角色", "势力"}
    threads = json.loads(run_cli(*book, "threads", "--format", "json").stdout)
    assert {t["kind"] for t in threads} >= {"foreshadowing", "subplot"}
    text = run_cli(*book, "conflicts", "--format", "text").stdout
    assert "removing what is not there" in text and "memory's items has no such entry" in text
    assert (
        "(now: 断剑, 旧地图, 玄铁剑, 青灯, 青灯剑诀)" in text
    )  # committed in Chinese, read in English


# -- a pack's reasons (memory/packs/reasons.py), worded in messages/pack.py -------------------


def test_every_pack_reason_is_worded_with_the_arguments_it_takes() -> None:
    """Each reason code has its `why_<code>` in both languages, naming exactly the arguments
    the code takes, so a reason is said in full in either language."""
    from string import Formatter

    from webnovel.memory.packs.reasons import REASONS

    for code, (english_why, names) in REASONS.items():
        for template in MESSAGES[f"why_{code}"]:
            named = {field for _, field, _, _ in Formatter().parse(template) if field}
            assert named == set(names), code
        assert len({f for _, f, _, _ in Formatter().parse(english_why) if f}) == len(names), code


def test_a_reason_is_said_in_the_reader_s_language_and_why_stays_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from webnovel.memory.packs.reasons import because

    reason = because("of_entity", "林砚", because("open_conflict", "high"))
    passage = because("passage", "scene_slice", 3)
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert reason.shown() == "林砚：未解决的矛盾（严重）" and passage.shown() == "第3章的正文片段"
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert reason.shown() == "林砚: an open conflict (high)"
    assert passage.shown() == "the passage of chapter 3"
    assert str(reason) == "林砚: an open high conflict"  # the contract's `why`, in any language
    with pytest.raises(TypeError, match="named"):
        because("named")  # where it was written, not when a pack is shown


def test_a_refused_choice_names_the_choices_in_the_reader_s_words(
    demo_with_a_conflict: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = ("--project", str(demo_with_a_conflict))
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    chinese = run_cli(*book, "threads", "--status", "zzz").stderr
    assert "open（未回收）、resolved（已回收）、abandoned（已放弃）" in chinese, chinese
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    english = run_cli(*book, "threads", "--status", "zzz").stderr
    assert "should be one of open, resolved, abandoned, overdue, all, got zzz" in english


def test_a_kept_label_survives_a_copy_and_a_pickle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A label kept as its key (a conflict's field, a listed value's joins) is a `Said`, a str
    remade by copy and pickle: a record's `to_dict` deep-copies it, a pickle says it again."""
    import copy
    import pickle

    from webnovel.memory.chains import fmt

    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    kept = [vocabulary.FIELDS.said("items"), fmt(None), fmt(["断剑", "青灯"])]
    assert kept == ["物品", "（无）", "断剑、青灯"]
    assert copy.deepcopy(kept) == kept and copy.copy(kept[0]) == "物品"
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert pickle.loads(pickle.dumps(kept)) == ["items", "(none)", "断剑, 青灯"]


def test_an_english_reader_is_told_and_may_type_the_english_words(
    demo_with_a_conflict: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The help names an entity's types in the reader's language, and those words are taken."""
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    helped = run_cli("entities", "--help").stdout
    assert "e.g. character, faction, place or item" in " ".join(helped.split())
    book = ("--project", str(demo_with_a_conflict))
    factions = run_cli(*book, "entities", "--type", "faction", "--format", "text").stdout
    assert [line.split()[:2] for line in factions.splitlines()[1:]] == [
        ["玄霄门", "faction"],
        ["血衣堂", "faction"],
    ]


def test_how_a_secret_was_learnt_is_said_again_and_an_older_book_s_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from webnovel.memory.chains import KnowledgePayload, how_learnt
    from webnovel.memory.said import Said, stored

    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    said = Said("pack_learnt_there", chapter=3)
    kept: KnowledgePayload = {"how": said, "how_said": stored(said, {}) or {}}
    older: KnowledgePayload = {"how": "埋设时即知情"}  # before `how_said`: shown as written
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert how_learnt(kept) == "told it in chapter 3, being there"
    assert how_learnt(older) == "埋设时即知情"
    assert how_learnt({"how": "偷听所得"}) == "偷听所得"  # the chapter result's own words


def test_a_story_day_and_its_part_read_alike_in_the_pack_and_the_timeline(
    demo_with_a_conflict: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock's day and its part, said as the pack's clock says them (`when_words`):
    第1天子时, day 1, midnight; the timeline used to put them together, day 1子时."""
    book = ("--project", str(demo_with_a_conflict), "pack", "--chapter", "14", "--format", "text")
    timeline = ("--project", str(demo_with_a_conflict), "timeline", "--story", "--format", "text")
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert "- 故事时间：第70～280天夜（第13章" in run_cli(*book).stdout
    assert run_cli(*timeline).stdout.splitlines()[1].startswith("第1天子时·第2章")
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert "- story time: days 70 to 280, night (chapter 13" in run_cli(*book).stdout
    assert run_cli(*timeline).stdout.splitlines()[1].startswith("day 1, midnight  (chapter 2)")
