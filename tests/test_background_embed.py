"""Vectors keep up by themselves: with an embedder named, `commit` and `import` start a
detached `webnovel embed --background` (one at a time per book, resumable), and a model that
cannot load leaves search lexical, said once. Real books in tmp folders; the commits that start
the detached child are real processes, the `webnovel embed --background` a test runs itself is
the CLI in process (the child's own command: what it does does not hang on a Python start-up)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_book_dir
from webnovel.memory.retrieval.background import embed_lock

from cli_runner import run_cli
from test_retrieval import book_with_embedder

pytest.importorskip("numpy")


def _cli(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WEBNOVEL_EMBED_IN_BACKGROUND"}
    return subprocess.run(
        [sys.executable, "-m", "webnovel", "--project", str(root), *command],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )


def _counts(root: Path) -> tuple[int, int]:
    """(summary chunks, those with a vector)."""
    with webnovel.open_project(root) as book:
        book.catch_up_search()
        conn = book.retrieval().store.conn
        summaries = conn.execute(
            "SELECT COUNT(*) FROM chunks WHERE kind IN ('chapter_summary', 'scene_summary')"
        ).fetchone()[0]
        embedded = conn.execute(
            "SELECT COUNT(*) FROM chunks c JOIN vectors v ON v.chunk_rowid = c.id "
            "WHERE c.kind IN ('chapter_summary', 'scene_summary')"
        ).fetchone()[0]
    return summaries, embedded


def _wait_until_embedded(root: Path, seconds: float = 90) -> tuple[int, int]:
    deadline = time.monotonic() + seconds
    while True:
        summaries, embedded = _counts(root)
        with embed_lock(root / ".webnovel", wait=False) as free:
            if free and embedded == summaries:
                return summaries, embedded
        if time.monotonic() > deadline:
            return summaries, embedded
        time.sleep(0.05)  # a look costs milliseconds: the test ends as soon as the child has


def test_a_bulk_commit_embeds_in_the_background(tmp_path: Path) -> None:
    root = book_with_embedder(tmp_path / "b", "hashing")
    results = sorted((sample_book_dir() / "results").glob("*.json"))[:6]
    run = _cli(root, "commit", *map(str, results))
    assert "向量在后台补齐" in run.stderr
    summaries, embedded = _wait_until_embedded(root)
    assert summaries > 6 and embedded == summaries
    log = root / ".webnovel" / "embed.log"
    deadline = time.monotonic() + 30  # the child writes its last line after it lets go
    while "后台补向量结束" not in log.read_text(encoding="utf-8") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert f"后台补向量结束：新算 {summaries} 个向量" in log.read_text(encoding="utf-8")
    # a later single commit is embedded too, without a word on the terminal
    with webnovel.open_project(root) as book:
        nxt = book.latest_chapter() + 1
    result = json.dumps({"chapter": nxt, "summary": "韩啸夜入藏经阁，取走一卷残谱。"})
    single = subprocess.run(
        [sys.executable, "-m", "webnovel", "--project", str(root), "commit", "-"],
        input=result,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "向量" not in single.stderr
    summaries_after, embedded_after = _wait_until_embedded(root)
    assert summaries_after == summaries + 1 and embedded_after == summaries_after


def test_one_embedder_at_a_time(tmp_path: Path) -> None:
    root = book_with_embedder(tmp_path / "b", "hashing")
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 1, "summary": "林砚在铁匠铺里打铁。"})
        book.commit({"chapter": 2, "summary": "周伯守在炉边，说起断刀的来历。"})
    with embed_lock(root / ".webnovel", wait=False) as held:
        assert held
        with webnovel.open_project(root) as book:
            assert book.embedding_elsewhere()
            assert not book.embed_in_background()  # one runs (this test holds its lock)
        left = run_cli("--project", str(root), "embed", "--background", "--format", "json")
        assert left.returncode == 0, left.stderr
        assert '"embedded": 0' in left.stdout  # the lock is a file lock: held here, it is held
        assert _counts(root)[1] == 0
    done = run_cli("--project", str(root), "embed", "--background", "--format", "json")
    assert '"embedded": 2' in done.stdout
    # the child's stderr is .webnovel/embed.log: a line as each run starts and as it ends
    for run, count in ((left, 0), (done, 2)):
        start, end = run.stderr.splitlines()[0], run.stderr.splitlines()[-1]
        assert re.fullmatch(r"\S+ 后台补向量开始（进程 \d+）", start)
        assert re.fullmatch(rf"\S+ 后台补向量结束：新算 {count} 个向量，用时 [\d.]+ 秒", end)
    assert _counts(root) == (2, 2)


def test_chunks_committed_while_it_embeds_are_not_left_behind(tmp_path: Path) -> None:
    root = book_with_embedder(tmp_path / "b", "hashing")
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 1, "summary": "林砚在铁匠铺里打铁。"})
        retrieval = book.retrieval()
        first_batch = retrieval.embed
        calls = []

        def embed_and_meanwhile_commit(*args: object, **kwargs: object) -> dict[str, int]:
            answer = first_batch(*args, **kwargs)  # type: ignore[arg-type]
            if not calls:  # another process commits while this one embeds
                with webnovel.open_project(root) as writer:
                    writer.commit({"chapter": 2, "summary": "周伯守在炉边。"})
            calls.append(answer)
            return answer

        retrieval.embed = embed_and_meanwhile_commit  # type: ignore[method-assign]
        summary = book.keep_embedding()
    assert len(calls) == 2 and summary["embedded"] == 2
    assert _counts(root) == (2, 2)


def _book_whose_model_cannot_load(folder: Path) -> Path:
    """A book naming an embedder whose package is not installed, with one chapter."""
    import importlib.util

    if importlib.util.find_spec("sentence_transformers") is not None:
        pytest.skip("needs an embedder whose package is not installed")
    root = book_with_embedder(folder, "st:/models/none")
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 1, "summary": "林砚在铁匠铺里打铁。"})
    return root


def test_a_model_that_cannot_load_is_reported_once(tmp_path: Path) -> None:
    root = _book_whose_model_cannot_load(tmp_path / "b")
    with webnovel.open_project(root) as book:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            for question in ("铁匠铺", "林砚", "打铁"):
                assert book.search(question)[0].semantic is None
        assert [str(w.message) for w in said if "检索只用字面匹配" in str(w.message)] == [
            str(said[0].message)
        ]
    # the background child's command cannot load it either: it says why, search goes on
    child = run_cli("--project", str(root), "embed", "--background")
    assert child.returncode != 0 and "sentence_transformers" in child.stderr
    assert run_cli("--project", str(root), "search", "铁匠铺").returncode == 0


def test_embed_says_once_why_a_model_cannot_load(tmp_path: Path) -> None:
    """As an error, not first as the warning that search stays lexical, then as the error."""
    root = _book_whose_model_cannot_load(tmp_path / "b")
    ran = run_cli("--project", str(root), "embed")
    assert ran.returncode == 2
    assert ran.stderr.count("sentence_transformers") == 1 and "字面匹配" not in ran.stderr
    assert ran.stderr.startswith("错误：向量模型「st:/models/none」需要未安装的包")


def test_batches_sorted_by_length_keep_each_vector_with_its_passage(tmp_path: Path) -> None:
    from array import array

    from webnovel.memory.retrieval.embedders import HashingEmbedder

    root = book_with_embedder(tmp_path / "b", "hashing")
    with webnovel.open_project(root) as book:
        for chapter in range(1, 13):  # lengths that do not follow the chapters' order
            summary = "林砚" + "在铁匠铺里打铁，" * ((chapter * 7) % 12 + 1) + f"第{chapter}回。"
            book.commit({"chapter": chapter, "summary": summary})
        assert book.embed(batch=5)["embedded"] == 12
        rows = (
            book.retrieval()
            .store.conn.execute(
                "SELECT c.text, v.vec FROM chunks c JOIN vectors v ON v.chunk_rowid = c.id"
            )
            .fetchall()
        )
    model = HashingEmbedder()
    assert len(rows) == 12
    for text, blob in rows:
        expected = array("f", [float(v) for v in model.embed_passages([text])[0]])
        assert blob == expected.tobytes(), text


def test_an_endpoints_embedder_never_starts_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A received book that names `openai` must not send its text, with the user's key, on the
    user's next commit: only the user's own `webnovel embed` does. The CLI runs in process (a
    child it started would be a real process all the same; the tests above start real ones)."""
    from local_openai import local_openai

    root = book_with_embedder(tmp_path / "b", "openai:text-embedding-3-small")
    results = sorted((sample_book_dir() / "results").glob("*.json"))[:3]
    with local_openai() as server:
        monkeypatch.delenv("WEBNOVEL_EMBED_IN_BACKGROUND", raising=False)
        monkeypatch.setenv("WEBNOVEL_EMBED_BASE_URL", server.url)
        monkeypatch.setenv("WEBNOVEL_EMBED_API_KEY", "the-users-key")
        committed = run_cli("--project", str(root), "commit", *map(str, results))
        assert committed.returncode == 0, committed.stderr
        assert "向量在后台补齐" not in committed.stderr
        assert not (root / ".webnovel" / "embed.log").exists()  # no child was started
        assert server.requests == []
        embedded = run_cli("--project", str(root), "embed")
        assert embedded.returncode == 0, embedded.stderr
        assert server.carried("the-users-key")  # the user's own step does send, as asked
