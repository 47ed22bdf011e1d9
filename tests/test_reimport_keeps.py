"""Importing a book's text again keeps the author's work: an empty file is refused, a chapter
whose result is not the import's own keeps it (marked stale when its text changed), a result
committed over an imported chapter keeps the cast that chapter introduced, a retracted chapter
committed again gets its text back, `sync` guards published chapters as `import text` does, and
`status` says how to let it watch a novel's file kept outside the book."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import webnovel

from cli_runner import run_cli
from stores import init_book


def novel(chapters: dict[int, str]) -> str:
    return "".join(f"第{n}章 章{n}\n　　{text}\n" for n, text in chapters.items())


SIX = {n: f"林砚在第{n}天练剑，苏晚晴在旁观看，剑光如雪。" for n in range(1, 7)}
CAST = "id,name,aliases,type\nlinyan,林砚,阿砚,角色\nsuwanqing,苏晚晴,,角色\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def cli(root: Path, *args: str) -> Any:
    return run_cli("--project", str(root), *args)


def answer(root: Path, *args: str) -> Any:
    ran = cli(root, *args, "--format", "json")
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


@pytest.fixture
def book(tmp_path: Path, backend: str) -> Path:
    """Six chapters imported from the book's own folder, with a cast of two, in each store
    (conftest's BOTH_BACKENDS)."""
    root = tmp_path / "book"
    init_book(backend, root, title="寒江").close()
    write(root / "寒江.txt", novel(SIX))
    write(root / "cast.csv", CAST)
    answer(root, "import", "text", str(root / "寒江.txt"), "--cast", str(root / "cast.csv"))
    return root


@pytest.mark.parametrize("content", ["", " \n\u3000\n\t"])
def test_an_empty_file_is_refused_naming_it_and_writing_nothing(
    book: Path, tmp_path: Path, content: str
) -> None:
    empty = write(tmp_path / "第7章.txt", content)
    for args in ((), ("--dry-run",)):
        ran = cli(book, "import", "text", str(empty), *args)
        assert ran.returncode == 2, ran.stderr
        assert "第7章.txt 是空的（没有正文），已拒绝，什么也没有写入" in ran.stderr
    folder = tmp_path / "chapters"
    folder.mkdir()
    write(folder / "第7章.txt", "第7章 下山\n　　林砚下山。\n")
    write(folder / "第8章.txt", content)
    ran = cli(book, "import", "text", str(folder))
    assert ran.returncode == 2 and "第8章.txt 是空的" in ran.stderr, ran.stderr
    with webnovel.open_project(book) as opened:
        assert opened.latest_chapter() == 6


def memory(root: Path) -> dict[str, Any]:
    """What the book holds that an agent's results gave it."""
    with webnovel.open_project(root) as opened:
        return {
            "realm": [(f.id, f.value) for f in [opened.fact("linyan", "realm")] if f],
            "status": [(f.id, f.value) for f in [opened.fact("suwanqing", "status")] if f],
            "threads": [t.id for t in opened.threads()],
            "conflicts": sorted(c.id for c in opened.conflicts()),
            "stale": opened.store.commits.stale_chapters(),
        }


def commit_agent_results(root: Path) -> None:
    """Chapter 2 from `webnovel result 2` with a realm and a thread added (it still carries
    the import's mark); chapter 4 written from scratch with a death, and one who acts
    unregistered (a conflict the re-import must keep: the import's own mentions of the dead in
    5 and 6 are not acts)."""
    with webnovel.open_project(root) as opened:
        stored = opened.stored_commit(2)
        assert stored is not None
        edited = dict(stored["result"])
        edited["state_changes"] = [{"entity_id": "linyan", "field": "realm", "new": "筑基"}]
        edited["plot_threads"] = [
            {"id": "sword", "kind": "foreshadowing", "action": "plant", "content": "剑光之谜"}
        ]
        assert opened.commit(edited).status == "committed"
        written = {
            "chapter": 4,
            "title": "雪夜",
            "summary": "苏晚晴死于雪夜。",
            "entities_appeared": [{"id": "suwanqing"}, {"id": "linyan"}, {"id": "wuming"}],
            "state_changes": [{"entity_id": "suwanqing", "field": "status", "new": "死亡"}],
        }
        assert opened.commit(written).status == "committed"


def test_importing_the_text_again_keeps_results_an_agent_committed(book: Path) -> None:
    commit_agent_results(book)
    held = memory(book)
    assert held["realm"][0][1] == "筑基" and held["status"][0][1] == "死亡"
    assert held["threads"] == ["sword"]
    assert held["conflicts"] and held["stale"] == []
    source = str(book / "寒江.txt")
    dry = cli(book, "import", "text", source, "--dry-run", "--format", "text")
    assert "导入时保留：第2、4章" in dry.stdout, dry.stdout
    assert answer(book, "import", "text", source, "--dry-run")["kept"] == [2, 4]
    again = answer(book, "import", "text", source)
    assert (again["committed"], again["kept"], again["result_changed"]) == (0, [2, 4], [])
    assert memory(book) == held
    write(book / "寒江.txt", novel(SIX | {4: SIX[4] + "雪落无声。"}))
    ran = cli(book, "import", "text", source, "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "正文有改动：第4章" in ran.stdout
    assert "章节结果不是导入生成的，已保留：第2、4章" in ran.stdout
    assert "已标为记忆待更新（请重新抽取或提交新的章节结果）：第4章" in ran.stdout
    assert memory(book) == held | {"stale": [4]}
    with webnovel.open_project(book) as opened:
        stored = opened.stored_commit(4)
        assert stored is not None and stored["text"].endswith("雪落无声。")
        assert stored["result"]["summary"] == "苏晚晴死于雪夜。"
    assert answer(book, "status")["stale"] == [4]


def test_sync_of_a_published_chapter_is_refused_unless_forced_and_logged(book: Path) -> None:
    """As `import text` refuses: the file of published chapter 2 edited, `sync` writes nothing
    without --force; forced, the log marks the commit a revision of a published chapter."""
    with webnovel.open_project(book) as opened:
        opened.publish(through=3)
    write(book / "寒江.txt", novel(SIX | {2: SIX[2] + "（修订）", 5: SIX[5] + "（修订）"}))
    refused = cli(book, "sync")
    assert refused.returncode == 1 and "--force" in refused.stderr, refused.stderr
    with webnovel.open_project(book) as opened:  # nothing written, not even chapter 5
        assert not any("（修订）" in opened.stored_commit(n)["text"] for n in (2, 5))
    assert [e["chapter"] for e in answer(book, "status")["edited"]] == [2, 5]
    done = answer(book, "sync", "--force")
    assert done["synced"] == done["remade"] == [2, 5] and done["stale"] == []
    with webnovel.open_project(book) as opened:
        assert opened.stored_commit(2)["text"].endswith("（修订）")
        logged = {e.chapter: e.published_through for e in opened.commit_log(limit=2)}
        assert logged == {2: 3, 5: None}


def test_sync_says_an_imported_result_was_made_again_and_status_agrees(book: Path) -> None:
    """An import's own result is made again from the new text: not stale, and `sync` does
    not say it is; a result an agent committed is kept and marked stale, and `sync` says so."""
    commit_agent_results(book)
    write(book / "寒江.txt", novel(SIX | {3: SIX[3] + "（修订）", 4: SIX[4] + "（修订）"}))
    said = cli(book, "sync", "--format", "text").stdout
    assert "已重新读入第3章的正文，并按新正文重新生成了导入的章节结果（记忆已更新）" in said
    assert "已重新读入第4章的正文并更新检索；这些章节的章节结果仍是旧的，已标为记忆待更新" in said
    assert "第3章的正文并更新检索" not in said and "3、4" not in said
    assert answer(book, "status")["stale"] == [4]


def test_status_of_a_novel_file_outside_the_book_says_how_to_let_it_watch(
    tmp_path: Path,
) -> None:
    root = tmp_path / "book"
    webnovel.init_project(root, title="寒江").close()
    outside = write(tmp_path / "寒江.txt", novel(SIX))
    answer(root, "import", "text", str(outside))
    said = cli(root, "status", "--format", "text").stdout
    assert "第1–6章（共6章）的正文文件在书的文件夹之外，不读取" in said
    assert "把它复制进书的文件夹，再对那份副本运行一次 webnovel import text" in said, said
    assert answer(root, "status")["outside"][0] == {
        "chapter": 1,
        "path": str(outside),
        "imported": True,
    }
    # doing what it says: nothing changes but the place, which status then watches
    inside = write(root / "寒江.txt", outside.read_text(encoding="utf-8"))
    again = answer(root, "import", "text", str(inside))
    assert (again["committed"], again["unchanged"]) == (0, 6)
    write(inside, novel(SIX | {3: SIX[3] + "（修订）"}))
    found = answer(root, "status")
    assert "outside" not in found and [e["chapter"] for e in found["edited"]] == [3]


def test_a_retracted_chapter_committed_again_without_text_gets_its_text_back(
    book: Path, tmp_path: Path
) -> None:
    """README: committing a retracted chapter again restores it; its text too, and the file it
    came from, which status then watches again."""
    with webnovel.open_project(book) as opened:
        stored = opened.stored_commit(3)
        assert stored is not None
        text = stored["text"]
    result = write(tmp_path / "r3.json", json.dumps(stored["result"], ensure_ascii=False))
    assert cli(book, "retract", "3", "--yes").returncode == 0
    ran = cli(book, "commit", str(result), "--format", "text")
    assert ran.returncode == 0, ran.stderr
    assert "第3章恢复撤回前的正文" in ran.stdout + ran.stderr
    with webnovel.open_project(book) as opened:
        again = opened.stored_commit(3)
        assert again is not None and again["text"] == text
        opened.catch_up_search()
        assert 3 in {h.chapter for h in opened.search("林砚在第3天练剑", top_k=5)}
    assert answer(book, "status")["edited"] == []
    write(book / "寒江.txt", novel(SIX | {3: SIX[3] + "（修订）"}))
    assert [e["chapter"] for e in answer(book, "status")["edited"]] == [3]


def from_scratch(chapter: int, **more: Any) -> dict[str, Any]:
    """A result written as docs/contract.md teaches, for people the agent knows are registered
    (by the cast): no entities_new, no title."""
    return {
        "chapter": chapter,
        "summary": "林砚练剑，苏晚晴旁观。",
        "entities_appeared": [{"id": "linyan"}],
        "state_changes": [{"entity_id": "linyan", "field": "realm", "new": "炼气"}],
        **more,
    }


def test_a_result_over_an_imported_chapter_keeps_the_cast_it_introduced(
    book: Path, tmp_path: Path
) -> None:
    with webnovel.open_project(book) as opened:
        assert [i.category for i in opened.review(from_scratch(1)).issues] == []
        assert opened.impact(from_scratch(1), chapter=1).conflicts_added == []
    draft = write(tmp_path / "ch1.json", json.dumps(from_scratch(1), ensure_ascii=False))
    ran = cli(book, "commit", str(draft), "--check", "--format", "text")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    said = ran.stdout + ran.stderr
    assert (
        "第1章：新结果没有登记 林砚、苏晚晴；这些实体是本章导入时" in said
        and "已保留其登记（entities_new）" in said
    )
    assert "第1章：新结果没有标题，沿用导入时的" in said
    with webnovel.open_project(book) as opened:
        assert sorted(e.name for e in opened.entities()) == ["林砚", "苏晚晴"]
        assert opened.entity("阿砚").id == "linyan"  # the cast's alias too
        assert opened.conflicts() == []
        assert opened.chapter(1).title == "章1"
        assert opened.fact("linyan", "realm").value == "炼气"
        stored = opened.stored_commit(1)
        assert stored is not None
        assert [e["id"] for e in stored["result"]["entities_new"]] == ["linyan", "suwanqing"]
        # the agent's second version, over its first (a trial lost the cast here): kept again
        assert opened.review(from_scratch(1, summary="林砚在雪夜练剑。")).issues == []
    again = write(tmp_path / "ch1b.json", json.dumps(from_scratch(1, summary="林砚在雪夜练剑。")))
    ran = cli(book, "commit", str(again), "--format", "text")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "已保留其登记（entities_new）" in ran.stdout + ran.stderr
    with webnovel.open_project(book) as opened:
        assert sorted(e.name for e in opened.entities()) == ["林砚", "苏晚晴"]
        assert opened.conflicts() == []


def test_a_result_that_registers_the_cast_itself_keeps_only_the_imported_title(
    book: Path,
) -> None:
    own = from_scratch(
        1,
        entities_new=[
            {"id": "linyan", "name": "林砚", "type": "角色"},
            {"id": "suwanqing", "name": "苏晚晴", "type": "角色"},
        ],
    )
    with webnovel.open_project(book) as opened:
        report = opened.commit(own)
        assert report.status == "committed"
        assert [w for w in report.warnings if "沿用导入" in w or "已保留" in w] == [
            "第1章：新结果没有标题，沿用导入时的"
        ]
        assert opened.chapter(1).title == "章1"
        stored = opened.stored_commit(1)
        assert stored is not None and len(stored["result"]["entities_new"]) == 2


def test_an_agent_s_result_of_appearances_only_keeps_the_cast_too(book: Path) -> None:
    """A result holding no more than appearances has the shape an old import wrote, but not the
    import's mark: it is the agent's, and the cast it leaves out is kept (a review found it
    taken for the import's own and the cast lost: unknown entities in every chapter after)."""
    with webnovel.open_project(book) as opened:
        report = opened.commit({"chapter": 1, "entities_appeared": [{"id": "linyan"}]})
        assert report.status == "committed"
        assert any("已保留其登记" in w for w in report.warnings), report.warnings
        assert sorted(e.name for e in opened.entities()) == ["林砚", "苏晚晴"]
        assert opened.conflicts() == []
