"""Named, ordered schema migrations of `index.db`, recorded in the database itself.

Append new migrations; never edit an applied one. `migrate` is idempotent: a migration whose name
is recorded is skipped.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime

Migration = tuple[str, str]  # (name, SQL script)

MIGRATIONS: list[Migration] = [
    (
        "0001_core",
        """
    CREATE TABLE commits (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        commit_id TEXT NOT NULL,
        chapter INTEGER NOT NULL,
        result_json TEXT NOT NULL,
        text TEXT,
        recorded_at TEXT NOT NULL
    );
    CREATE INDEX commits_by_chapter ON commits(chapter, seq);

    CREATE TABLE chapters (
        chapter INTEGER PRIMARY KEY,
        commit_seq INTEGER NOT NULL REFERENCES commits(seq),
        commit_id TEXT NOT NULL,
        title TEXT,
        summary TEXT,
        word_count INTEGER,
        meta_json TEXT NOT NULL DEFAULT '{}',
        recorded_at TEXT NOT NULL
    );

    CREATE TABLE entity_intros (
        entity_id TEXT NOT NULL,
        chapter INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        type TEXT,
        tier TEXT,
        description TEXT,
        aliases_json TEXT NOT NULL DEFAULT '[]',
        is_protagonist INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (entity_id, chapter, seq)
    );
    CREATE INDEX entity_intros_by_chapter ON entity_intros(chapter);

    CREATE TABLE entities (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT,
        tier TEXT,
        description TEXT,
        is_protagonist INTEGER NOT NULL DEFAULT 0,
        tentative INTEGER NOT NULL DEFAULT 0,
        intro_chapter INTEGER,
        first_chapter INTEGER,
        last_chapter INTEGER
    );

    CREATE TABLE aliases (
        alias TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        kind TEXT NOT NULL,            -- id, name or alias: the order references prefer
        PRIMARY KEY (alias, entity_id)
    ) WITHOUT ROWID;
    CREATE INDEX aliases_by_entity ON aliases(entity_id);

    CREATE TABLE activities (
        entity_id TEXT NOT NULL,
        chapter INTEGER NOT NULL,
        kind TEXT NOT NULL,
        mention TEXT NOT NULL
    );
    CREATE INDEX activities_by_entity ON activities(entity_id, chapter);
    CREATE INDEX activities_by_chapter ON activities(chapter);

    -- Every temporal family (fact, rel, thread, rule) shares one assertion log and one version
    -- table; `key` names the chain, `subject`/`field`/`obj` serve the as-of lookups.
    CREATE TABLE assertions (
        id INTEGER PRIMARY KEY,
        family TEXT NOT NULL,
        key TEXT NOT NULL,
        subject TEXT NOT NULL,
        field TEXT NOT NULL,
        obj TEXT,
        chapter INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        payload_json TEXT NOT NULL
    );
    CREATE INDEX assertions_by_key ON assertions(family, key, chapter, seq);
    CREATE INDEX assertions_by_chapter ON assertions(chapter);

    CREATE TABLE versions (
        id INTEGER PRIMARY KEY,
        family TEXT NOT NULL,
        key TEXT NOT NULL,
        subject TEXT NOT NULL,
        field TEXT NOT NULL,
        obj TEXT,
        value_json TEXT NOT NULL,
        valid_from INTEGER NOT NULL,
        valid_to INTEGER,
        status TEXT NOT NULL,
        source_chapter INTEGER NOT NULL,
        source_type TEXT NOT NULL,
        confidence REAL NOT NULL,
        evidence_json TEXT NOT NULL,
        recorded_at TEXT NOT NULL
    );
    CREATE INDEX versions_by_key ON versions(family, key, valid_from);
    CREATE INDEX versions_by_subject ON versions(family, subject, valid_from);
    CREATE INDEX versions_by_obj ON versions(family, obj, valid_from) WHERE obj IS NOT NULL;
    CREATE INDEX versions_open ON versions(family, subject) WHERE valid_to IS NULL;

    CREATE TABLE timeline_events (
        id TEXT PRIMARY KEY,
        chapter INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        time_hint TEXT,
        location TEXT,
        event_type TEXT,
        participants_json TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX timeline_by_chapter ON timeline_events(chapter, seq);
    CREATE TABLE timeline_participants (
        event_id TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        chapter INTEGER NOT NULL
    );
    CREATE INDEX timeline_participants_by_entity ON timeline_participants(entity_id, chapter);

    CREATE TABLE scenes (
        chapter INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        location TEXT,
        characters_json TEXT NOT NULL DEFAULT '[]',
        summary TEXT,
        content TEXT,
        PRIMARY KEY (chapter, idx)
    );

    CREATE TABLE conflicts (
        id TEXT PRIMARY KEY,
        scope TEXT NOT NULL,           -- the chain key or entity whose replay derives it
        kind TEXT NOT NULL,
        entity_id TEXT,
        field TEXT,
        chapter INTEGER NOT NULL,
        expected_json TEXT,
        found_json TEXT,
        message TEXT NOT NULL,
        evidence_json TEXT NOT NULL
    );
    CREATE INDEX conflicts_by_scope ON conflicts(scope, chapter);
    CREATE INDEX conflicts_by_entity ON conflicts(entity_id);

    -- Kept apart from `conflicts` so that re-deriving a conflict keeps the author's verdict.
    CREATE TABLE conflict_resolutions (
        conflict_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        note TEXT,
        recorded_at TEXT NOT NULL
    );

    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    ),
    (
        "0002_version_state",
        """
    -- An indexed tag on versions so that "open threads" and "the dead" as of a chapter are
    -- index range scans instead of scans of every version ever written.
    ALTER TABLE versions ADD COLUMN state TEXT;
    UPDATE versions SET state = json_extract(value_json, '$.status') WHERE family = 'thread';
    UPDATE versions SET state = 'dead' WHERE family = 'fact' AND field = 'status'
        AND value_json IN ('"死亡"', '"陨落"', '"身死"');
    CREATE INDEX versions_by_state_end
        ON versions(family, state, IFNULL(valid_to, 4611686018427387904));
    """,
    ),
    (
        "0003_reference_indexes",
        """
    -- Whether an entity is still referenced, and renaming one, look assertions up by entity;
    -- retracting a chapter deletes its timeline participants by chapter.
    CREATE INDEX assertions_by_subject ON assertions(subject);
    CREATE INDEX assertions_by_obj ON assertions(obj) WHERE obj IS NOT NULL;
    CREATE INDEX timeline_participants_by_chapter ON timeline_participants(chapter);
    -- world rules in force join the state index too
    UPDATE versions SET state = 'in_force' WHERE family = 'rule';
    """,
    ),
    (
        "0004_retraction_and_conflict_names",
        """
    -- A retracted commit stays in the log, marked; the chapter then counts as never committed.
    ALTER TABLE commits ADD COLUMN retracted_at TEXT;
    -- Conflict messages keep {who} and {target} and are named when read, so a name committed
    -- later (or revised) is the one shown; `target` is a relation conflict's other entity.
    ALTER TABLE conflicts ADD COLUMN target TEXT;
    -- an introduction marked `revealed` tells more of a known entity: no duplicate_entity
    ALTER TABLE entity_intros ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0;
    -- "open threads / rules in force / the dead as of N": the state index now covers the
    -- start, status, subject and value too, so listing the open threads of a 10,000-chapter book
    -- reads the index alone (41 -> 5 ms); it replaces the narrower index of 0002. Only versions
    -- with a state (threads, rules, deaths) carry one, so it stays small.
    CREATE INDEX versions_state_span ON versions(family, state,
        IFNULL(valid_to, 4611686018427387904), valid_from, status, subject, value_json)
        WHERE state IS NOT NULL;
    DROP INDEX versions_by_state_end;
    """,
    ),
    (
        "0005_commit_stats",
        """
    -- What each commit cost and changed, for the dashboard's observability: written in the
    -- commit's own transaction, keyed by the commit's sequence number. Not derived from the
    -- log, so `rebuild` keeps it.
    CREATE TABLE commit_stats (
        seq INTEGER PRIMARY KEY REFERENCES commits(seq),
        chapter INTEGER NOT NULL,
        elapsed_ms REAL NOT NULL,
        added INTEGER NOT NULL,
        superseded INTEGER NOT NULL,
        contradicted INTEGER NOT NULL,
        tentative INTEGER NOT NULL,
        conflicts INTEGER NOT NULL,
        index_bytes INTEGER NOT NULL
    );
    """,
    ),
    (
        "0006_open_versions_by_end",
        """
    -- The versions open at a chapter are found by their end, not their start: a chain updated
    -- every chapter no longer has every earlier version scanned at each commit (a commit at
    -- chapter 10,000 cost 5x one at 1,000; benchmarks/long_chain.py).
    CREATE INDEX versions_by_key_end ON versions(family, key, valid_to);
    """,
    ),
    (
        "0007_state_span_holds_end",
        """
    -- The state index of 0004 carries the end itself too, after the columns it is searched by.
    -- SQLite before 3.41 does not see that an index on IFNULL(valid_to, ...) holds what a query
    -- asks of valid_to, so "open threads / rules in force as of N" read every row's record from
    -- the table as well: at 10,000 chapters half of a pack's reading of its rules and threads.
    CREATE INDEX versions_state_span_end ON versions(family, state,
        IFNULL(valid_to, 4611686018427387904), valid_from, status, subject, value_json, valid_to)
        WHERE state IS NOT NULL;
    DROP INDEX versions_state_span;
    """,
    ),
    (
        "0008_protagonists_by_first_chapter",
        """
    -- Every pack asks for the protagonist: without this, a scan of every character (5,000 at
    -- 10,000 chapters; a millisecond a pack on PostgreSQL).
    CREATE INDEX entities_protagonists ON entities(first_chapter) WHERE is_protagonist = 1;
    """,
    ),
    (
        "0009_scene_mode_and_time",
        """
    -- A scene may be a flashback or a dream (not the story's present), and may say when it
    -- happens in the story's own words: both read by the pack, review and the story clock.
    ALTER TABLE scenes ADD COLUMN mode TEXT;
    ALTER TABLE scenes ADD COLUMN time TEXT;
    """,
    ),
    (
        "0010_published_revisions",
        """
    -- A commit or retraction forced across the published line (`publish --through N`) keeps
    -- the line it crossed: the log shows it as a revision of a chapter readers already had.
    -- The line itself is the meta row `published_through`.
    ALTER TABLE commits ADD COLUMN published_through INTEGER;
    """,
    ),
    (
        "0011_text_sources",
        """
    -- Where a commit's text came from (`commit --text FILE`: the path, relative to the book's
    -- folder when inside it) and the text's hash, so `status` sees a chapter edited by hand;
    -- `stale` marks a commit that took an edited text without a new result (`sync`).
    ALTER TABLE commits ADD COLUMN text_source TEXT;
    ALTER TABLE commits ADD COLUMN text_hash TEXT;
    ALTER TABLE commits ADD COLUMN stale INTEGER;
    """,
    ),
    (
        "0012_event_mode",
        """
    -- An event may happen in a flashback or a dream, as a scene may: the timeline shows it so,
    -- and it moves nobody now.
    ALTER TABLE timeline_events ADD COLUMN mode TEXT;
    """,
    ),
    (
        "0013_text_sources_indexed",
        """
    -- Every pack asks which chapters are stale, and `status` which texts came from files: the
    -- columns of 0011 sit after a commit's text, so reading them for every commit read every
    -- text's overflow pages (4 ms a pack at 2,000 chapters). Partial indexes hold the few.
    CREATE INDEX commits_stale ON commits(seq, chapter) WHERE stale = 1;
    CREATE INDEX commits_sourced ON commits(seq, chapter, text_source, text_hash, stale)
        WHERE text_source IS NOT NULL;
    """,
    ),
    (
        "0014_time_story_clock",
        """
    -- The story clock as each chapter ends (memory/clock), derived from the scenes' stated times
    -- and the ending's: the clock as of N is one row, whatever the length of the book. A commit
    -- writes its chapter's row and re-derives the rows after it (a shift, mostly: one UPDATE);
    -- `unread_json` names the times of the chapter the clock could not read.
    CREATE TABLE story_clock (
        chapter INTEGER PRIMARY KEY,
        day INTEGER NOT NULL,
        day_latest INTEGER NOT NULL,
        part TEXT,
        unread_json TEXT
    );
    CREATE INDEX story_clock_unread ON story_clock(chapter) WHERE unread_json IS NOT NULL;
    -- the threads due in story time, read by every pack: a few among thousands of threads
    CREATE INDEX versions_due_in_story_time ON versions(family, valid_from)
        WHERE family = 'thread' AND value_json LIKE '%"due_time"%';
    """,
    ),
    (
        "0015_conflict_args",
        """
    -- What a conflict's message says, its catalogue key and arguments (memory/said.py), so that
    -- it is said in the reader's language when read. NULL for a conflict stored before: its
    -- `message` is shown as it was written (until `webnovel rebuild` derives it again).
    ALTER TABLE conflicts ADD COLUMN args_json TEXT;
    """,
    ),
]


def created_tables(migrations: list[Migration] = MIGRATIONS) -> list[str]:
    """The tables the migrations create, in the order they first do (a table refers back)."""
    names = re.findall(
        r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", "\n".join(s for _, s in migrations)
    )
    return list(dict.fromkeys(names))


def migrate(conn: sqlite3.Connection, migrations: list[Migration] = MIGRATIONS) -> list[str]:
    """Apply the migrations not yet recorded; return their names."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    applied = []
    for name, script in migrations:
        if name in done:
            continue
        # executescript would COMMIT on its own; run statement by statement in one transaction.
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements(script):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?)",
                (name, datetime.now(UTC).isoformat(timespec="seconds")),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        applied.append(name)
    return applied


def statements(script: str) -> list[str]:
    """A migration's script as statements, comments dropped (both dialects run them one by one)."""
    lines = [line.split("--")[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
