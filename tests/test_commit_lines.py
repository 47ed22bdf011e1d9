"""The overview's 最近提交 after an afternoon in the candidate queue: the accepts and merges,
each a re-commit of every chapter naming the name, fold into one line that names how many names
over which chapters and opens on each commit, named (接受「王婶」为角色, with its chapter's
title); the chapters committed before fold too, behind the newest three; a chapter committed
again with a new text is named as such. Checked on the page a real server gives, over the
sample book, in SQLite and (conftest's BOTH_BACKENDS) PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

import webnovel  # noqa: E402
from webnovel.book import candidate_queue  # noqa: E402
from webnovel.dashboard import commit_lines  # noqa: E402
from webnovel.dashboard.commit_lines import recent_lines  # noqa: E402
from webnovel.ingest.sample_book import sample_chapters  # noqa: E402

from dashboard_server import Running, running_dashboard  # noqa: E402
from stores import init_book  # noqa: E402

ACCEPTED = ["王婶", "李老汉", "老梅", "小药童"]


def sample_book(backend: str, root: Path) -> Path:
    """The sample book's twelve chapters, in the store the module runs on."""
    with init_book(backend, root, title="青灯照剑", genre="仙侠") as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
    return root


@pytest.fixture(scope="module")
def board(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = sample_book(backend, tmp_path_factory.mktemp("queue") / "book")
    with webnovel.open_project(root) as book:
        for name in ACCEPTED:
            candidate_queue.accept(book, name, "人物")
        candidate_queue.merge(book, "方黑", "hanxiao")
    with running_dashboard(root) as running:
        yield running


def recent(body: str) -> str:
    return body.split("<h2>最近提交</h2>", 1)[1].split("</section>", 1)[0]


def test_candidate_accepts_fold_into_one_named_line(board: Running) -> None:
    with webnovel.open_project(board.root) as book:
        log = book.commit_log(200)
    queue_commits = log[: len(log) - 12]  # after the sample's 12 chapters
    assert len(queue_commits) > 5
    part = recent(board.get("/").body)
    folded = re.findall(r"<summary>(.*?)</summary>", part)
    chapters = sorted(e.chapter for e in queue_commits)
    assert folded[0] == f"接受、合并候选人名 ×5（第{chapters[0]}–{chapters[-1]}章）"
    first_line = part.split("<summary>", 1)[1].split("</details>", 1)[0]
    for name in ACCEPTED:
        assert f"接受「{name}」为角色" in first_line
    assert "「方黑」并为韩啸的别名" in first_line
    # under the line, one row an answer (its commits, one a chapter naming the name, as one)
    assert first_line.count("<tr") == len(ACCEPTED) + 1
    merged = [e.chapter for e in queue_commits[:2]]  # the merge's, the latest two commits
    assert f'<td class="num">{min(merged)}、{max(merged)}</td>' in first_line
    # no row untitled: each names its first chapter's title as the commit gave it
    titles = re.findall(r'<span class="muted">(.*?)</span></td>', first_line)
    assert len(titles) == len(ACCEPTED) + 1 and all(titles)
    # the 12 chapters committed before: the newest three as they are, the nine others folded
    assert folded[1] == "提交新章 ×9（第1–9章）"
    between = part.split("</details>", 1)[1].split("<summary>", 1)[0]
    assert [int(c) for c in re.findall(r'<tr[^>]*>\s*<td class="num">(\d+)</td>', between)] == [
        12,
        11,
        10,
    ]


def test_a_chapter_committed_again_with_a_new_text_is_named_so(
    backend: str, tmp_path: Path
) -> None:
    root = sample_book(backend, tmp_path / "book")
    with webnovel.open_project(root) as book:
        stored = book.store.commits.current_commit(3)
        assert stored is not None
        book.commit(stored["result"], text=stored["text"] + "\n（修订）")
    with running_dashboard(root) as running:
        part = recent(running.get("/").body)
    first_row = part.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert "重新提交" in first_row and "<summary>" not in first_row


def test_a_long_import_folds_behind_the_newest_three_and_opens_on_thirty(
    backend: str, tmp_path: Path
) -> None:
    with init_book(backend, tmp_path / "book", title="长篇") as book:
        for n in range(1, 41):
            book.commit({"chapter": n, "title": f"第{n}回", "summary": "无事。"})
        lines = recent_lines(book, 40)
    assert [line.rows[0].title for line in lines[:3]] == ["第40回", "第39回", "第38回"]
    folded = lines[3]
    assert folded.summary == "提交新章 ×37（第1–37章）"
    assert [r.entry.chapter for r in folded.rows] == list(range(37, 7, -1))
    assert folded.more == "……及更早的 7 条"


def test_chapters_a_writer_commits_one_by_one_are_not_folded(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New chapters fold only when committed back to back (an import): here every commit
    counts as far apart from the next."""
    monkeypatch.setattr(commit_lines, "IMPORT_GAP", -1.0)
    with init_book(backend, tmp_path / "book", title="日更") as book:
        for n in range(1, 8):
            book.commit({"chapter": n, "title": f"第{n}章", "summary": "无事。"})
        lines = recent_lines(book, 7)
    assert [line.summary for line in lines] == [None] * 7
    assert [line.rows[0].title for line in lines] == [f"第{n}章" for n in range(7, 0, -1)]


def test_a_rename_its_undoing_and_retractions_are_named(backend: str, tmp_path: Path) -> None:
    """`rename 韩啸 韩啸天` and its `--undo` showed as two rows 「重新提交」, and chapters
    committed then retracted not at all: each is named for what it did."""
    root = sample_book(backend, tmp_path / "book")
    with webnovel.open_project(root) as book:
        book.rename_entity("韩啸", "韩啸天")
        book.rename_entity("韩啸天", "", None, True)
        for chapter in (13, 14):
            book.commit({"chapter": chapter, "title": f"余烬{chapter}", "summary": "二人离城。"})
        book.retract(14)
        book.retract(13)
    with running_dashboard(root) as running:
        part = recent(running.get("/").body)
    rows = [re.sub(r"<[^>]+>", " ", row) for row in part.split("<tbody>", 1)[1].split("</tr>")]
    said = [" ".join(row.split()) for row in rows if row.strip()]
    assert said[0].startswith("13 撤回第13章 余烬13"), said
    assert said[1].startswith("14 撤回第14章 余烬14"), said
    assert said[2].startswith("14 已撤回 余烬14") and said[3].startswith("13 已撤回 余烬13")
    assert said[4].startswith("1 撤销改名（韩啸天→韩啸） 青石镇的铁匠铺"), said
    assert said[5].startswith("1 改名 韩啸→韩啸天 青石镇的铁匠铺"), said
    assert "重新提交" not in part
    # an earlier chapter's page does not show what was retracted past it
    with running_dashboard(root) as running:
        earlier = recent(running.get("/?as_of=11").body)
    assert "撤回" not in earlier and "余烬" not in earlier
