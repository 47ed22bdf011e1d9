"""A name the import finds in a chapter is a mention, not an appearance: a dead master
remembered in prose (「想起师父白眉真人生前常说的话」) is no 死者行动 in every later chapter
(the trial's 2,000-chapter book had 1,913 of them after one death). An agent's appearance
still counts, and the mention still counts for who shares chapters with whom."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel

from cli_runner import run_cli

# The trial's small book: the master dies in chapter 2, is remembered in 3, and in 4 the
# text opens a scene with a time (次日清晨，…), so the import writes scenes with their people.
NOVEL = """第一章 拜师

陆青云拜白眉真人为师，白眉真人传他剑法。

第二章 师死

白眉真人为护陆青云，死于断魂崖。

第三章 追忆

陆青云独坐崖边，想起师父白眉真人生前常说的话，不禁泪下。

第四章 下山

陆青云收拾行囊。

次日清晨，陆青云下山，一路上想着白眉真人的叮嘱。
"""
CAST = "id,name,aliases,type\nlu,陆青云,,角色\nbm,白眉真人,,角色\n"
DEATH = {
    "chapter": 2,
    "title": "师死",
    "summary": "白眉真人为护陆青云，死于断魂崖。",
    "entities_appeared": [{"id": "bm"}, {"id": "lu"}],
    "state_changes": [{"entity_id": "bm", "field": "status", "new": "死亡"}],
}


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """Four imported chapters, the master's death committed as chapter 2's result."""
    root = tmp_path / "book"
    webnovel.init_project(root, title="青冥剑歌").close()
    (tmp_path / "n.txt").write_text(NOVEL, encoding="utf-8")
    (tmp_path / "cast.csv").write_text(CAST, encoding="utf-8")
    ran = run_cli(
        "--project", str(root), "import", "text", str(tmp_path / "n.txt"),
        "--cast", str(tmp_path / "cast.csv"),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    with webnovel.open_project(root) as opened:
        opened.commit(DEATH, text=text_of(opened, 2))
    return root


def text_of(opened: webnovel.Project, chapter: int) -> str:
    stored = opened.store.commits.current_commit(chapter)
    assert stored is not None
    return str(stored["text"])


def dead_acting(root: Path) -> list[int]:
    with webnovel.open_project(root) as opened:
        return sorted(c.chapter for c in opened.conflicts() if c.kind == "dead_entity_active")


def test_the_dead_remembered_in_imported_prose_is_no_conflict(book: Path) -> None:
    assert dead_acting(book) == []
    with webnovel.open_project(book) as opened:
        stored = opened.store.commits.current_commit(3)
        assert stored is not None
        roles = {a["id"]: a.get("role") for a in stored["result"]["entities_appeared"]}
        assert roles == {"bm": "mentioned", "lu": "mentioned"}  # said in the stored result
        # the import's scenes name him too (次日清晨 opens one): still a mention
        scenes = opened.store.commits.current_commit(4)["result"]["scenes"]  # type: ignore[index]
        assert any("bm" in s["characters"] for s in scenes)


def test_an_agents_appearance_of_the_dead_still_is_one(book: Path) -> None:
    with webnovel.open_project(book) as opened:
        acting = {"chapter": 3, "entities_appeared": [{"id": "bm"}, {"id": "lu"}]}
        opened.commit(acting, text=text_of(opened, 3))
        scene = {
            "chapter": 4,
            "scenes": [{"index": 1, "characters": ["bm", "lu"], "summary": "师徒同行"}],
        }
        opened.commit(scene, text=text_of(opened, 4))
    assert dead_acting(book) == [3, 4]


def test_a_mention_still_counts_for_who_shares_chapters(book: Path) -> None:
    with webnovel.open_project(book) as opened:
        shared = {t.name: t.chapters for t in opened.cooccurrence("陆青云")}
        assert shared == {"白眉真人": 4}  # chapters 1–4: named in each, acting in one


def test_a_book_imported_before_is_mended_by_rebuild(book: Path) -> None:
    """A result stored by an earlier import holds no `role`: marked as an import's
    (`chapter_meta.origin`), its appearances are mentions when read again."""
    with webnovel.open_project(book) as opened:
        stored = opened.store.commits.current_commit(3)
        assert stored is not None
        old = json.loads(json.dumps(stored["result"]))
        for appearance in old["entities_appeared"]:
            del appearance["role"]
        opened.commit(old, text=stored["text"])
        assert dead_acting(book) == []
        opened.rebuild()
    assert dead_acting(book) == []


def test_an_imported_result_filled_in_by_an_agent_is_the_agents(book: Path) -> None:
    """`webnovel result 4` edited and committed keeps the import's mark, but once it holds
    more than an import writes (a realm) it is the agent's: its scene where the dead master
    teaches is him acting, and so is an appearance without a role. An appearance the import
    wrote as `mentioned` stays a mention."""
    with webnovel.open_project(book) as opened:
        stored = opened.store.commits.current_commit(4)
        assert stored is not None
        edited = json.loads(json.dumps(stored["result"]))
        assert edited["chapter_meta"]["origin"] == "text_import"  # the agent keeps the mark
        edited["scenes"] = [{"index": 1, "characters": ["bm", "lu"], "summary": "白眉真人传剑"}]
        edited["state_changes"] = [{"entity_id": "lu", "field": "realm", "new": "筑基"}]
        opened.commit(edited, text=stored["text"])
        assert dead_acting(book) == [4]  # the scene
        opened.commit(
            {**edited, "scenes": [], "entities_appeared": [{"id": "bm"}, {"id": "lu"}]},
            text=stored["text"],
        )
        assert dead_acting(book) == [4]  # the appearance without a role
        said = [{"id": "bm", "role": "mentioned"}, {"id": "lu", "role": "present"}]
        opened.commit({**edited, "scenes": [], "entities_appeared": said}, text=stored["text"])
        assert dead_acting(book) == []  # named, not acting, whatever else the result holds
        opened.rebuild()
    assert dead_acting(book) == []
