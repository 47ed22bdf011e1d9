"""The dashboard over HTTP, against a real server: every page as of any chapter, nothing later
shown, the one write guarded, nothing outside the book served, and live news of commits."""

from __future__ import annotations

import html.parser
import json
import re
import socket
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import webnovel  # noqa: E402

from dashboard_server import (  # noqa: E402
    PAGES,
    Running,
    build_sample_book,
    chapter_14_committed_elsewhere,
    next_commit_event,
    running_dashboard,
)


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = build_sample_book(tmp_path_factory.mktemp("dashboard") / "book")
    with running_dashboard(root) as running:
        yield running


def quoted(path: str) -> str:
    return urllib.parse.quote(path, safe="/?=&")


def test_every_page_answers_in_chinese_as_of_any_chapter(board: Running) -> None:
    for as_of in (2, 9, 13):  # the thread on the list is planted in chapter 2
        for path in PAGES:
            glue = "&" if "?" in path else "?"
            answer = board.get(quoted(f"{path}{glue}as_of={as_of}"))
            assert answer.status == 200, (path, as_of, answer.body[:300])
            assert f'value="{as_of}"' in answer.body  # the slider stands at the chapter
            assert "截至第" in answer.body and "记忆面板" in answer.body
            assert "Traceback" not in answer.body


def test_nothing_from_a_later_chapter_is_shown(board: Running) -> None:
    """苏晚晴 is introduced in chapter 10, 林砚 reaches 金丹 in chapter 11 and 赤炎城 is first
    named in chapter 11: as of chapter 9 no page shows any of them."""
    for path in PAGES:
        glue = "&" if "?" in path else "?"
        body = board.get(quoted(f"{path}{glue}as_of=9")).body
        for later in ("苏晚晴", "金丹", "赤炎城"):
            assert later not in body, (path, later)
    assert "苏晚晴" in board.get("/characters?as_of=10").body
    assert board.get("/characters/suwanqing?as_of=9").status == 404


def test_pages_show_what_memory_holds(board: Running) -> None:
    with webnovel.open_project(board.root) as book:
        conflicts = book.conflicts(as_of=13)
        threads = book.threads("all", as_of=13)
        edges = book.relation_graph(13)
        pack = book.build_memory_pack(chapter=14, record=False)
    page = board.get("/conflicts").body
    assert all(c.id in page for c in conflicts) and len(conflicts) == 5
    from webnovel.memory.write.rulebook import SEVERITIES, rule_for

    shown = sorted(conflicts, key=lambda c: page.index(c.id))  # the worst first, as in the pack
    ranks = [SEVERITIES.index(rule_for(c.kind).severity) for c in shown]
    assert ranks == sorted(ranks) and len(set(ranks)) > 1
    board_page = board.get("/threads").body
    assert all(f'data-thread="{t.id}"' in board_page for t in threads)
    graph = board.get("/graph").body
    assert graph.count('class="edge') == len(edges)
    inspector = board.get("/pack").body
    assert f"{pack.used_tokens:,}" in inspector
    for section in pack.sections:
        for item in section.items[:3]:
            shown = item.line[2:] if item.line.startswith("- ") else item.line
            assert html_escape(shown) in inspector
    overview = board.get("/").body
    assert "断刀" in overview and "新增 3" in overview  # chapter 13's commit and what it did


def html_escape(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_bad_requests_get_a_chinese_page_and_a_4xx(board: Running) -> None:
    answer = board.get("/?as_of=abc")
    assert answer.status == 400 and "「截至第几章」须为章号（数字），收到「abc」" in answer.body
    assert "as_of" not in re.sub(r"<[^>]*>", "", answer.body)  # no English key in what is read
    assert board.get("/characters/no-such-one").status == 404
    assert board.get("/threads/no-such-thread").status == 404
    assert board.get("/pack?task=nonsense").status == 400
    assert board.get("/graph?hops=9&recent=-4").status == 200  # clamped, not an error


def test_a_chapter_written_in_other_digits_or_too_long_is_no_500(board: Running) -> None:
    """`str.isdigit` takes ² (which `int` refuses) and SQLite no integer past 2**63: a chapter
    so written is refused or taken as not given, never a server error."""
    chapter = board.get(quoted("/chapters/²"))
    assert chapter.status == 400 and "章号须为数字，收到「²」" in chapter.body
    for huge in ("9" * 30, "1000001"):  # past any chapter: named as the URL gives it
        refused = board.get("/chapters/" + huge)
        shown = huge if len(huge) <= 20 else huge[:20] + "…"
        assert refused.status == 400
        assert f"chapter 应为 0 到 1,000,000 之间的章节号，实际是 {shown}" in refused.body
    assert board.get("/chapters/1000000").status == 404  # not (yet) written
    for odd in ("²", "9" * 30, "9" * 5000):
        assert board.get(quoted("/revise?chapter=" + odd)).status == 200  # as if not given


def test_only_the_books_own_files_are_served(board: Running) -> None:
    secret = (board.root / ".webnovel" / "index.db").read_bytes()[:16]
    for path in (
        "/static/../.webnovel/index.db",
        "/static/%2e%2e/%2e%2e/%2e%2e/.webnovel/index.db",
        "/static/..%2f..%2f..%2fpyproject.toml",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
    ):
        answer = board.get(path)
        assert answer.status == 404, path
        assert "root:" not in answer.body and secret.decode("latin-1") not in answer.body
    assert board.get("/static/dashboard.css").status == 200
    assert board.get("/favicon.ico").headers["content-type"] == "image/svg+xml"


def test_a_foreign_host_name_is_refused(board: Running) -> None:
    """A page elsewhere that points a name of its own at 127.0.0.1 (DNS rebinding) is refused."""
    assert board.get("/", headers={"Host": "attacker.example"}).status == 400
    assert board.get("/", headers={"Host": "localhost"}).status == 200


def test_settling_a_conflict_needs_the_pages_token_and_the_same_origin(board: Running) -> None:
    page = board.get("/conflicts").body
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token is not None
    with webnovel.open_project(board.root) as book:
        target = book.conflicts()[0].id

    def post(fields: dict[str, str], headers: dict[str, str] | None = None) -> int:
        body = urllib.parse.urlencode(fields).encode()
        kind = {"Content-Type": "application/x-www-form-urlencoded"}
        return board.request(
            "POST", f"/conflicts/{target}/resolve", body, {**kind, **(headers or {})}
        ).status

    assert post({"intentional": "1"}) == 403
    assert post({"token": "forged", "intentional": "1"}) == 403
    assert post({"token": token[1]}, {"Origin": "http://attacker.example"}) == 403
    assert board.get(f"/conflicts/{target}/resolve").status == 405
    with webnovel.open_project(board.root) as book:
        assert target in {c.id for c in book.conflicts()}  # nothing was settled


def test_binds_to_loopback_and_refuses_a_taken_port() -> None:
    from webnovel.dashboard.server import bind
    from webnovel.errors import InvalidInput

    sock = bind("127.0.0.1", 0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
        with pytest.raises(InvalidInput, match="--port"):
            bind("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()


def test_the_cli_serves_a_book_on_loopback(tmp_path: Path) -> None:
    root = build_sample_book(tmp_path / "book")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "webnovel",
            "--project",
            str(root),
            "dashboard",
            "--port",
            str(port),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = proc.stderr.readline() if proc.stderr else ""
        assert f"http://127.0.0.1:{port}/" in banner and "记忆面板" in banner
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/seq", timeout=10) as answer:
            assert json.loads(answer.read())["latest_chapter"] == 13
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_commit_by_another_process_is_announced_live(board: Running) -> None:
    before = json.loads(board.get("/api/seq").body)["seq"]
    stream = urllib.request.urlopen(f"{board.url}/events?seq={before}", timeout=30)
    try:
        assert stream.readline().startswith(b"retry:")
        with chapter_14_committed_elsewhere(board.root):
            assert next_commit_event(stream)["seq"] > before
    finally:
        stream.close()


def test_an_empty_book_says_so_on_every_page(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "empty", title="空书"):
        pass
    with running_dashboard(tmp_path / "empty") as empty:
        for path in ("/", "/characters", "/graph", "/threads", "/pack", "/search?q=x"):
            answer = empty.get(path)
            assert answer.status == 200, path
            assert "还没有提交任何章节" in answer.body
        assert json.loads(empty.get("/api/seq").body) == {"seq": 0, "latest_chapter": None}


def test_a_lane_of_the_threads_board_opens(board: Running) -> None:
    with webnovel.open_project(board.root) as book:
        resolved = [t.id for t in book.threads("resolved", as_of=13)]
        overdue = [t.id for t in book.threads("overdue", as_of=13)]
    page = board.get("/threads?as_of=13&lane=resolved").body
    assert all(f'data-thread="{i}"' in page for i in resolved)
    assert not any(f'data-thread="{i}"' in page for i in overdue)  # folded to a count
    assert f"另有 {len(overdue)} 条，展开这一栏" in page
    assert all(f'data-thread="{i}"' in board.get("/threads?as_of=13").body for i in overdue)


def test_the_chapter_page_shows_one_chapter_as_of_a_chapter(board: Running) -> None:
    with webnovel.open_project(board.root) as book:
        nine = book.chapter(9)
    page = board.get("/chapters/9?as_of=12")
    assert page.status == 200
    assert f"第9章《{nine.title}》" in page.body and html_escape(nine.summary or "") in page.body
    for scene in nine.scenes:
        assert html_escape("、".join(scene.characters)) in page.body
    assert "与韩啸的关系" in page.body and "玄霄门外门弟子" in page.body  # what changed
    assert 'href="/threads/father-rescue?as_of=12"' in page.body
    assert board.get("/chapters/12?as_of=9").status == 404  # not yet written at 9
    assert board.get("/chapters/x?as_of=9").status == 400
    timeline = board.get("/timeline?as_of=12").body
    assert 'href="/chapters/9?as_of=12"' in timeline


def test_candidate_names_are_settled_from_the_page_behind_the_same_token(
    tmp_path: Path,
) -> None:
    from webnovel.ingest.sample_book import sample_book_dir

    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        book.import_text(sample_book_dir() / "chapters")
    with running_dashboard(tmp_path / "book") as running:
        page = running.get("/candidates").body
        assert "待确认" in page and 'data-candidate="林砚"' in page
        assert 'data-candidate="苏晚晴"' not in running.get("/candidates?as_of=5").body
        token = re.search(r'name="token" value="([^"]+)"', page)
        assert token is not None

        def post(fields: dict[str, str], headers: dict[str, str] | None = None) -> Any:
            body = urllib.parse.urlencode(fields).encode()
            kind = {"Content-Type": "application/x-www-form-urlencoded"}
            return running.request("POST", "/candidates/settle", body, {**kind, **(headers or {})})

        accept = {"name": "林砚", "action": "accept", "type": "角色"}
        assert post({**accept, "token": "forged"}).status == 403
        assert post({**accept, "token": token[1]}, {"Origin": "http://x.example"}).status == 403
        assert post({**accept, "token": token[1], "as_of": "12"}).status == 303
        assert (
            post({"name": "韩啸", "action": "merge", "into": "林砚", "token": token[1]}).status
            == 303
        )
        rejected = re.findall(r'data-candidate="([^"]+)"', page)[-1]
        assert post({"name": rejected, "action": "reject", "token": token[1]}).status == 303
        after = running.get("/candidates?as_of=12").body
        for gone in ("林砚", "韩啸", rejected):
            assert f'data-candidate="{gone}"' not in after
        assert post({"name": "周伯", "action": "merge", "token": token[1]}).status == 400
    with webnovel.open_project(tmp_path / "book") as book:
        assert book.entity("林砚").first_chapter == 1
        assert "韩啸" in book.entity("林砚").aliases
        assert rejected not in [c.name for c in book.candidates()]


def test_the_graph_lists_who_shares_chapters_apart_from_relations(board: Running) -> None:
    page = board.get("/graph?center=linyan&as_of=12").body
    assert 'id="cooccurrence"' in page and "不是关系事实" in page
    assert 'data-together="zhoubo"' in page and 'data-together="suwanqing"' in page
    assert 'data-together="suwanqing"' not in board.get("/graph?center=linyan&as_of=9").body


# -- the words a person reads ---------------------------------------------------------------------


class VisibleText(html.parser.HTMLParser):
    """A page's text as a person reads it: text nodes and tooltips (`title`), not scripts,
    styles, URLs or other attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        self.parts += [value for name, value in attrs if name == "title" and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(body: str) -> str:
    reader = VisibleText()
    reader.feed(body)
    return " ".join(reader.parts)


def english_keys(book: webnovel.Project) -> set[str]:
    """Every English key the engine keeps for a field, a thread kind or action, a status, a
    source, a conflict kind or severity, a task, a pack section or a passage's kind: none of them
    is for a person's eyes."""
    from webnovel.memory import vocabulary

    keys = set(book.fields.values)
    for terms in vocabulary.ENUMS.values():
        keys |= {value for value in terms.values if value.isascii()}
    for table in (
        vocabulary.STATUS,
        vocabulary.SOURCE,
        vocabulary.THREAD_STATUS,
        vocabulary.SEVERITY,
        vocabulary.COMMIT_STATUS,
        vocabulary.CONFLICT_KIND,
        vocabulary.ADVICE_KIND,
        vocabulary.CONFLICT_STATUS,
        vocabulary.THREAD_ACTION,
        vocabulary.SECRET_ACTION,
        vocabulary.TASK,
        vocabulary.SECTION,
        vocabulary.CHUNK_KIND,
    ):
        keys |= set(table)
    return keys


def english_in(text: str, keys: set[str]) -> set[str]:
    words = set(re.findall(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])", text))
    return words & keys


def test_english_in_finds_a_key_as_a_word_only() -> None:
    keys = {"status", "realm", "open"}
    assert english_in("林砚 realm：筑基，status 存活", keys) == {"realm", "status"}
    assert english_in("state_changes 里的 opened 与 index.db、state.json", keys) == set()


def test_no_page_of_the_sample_book_shows_an_english_key(board: Running) -> None:
    """Every page a person can open on the sample book (every chapter, entity and thread, the
    pack of every task) names fields, kinds and statuses in Chinese."""
    with webnovel.open_project(board.root) as book:
        keys = english_keys(book)
        latest = book.latest_chapter() or 0
        entities = [e.id for e in book.entities()]
        threads = [t.id for t in book.threads("all")]
    from webnovel.memory.packs.recipes import RECIPES

    paths = {
        *PAGES,
        "/candidates",
        *(f"/chapters/{n}" for n in range(1, latest + 1)),
        *(f"/characters/{urllib.parse.quote(e, safe='')}" for e in entities),
        *(f"/threads/{urllib.parse.quote(t, safe='')}" for t in threads),
        *(f"/pack?task={task}" for task in RECIPES),
    }
    assert {"realm", "spirit_root", "foreshadowing", "open", "advance"} <= keys
    found = {}
    for as_of in (9, latest):
        for path in sorted(paths):
            glue = "&" if "?" in path else "?"
            answer = board.get(quoted(f"{path}{glue}as_of={as_of}"))
            if answer.status == 404:  # an entity or thread of a later chapter
                continue
            assert answer.status == 200, (path, answer.body[:300])
            if english := english_in(visible_text(answer.body), keys):
                found[f"{path} as of {as_of}"] = english
    assert found == {}


def test_the_overview_shows_the_protagonists_snapshot_as_of_the_chapter(board: Running) -> None:
    """主角快照: the protagonist's name and every field that holds as of the page's chapter,
    named in Chinese; nothing of a later chapter."""
    from webnovel.dashboard.pages import show

    with webnovel.open_project(board.root) as book:
        expected = {n: book.facts("linyan", n) for n in (2, 9, 11)}
        labels = book.fields
    for as_of, facts in expected.items():
        body = board.get(f"/?as_of={as_of}").body
        snapshot = snapshot_of(body)
        text = visible_text(snapshot)
        assert "主角快照" in body and "林砚" in text and f"第{as_of}章时" in text
        assert {f.field for f in facts} >= {"realm", "location", "status", "items"}
        for fact in facts:
            assert labels.label(fact.field) in text, (as_of, fact.field)
            assert html_escape(show(fact.value)) in snapshot, (as_of, fact.field)
    assert "金丹" in snapshot_of(board.get("/?as_of=11").body)
    early = snapshot_of(board.get("/?as_of=9").body)
    assert "金丹" not in early and "境界" in early


def snapshot_of(overview: str) -> str:
    return overview.split('id="protagonist"', 1)[1].split("</section>", 1)[0]


def test_a_books_own_fields_are_shown_by_its_own_names(tmp_path: Path) -> None:
    """A field the book declares in config.toml `[fields]` reads by its label on the overview,
    the cards and the entity page; the book's label for a built-in field replaces ours."""
    book = webnovel.init_project(tmp_path / "b", title="测试")
    config = book.root / ".webnovel" / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            '# bloodline = ["血脉", "血统"]', 'bloodline = ["血脉", "血统"]\nrealm = ["修为境界"]'
        ),
        encoding="utf-8",
    )
    book.close()
    with webnovel.open_project(tmp_path / "b") as book:  # the config is read on opening
        book.commit(
            {
                "chapter": 1,
                "entities_new": [
                    {
                        "id": "linyan",
                        "name": "林砚",
                        "is_protagonist": True,
                        "current": {"血统": "上古剑修", "realm": "炼气"},
                    }
                ],
            }
        )
    with running_dashboard(tmp_path / "b") as running:
        for path in ("/", "/characters", "/characters/linyan"):
            text = visible_text(running.get(path).body)
            assert "血脉" in text and "上古剑修" in text and "修为境界" in text, path
            assert english_in(text, {"bloodline", "realm"}) == set(), path


def test_the_overview_names_missing_chapters_as_resume_does(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="缺章之书") as book:
        for chapter in (1, 2, 5):
            book.commit({"chapter": chapter, "summary": f"第{chapter}章"})
        assert (
            book.resume().to_dict()["missing_chapters"] == [3, 4] == book.stats().missing_chapters
        )
    with running_dashboard(tmp_path / "book") as running:
        page = running.get("/?as_of=5").body
        assert 'id="missing-chapters"' in page and "第3、4章尚未提交" in page
        assert 'id="missing-chapters"' not in running.get("/?as_of=2").body


def test_a_conflict_is_said_in_the_language_the_dashboard_speaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conflict committed in Chinese is said again when its page is read: in English for a
    dashboard started with WEBNOVEL_LANG=en."""
    import html

    from webnovel.ingest.sample_book import sample_chapters

    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    result = dict(next(iter(sample_chapters())).result)
    removes = {"entity_id": "linyan", "field": "items", "op": "remove", "new": "玉佩"}
    result["state_changes"] = [*(result.get("state_changes") or []), removes]
    with webnovel.init_project(tmp_path / "book", title="青灯照剑") as book:
        book.commit(result)
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with running_dashboard(tmp_path / "book") as running:
        page = html.unescape(running.get("/conflicts").body)
    assert "林砚: chapter 1 removes '玉佩', but memory's items has no such entry" in page
    assert "第1章移除了" not in page
