"""The facade's reads for the dashboard: the commit log with costs, per-chapter costs and pack
sizes, the whole relation graph as of a chapter, appearances, thread histories and passages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import webnovel
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters


def sample(tmp_path: Path, up_to: int = 12) -> webnovel.Project:
    book = webnovel.init_project(tmp_path / "book", title="青灯照剑")
    for chapter in sample_chapters():
        if chapter.number <= up_to:
            book.commit(chapter.result, text=chapter.text)
    return book


def test_every_commit_records_what_it_changed_and_cost(tmp_path: Path) -> None:
    with sample(tmp_path) as book:
        draft = json.loads(
            (sample_book_dir() / "drafts" / "013-draft-with-mistakes.json").read_text("utf-8")
        )
        report = book.commit(draft)
        log = book.commit_log(limit=3)
        assert [e.chapter for e in log] == [13, 12, 11]
        newest = log[0]
        assert newest.counts == report.counts
        assert newest.conflicts == len(report.conflicts) > 0
        assert newest.elapsed_ms is not None and newest.elapsed_ms > 0
        assert newest.index_bytes is not None and newest.index_bytes > log[2].index_bytes
        assert newest.title == "断刀"
        assert [e.chapter for e in book.commit_log(limit=50, as_of=4)] == [4, 3, 2, 1]

        book.retract(13)
        retraction, retracted = book.commit_log(limit=2)
        assert (retraction.kind, retraction.chapter, retraction.counts) == ("retraction", 13, None)
        assert retracted.retracted and retracted.title is None  # no longer the chapter's commit


def test_chapter_costs_follow_the_current_commit_and_the_latest_pack(tmp_path: Path) -> None:
    with sample(tmp_path) as book:
        costs = book.chapter_costs()
        assert [c["chapter"] for c in costs] == list(range(1, 13))
        assert all(c["elapsed_ms"] > 0 and c["pack_tokens"] is None for c in costs)
        pack = book.build_memory_pack("chapter_write", chapter=12)
        inspected = book.build_memory_pack("consistency_check", chapter=5, record=False)
        assert inspected.used_tokens > 0
        costs = {c["chapter"]: c for c in book.chapter_costs()}
        assert costs[12]["pack_tokens"] == pack.used_tokens
        assert costs[12]["pack_task"] == "chapter_write"
        assert costs[5]["pack_tokens"] is None  # an inspection is not a pack given to an agent
        assert [c["chapter"] for c in book.chapter_costs(as_of=3)] == [1, 2, 3]


def test_a_cut_or_foreign_pack_log_is_read_past(tmp_path: Path) -> None:
    with sample(tmp_path, up_to=3) as book:
        book.storage.pack_log_path.write_text('{"chapter": 2, "used_tok\n[1]\n\xff\n', "utf-8")
        book.build_memory_pack(chapter=3)
        tokens = {c["chapter"]: c["pack_tokens"] for c in book.chapter_costs()}
        assert tokens[2] is None and tokens[3] > 0


def test_the_relation_graph_is_the_whole_cast_as_known_then(tmp_path: Path) -> None:
    with sample(tmp_path) as book:
        for as_of in (3, 9, 12):
            graph = {(e.source, e.target, e.type) for e in book.relation_graph(as_of)}
            by_entity = {
                (e.source, e.target, e.type)
                for entity in book.entities(as_of)
                for e in book.relations(entity.id, as_of)
            }
            assert graph == by_entity
        names = {e.id: e.name for e in book.entities(9)}
        for edge in book.relation_graph(9):
            assert edge.source_name == names[edge.source]
            assert edge.target_name == names[edge.target]
        with sample(tmp_path / "prefix", up_to=9) as prefix:
            assert [e.to_dict() for e in prefix.relation_graph(9)] == [
                e.to_dict() for e in book.relation_graph(9)
            ]


def test_appearances_and_thread_history_stop_at_the_chapter(tmp_path: Path) -> None:
    with sample(tmp_path) as book:
        seen = book.appearances("周伯")
        assert seen[0] == 1 and max(seen) <= 7  # dies in chapter 7
        assert book.appearances("林砚", as_of=4) == [1, 2, 3, 4]

        steps = book.thread_history("lamp-origin")
        assert [s.since for s in steps] == sorted(s.since for s in steps)
        assert steps[0].since == 2 and steps[-1].thread.status == "resolved"
        assert all(e["chapter"] == s.since for s in steps for e in s.evidence)
        early = book.thread_history("lamp-origin", as_of=6)
        assert [s.since for s in early] == [s.since for s in steps if s.since <= 6]
        assert early[-1].thread.status == "open"
        assert book.thread_history("no-such-thread") == []


def test_a_passage_is_found_verbatim_or_by_search(tmp_path: Path) -> None:
    with sample(tmp_path) as book:
        texts = {c.number: c.text or "" for c in sample_chapters()}
        verbatim = book.passage(7, "他没死")
        assert verbatim and "他没死" in verbatim and len(verbatim) < len(texts[7])
        paraphrase = book.passage(11, "灵泉洞中三月结丹")  # the agent's words, not the text's
        assert paraphrase and "灵泉洞" in paraphrase and "三月结丹" not in texts[11]
        assert paraphrase.split("\n")[0] in texts[11]
        assert book.passage(99) is None


def test_bulk_reads_agree_with_the_one_at_a_time_answers(tmp_path: Path) -> None:
    with sample(tmp_path) as book:
        for as_of in (4, 9, 12):
            entities = book.entities(as_of)
            ids = [e.id for e in entities]
            edges = book.relation_graph(as_of)
            key = lambda e: (e.source, e.target, e.type)  # noqa: E731

            touching = book.relation_graph(as_of, touching=["linyan"])
            assert {key(e) for e in touching} == {key(e) for e in book.relations("林砚", as_of)}
            pair = {"linyan", "hanxiao"}
            among = book.relation_graph(as_of, among=pair)
            assert {key(e) for e in among} == {
                key(e) for e in edges if e.source in pair and e.target in pair
            }

            degree: dict[str, int] = {}
            for e in edges:
                degree[e.source] = degree.get(e.source, 0) + 1
                degree[e.target] = degree.get(e.target, 0) + 1
            ranked = book.best_connected(as_of, limit=3)
            assert [n for _, n in ranked] == sorted(degree.values(), reverse=True)[:3]
            assert all(degree[entity] == n for entity, n in ranked)

            states = book.states(ids, as_of)
            for entity_id in ids:
                assert [f.to_dict() for f in states[entity_id]] == [
                    f.to_dict() for f in book.facts(entity_id, as_of)
                ]
            assert book.names(ids, as_of) == {e.id: e.name for e in entities}

            progress = book.progress(as_of)
            chapters = [c for c in book.chapters() if c["chapter"] <= as_of]
            assert progress == {
                "chapters": len(chapters),
                "words": sum(c["word_count"] or 0 for c in chapters),
                "entities": len(entities),
            }

            every = book.timeline(as_of=as_of)
            assert book.timeline(as_of=as_of, limit=5) == every[-5:]
            assert (
                book.timeline(entity="林砚", as_of=as_of, limit=2)
                == [e for e in every if "linyan" in e.participants][-2:]
            )


def test_the_pack_log_is_cut_back_to_its_latest_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webnovel.memory.packs import pack_log

    monkeypatch.setattr(pack_log, "KEEP_BYTES", 4000)
    monkeypatch.setattr(pack_log, "TAIL_BYTES", 1000)
    with sample(tmp_path, up_to=3) as book:
        for _ in range(40):
            book.build_memory_pack(chapter=2)
        book.build_memory_pack(chapter=3)
        size = book.storage.pack_log_path.stat().st_size
        lines = book.storage.pack_log_path.read_text("utf-8").splitlines()
        assert size <= 4000 + 200 and all(json.loads(line)["chapter"] in (2, 3) for line in lines)
        assert {c["chapter"]: c["pack_tokens"] for c in book.chapter_costs()}[3] is not None


def test_the_pack_log_is_read_on_from_where_it_was_left(tmp_path: Path) -> None:
    with sample(tmp_path, up_to=6) as book:
        book.build_memory_pack(chapter=2)
        assert {c["chapter"] for c in book.chapter_costs() if c["pack_tokens"]} == {2}
        book.build_memory_pack(chapter=5)
        log = book.storage.pack_log_path
        with log.open("a", encoding="utf-8") as handle:  # another process, half way through
            handle.write('{"chapter": 6, "task": "review", "used_tok')
        assert {c["chapter"] for c in book.chapter_costs() if c["pack_tokens"]} == {2, 5}
        with log.open("a", encoding="utf-8") as handle:
            handle.write('ens": 77}\n')
        tokens = {c["chapter"]: c["pack_tokens"] for c in book.chapter_costs()}
        assert tokens[6] == 77 and tokens[5] and tokens[2]
