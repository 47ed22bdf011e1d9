"""Names as of a chapter (review 3, item 2): a rename from a later chapter on, or a true name
revealed later, must not leak into what is asked as of an earlier chapter. The sample book with
`rename 林砚 林默 --from 5` and `rename 白眉老道 白眉真人 --from 11`; 血衣堂主 (lichen) is
introduced in chapter 9 and revealed as 厉沉 in chapter 10. `fact`, `history`, `knows`, an
item's holder and the pack's lines and cast all name people as the chapter asked knew them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.packs.memory_pack import MemoryPack

from cli_runner import run_cli


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("names") / "book"
    with webnovel.init_project(root, title="青灯照剑") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
        book.rename_entity("林砚", "林默", from_chapter=5)
        book.rename_entity("白眉老道", "白眉真人", from_chapter=11)
    return root


def cli(root: Path, *args: str) -> Any:
    ran = run_cli("--project", str(root), *args, "--format", "json")
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def lines(pack: MemoryPack) -> list[str]:
    return [item.line for section in pack.sections for item in section.items]


def test_a_fact_and_its_history_bear_the_name_of_the_chapter_asked(renamed: Path) -> None:
    with webnovel.open_project(renamed) as book:
        before, after = book.fact("linyan", "realm", as_of=2), book.fact("linyan", "境界", 6)
        assert before is not None and before.subject_name == "林砚"
        assert after is not None and after.subject_name == "林默"
        assert {f.subject_name for f in book.facts("林默", as_of=4)} == {"林砚"}
        assert {f.subject_name for f in book.history("linyan", "realm", as_of=3)} == {"林砚"}
        assert {f.subject_name for f in book.history("linyan", "realm")} == {"林默"}
        # a name revealed later: chapter 9 knew lichen only as 血衣堂主
        assert {f.subject_name for f in book.facts("lichen", as_of=9)} == {"血衣堂主"}
        assert {f.subject_name for f in book.facts("lichen", as_of=10)} == {"厉沉"}
        assert {f.subject_name for f in book.history("厉沉", as_of=9)} == {"血衣堂主"}


def test_the_cli_answers_with_the_name_of_the_chapter_asked(renamed: Path) -> None:
    assert cli(renamed, "fact", "linyan", "realm", "--as-of", "2")["entity_name"] == "林砚"
    assert cli(renamed, "fact", "linyan", "realm", "--as-of", "6")["entity_name"] == "林默"
    every = cli(renamed, "fact", "lichen", "--as-of", "9")
    assert {f["entity_name"] for f in every["facts"]} == {"血衣堂主"}
    history = cli(renamed, "history", "林默", "境界", "--as-of", "4")
    assert [(h["entity_name"], h["value"]) for h in history] == [("林砚", "炼气")]
    assert {h["entity_name"] for h in cli(renamed, "history", "lichen", "--as-of", "9")} == {
        "血衣堂主"
    }
    # who holds an item: the holder as then named
    assert cli(renamed, "fact", "青灯", "--as-of", "4")["value"] == ["林砚"]
    assert cli(renamed, "fact", "青灯", "持有者", "--as-of", "4")["value"] == ["林砚"]


def test_what_someone_knows_names_them_and_whom_they_had_it_from_as_then(renamed: Path) -> None:
    with webnovel.open_project(renamed) as book:
        assert {k.entity_name for k in book.knows("lichen", as_of=9)} == {"血衣堂主"}
        assert {k.entity_name for k in book.knows("lichen", as_of=10)} == {"厉沉"}
        told = [k for k in book.knows("林砚", as_of=10) if k.secret_id == "lichen-identity"]
        assert [(k.entity_name, k.source_name) for k in told] == [("林默", "白眉老道")]
        now = [k for k in book.knows("林砚") if k.secret_id == "lichen-identity"]
        assert [(k.entity_name, k.source_name) for k in now] == [("林默", "白眉真人")]
    knows = cli(renamed, "knows", "lichen", "--as-of", "9")
    assert {k["entity_name"] for k in knows} == {"血衣堂主"}


def test_a_pack_for_an_earlier_chapter_uses_the_names_of_the_chapter_before(
    renamed: Path,
) -> None:
    with webnovel.open_project(renamed) as book:
        early = book.build_memory_pack("chapter_write", 3)
        text = "\n".join(lines(early))
        assert "林默" not in text, text
        assert "- 林砚 境界：炼气（第1章起）" in lines(early)
        assert {e["id"]: e["name"] for e in early.to_dict()["entities_in_play"]}["linyan"] == "林砚"
        late = book.build_memory_pack("chapter_write", 6)
        assert "- 林默 境界：筑基（第5章起）" in lines(late)
        # written for chapter 10, the pack knows lichen as chapter 9 did
        reveal = book.build_memory_pack("chapter_write", 10, outline="林默与血衣堂主对峙")
        shown = lines(reveal)
        assert "- 血衣堂主 阵营：血衣堂（第9章起）" in shown, shown
        assert not [line for line in shown if line.startswith("- 厉沉")], shown
        cast = {e["id"]: e["name"] for e in reveal.to_dict()["entities_in_play"]}
        assert cast["lichen"] == "血衣堂主"
        prompt = reveal.render("prompt")
        assert "- 林默 → 血衣堂主：仇敌（第9章起）" in prompt
    ran = run_cli("--project", str(renamed), "pack", "--chapter", "3", "--format", "prompt")
    assert ran.returncode == 0 and "林默" not in ran.stdout and "林砚 境界：炼气" in ran.stdout


@pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="no [mcp] extra")
def test_an_agent_over_mcp_is_given_the_name_of_the_chapter_it_asks_about(renamed: Path) -> None:
    from test_mcp import run_session, structured

    async def ask(client: Any) -> Any:
        fact = await client.call_tool("get_fact", {"subject": "林默", "field": "realm", "as_of": 2})
        knows = await client.call_tool("knows", {"subject": "血衣堂主", "as_of": 9})
        return structured(fact), structured(knows)

    fact, knows = run_session(renamed, ask)
    assert (fact["entity_name"], fact["value"]) == ("林砚", "炼气")
    assert {k["entity_name"] for k in knows} == {"血衣堂主"}


@pytest.fixture(scope="module")
def shared_alias(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """林砚 (the protagonist) and 王小林 both go by 小林; both are renamed from chapter 5."""
    root = tmp_path_factory.mktemp("shared") / "book"
    with webnovel.init_project(root, title="t") as book:
        book.commit(
            {
                "chapter": 1,
                "title": "一",
                "summary": "林砚与王小林相识。",
                "entities_new": [
                    {
                        "id": "lin",
                        "name": "林砚",
                        "type": "角色",
                        "aliases": ["小林"],
                        "is_protagonist": True,
                        "tier": "protagonist",
                    },
                    {"id": "wang", "name": "王小林", "type": "角色", "aliases": ["小林"]},
                ],
                "entities_appeared": [{"id": "lin"}, {"id": "wang"}],
                "state_changes": [{"entity_id": "lin", "field": "realm", "new": "炼气"}],
            },
            text="林砚与王小林相识。",
        )
        for n in range(2, 7):
            summary = f"第{n}章林砚修炼。"
            book.commit(
                {
                    "chapter": n,
                    "title": str(n),
                    "summary": summary,
                    "entities_appeared": [{"id": "lin"}],
                },
                text=summary,
            )
        book.rename_entity("林砚", "林默", from_chapter=5)
        book.rename_entity("王小林", "王晓林", from_chapter=5)
    return root


def test_an_ambiguous_mention_brought_in_again_keeps_the_name_of_the_chapter(
    shared_alias: Path,
) -> None:
    """小林 names both; the protagonist, or a draft's reference, then brings the same entity in
    again, more relevant: it still goes by the name chapter 3 knew it by."""
    with webnovel.open_project(shared_alias) as book:
        for draft in (None, {"chapter": 4, "title": "四", "entities_appeared": [{"id": "wang"}]}):
            pack = book.build_memory_pack(
                chapter=4, outline="小林在山门练剑。", draft=draft, record=False
            )
            shown = pack.to_dict()
            cast = {e["id"]: (e["name"], e["why"]) for e in shown["entities_in_play"]}
            assert cast["lin"] == ("林砚", "protagonist"), cast
            assert cast["wang"][0] == "王小林", cast
            assert cast["wang"][1] == (
                "touched by the draft" if draft else "named in outline as 小林"
            )
            text = json.dumps(shown, ensure_ascii=False)
            assert "林默" not in text and "王晓林" not in text, text
