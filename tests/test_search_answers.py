"""What a search answers and how it explains itself, on real books in tmp folders: traditional
and simplified meet on both sides, scores are 0–1 and say what matched, a question the book
cannot answer finds nothing, and the order depends on the book's content alone."""

from __future__ import annotations

import importlib.util
import json
import urllib.parse
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.retrieval.folding import fold

from cli_runner import run_cli
from test_retrieval import book_with_embedder

QUESTIONS = ("青灯的来历", "韩啸被执法长老带走", "断刀", "林砚结成金丹", "血衣堂", "周伯临终")


def test_folding_keeps_every_position() -> None:
    pytest.importorskip("opencc")
    text = "乾時大戰，殺子鱄出奔。Level 3"
    assert fold(text) == "干时大战，杀子𫚋出奔。level 3"
    assert len(fold(text)) == len(text)


def test_traditional_text_and_questions_meet_both_ways(tmp_path: Path) -> None:
    """The issue's lost queries: the text holds 乾时 and 鱄 as written in the novel."""
    pytest.importorskip("opencc")
    with webnovel.init_project(tmp_path / "b", title="东周") as book:
        book.commit({"chapter": 1}, text="鲁庄公与齐师战于乾时，鲁师败绩。\n公子鱄出奔于宋。")
        book.commit({"chapter": 2}, text="齐桓公会诸侯于北杏，宋人背盟。")
        for question in ("乾时大战", "干时大战", "乾時大戰", "杀子鱄出奔", "殺子鱄出奔"):
            hits = book.search(question, top_k=3)
            assert hits and hits[0].chapter == 1, question
        hit = book.search("干时大战", top_k=1)[0]
        assert "乾时" in hit.text  # shown as written
        assert "乾时" in hit.matched and "【乾时】" in hit.marked_snippet()


def test_every_hit_explains_itself(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "b", title="青灯照剑") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
        for question in QUESTIONS:
            hits = book.search(question, top_k=10)
            assert hits, question
            for hit in hits:
                assert 0.0 < hit.score <= 1.0 and hit.semantic is None
                assert hit.score == pytest.approx(hit.lexical)
                assert hit.matched and hit.marks
                for term in hit.matched:
                    assert term in hit.text
                for start, end in hit.marks:
                    assert fold(hit.snippet[start:end]) in fold(hit.text)
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        exact = book.search("韩啸", top_k=1)[0]
        assert exact.score > 0.9 and exact.matched == ("韩啸",) and not exact.weak
        data = exact.to_dict()
        assert {"score", "lexical", "semantic", "matched", "snippet", "marks", "weak"} <= set(data)


def test_a_question_the_book_cannot_answer_finds_nothing(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    with webnovel.open_project(book_with_embedder(tmp_path / "b", "hashing")) as book:
        for chapter in list(sample_chapters())[:6]:
            book.commit(chapter.result, text=chapter.text)
        book.embed(include_text=True)
        assert book.search("量子计算机") == []  # no term anywhere: dense alone proposes nothing
        assert book.search("Quantum") == []
        # a stray common character pair is a weak hit, marked or left out, never a strong one
        stray = book.search("他们量子纠缠的超导计算机芯片", top_k=5)
        assert all(h.weak for h in stray)


def test_a_name_cut_differently_by_the_segmenter_still_decides(tmp_path: Path) -> None:
    """The text has 刘洪义 as one registered name, the question only 洪义: the name's bigram
    must outweigh the question's common words, which many passages share."""
    with webnovel.init_project(tmp_path / "b", title="三侠") as book:
        book.commit(
            {
                "chapter": 1,
                "entities_new": [{"id": "liu", "name": "刘洪义", "type": "character"}],
            },
            text="刘洪义连夜出城，投奔开封府去了。",
        )
        filler = "众人说起这件事情，都说不知道后来怎么样了，只好回去再说。"
        for n in range(2, 12):
            book.commit({"chapter": n}, text=filler * 3)
        hits = book.search("洪义后来怎么样了", top_k=3)
        assert hits[0].chapter == 1 and "洪义" in hits[0].matched


def _commits() -> list[tuple[dict[str, object], str]]:
    chapters = [(c.result, c.text or "") for c in sample_chapters()]
    revised = dict(chapters[2][0])
    revised["summary"] = "林砚登山考核，凭青灯识破幻阵，救醒韩啸。"
    return [*chapters[:6], (revised, chapters[2][1]), *chapters[6:]]


def _answers(book: webnovel.Project) -> list[list[tuple[str, float]]]:
    return [[(h.chunk_id, round(h.score, 6)) for h in book.search(q, top_k=10)] for q in QUESTIONS]


def test_ranking_is_a_function_of_the_book_not_of_when_searches_ran(tmp_path: Path) -> None:
    """Issue 26: the same commits (a revision among them), one book searched after every
    commit, the other searched only at the end and then rebuilt, rank alike."""
    with webnovel.init_project(tmp_path / "a", title="a") as searched:
        for result, text in _commits():
            searched.commit(result, text=text)
            _answers(searched)
        during = _answers(searched)
    with webnovel.init_project(tmp_path / "b", title="b") as quiet:
        for result, text in _commits():
            quiet.commit(result, text=text)
        after = _answers(quiet)
        quiet.rebuild()
        rebuilt = _answers(quiet)
    assert during == after == rebuilt


def test_cli_search_shows_scores_and_marks(tmp_path: Path) -> None:
    """In process (cli_runner): a fresh process searching is tested in test_search_process."""
    root = tmp_path / "demo"
    assert run_cli("demo", str(root)).returncode == 0
    cli = ("--project", str(root), "search")
    shown = run_cli(*cli, "断刀", "--top-k", "2", "--format", "text")
    assert shown.returncode == 0, shown.stderr
    assert "相关度" in shown.stdout and "【断刀】" in shown.stdout and "命中：断刀" in shown.stdout
    nothing = run_cli(*cli, "量子计算机", "--format", "text")
    assert nothing.returncode == 0 and nothing.stdout.strip() == "（没有找到）"
    data = json.loads(run_cli(*cli, "断刀").stdout)
    assert data and all(0 < h["score"] <= 1 for h in data)
    # passages holding 断 and 刀 apart may follow, marked weak
    strong = [h for h in data if not h["weak"]]
    assert strong and all("断刀" in h["matched"] for h in strong)
    assert data[: len(strong)] == strong


def test_the_dashboard_search_page_shows_snippets_and_scores(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from dashboard_server import build_sample_book, running_dashboard

    root = build_sample_book(tmp_path / "book")
    with running_dashboard(root) as board:
        found = board.get("/search?q=" + urllib.parse.quote("断刀") + "&as_of=13").body
        assert '<ol class="hits">' in found and "<mark>断刀</mark>" in found
        assert "相关度" in found and "字面" in found and "命中：断刀" in found
        nothing = board.get("/search?q=" + urllib.parse.quote("量子计算机") + "&as_of=13").body
        assert 'class="hits"' not in nothing and "empty-answer" in nothing
        assert "没有找到" in nothing


def test_a_model_that_cannot_load_leaves_search_lexical(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    if importlib.util.find_spec("sentence_transformers") is not None:
        pytest.skip("needs an embedder whose package is not installed")
    root = book_with_embedder(tmp_path / "b", "st:/models/none")
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 1, "summary": "林砚在铁匠铺里打铁。"})
        with pytest.warns(UserWarning, match="检索只用字面匹配"):
            hits = book.search("铁匠铺")
        assert hits and hits[0].semantic is None
        with pytest.raises(webnovel.WebnovelError, match="sentence_transformers"):
            book.embed()


def test_a_long_outline_is_searched_by_its_rarest_terms(tmp_path: Path) -> None:
    """A pack's outline can run to hundreds of characters: its rarest bigrams carry it."""
    chapters = list(sample_chapters())
    with webnovel.init_project(tmp_path / "b", title="青灯照剑") as book:
        for chapter in chapters:
            book.commit(chapter.result, text=chapter.text)
        outline = (chapters[7].text or "")[:600]
        hits = book.search(outline, top_k=5)
        assert hits and hits[0].chapter == 8
        assert all(0 < h.score <= 1 for h in hits)
