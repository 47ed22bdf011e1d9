"""The commit log (every raw chapter result ever committed) and the chapters it made current."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ...messages import say
from .connection import Connection
from .index_store import dumps, loads, rows_in

if TYPE_CHECKING:  # made when first built (memory/records.py)
    from ..records import ChapterRecord


def append_commit(
    conn: Connection,
    commit_id: str,
    chapter: int,
    result: Any,
    text: str | None,
    recorded_at: str,
    source: tuple[str | None, str | None, bool] = (None, None, False),
) -> int:
    """`source`: the text's file, its hash and whether the result is stale for it
    (revision_ops)."""
    path, text_hash, stale = source
    row = conn.execute(
        "INSERT INTO commits (commit_id, chapter, result_json, text, recorded_at, text_source, "
        "text_hash, stale) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq",
        (commit_id, chapter, dumps(result), text, recorded_at, path, text_hash, int(stale) or None),
    ).fetchone()
    return int(row[0])


def find_current_commit_id(conn: Connection, chapter: int) -> str | None:
    row = conn.execute("SELECT commit_id FROM chapters WHERE chapter = ?", (chapter,)).fetchone()
    return row[0] if row else None


def retract_chapter(conn: Connection, chapter: int, recorded_at: str) -> tuple[str, int]:
    """Mark the chapter's current commit retracted and log the retraction itself (a tombstone
    row, so the book's commit sequence moves on); the chapter stops counting. Returns the
    retracted commit id and the tombstone's sequence number."""
    row = conn.execute(
        "SELECT commit_seq, commit_id FROM chapters WHERE chapter = ?", (chapter,)
    ).fetchone()
    seq, commit_id = row
    conn.execute("UPDATE commits SET retracted_at = ? WHERE seq = ?", (recorded_at, seq))
    tombstone = append_commit(conn, f"retract:{commit_id}", chapter, None, None, recorded_at)
    conn.execute("UPDATE commits SET retracted_at = ? WHERE seq = ?", (recorded_at, tombstone))
    conn.execute("DELETE FROM chapters WHERE chapter = ?", (chapter,))
    return commit_id, tombstone


def finish_retraction(conn: Connection, chapter: int, tombstone: int) -> None:
    """A retraction's last writes, once the later chapters were re-applied without the chapter:
    the clock row the empty chapter left in its place goes (a rebuild has none, and the clock
    would otherwise end at a chapter that is not there), and the book's sequence moves on."""
    conn.execute("DELETE FROM story_clock WHERE chapter = ?", (chapter,))
    set_meta(conn, "commit_seq", str(tombstone))


def upsert_chapter(
    conn: Connection,
    chapter: int,
    commit_seq: int,
    commit_id: str,
    title: str | None,
    summary: str | None,
    word_count: int | None,
    meta: dict[str, Any],
    recorded_at: str,
) -> None:
    conn.execute(
        "INSERT INTO chapters (chapter, commit_seq, commit_id, title, summary, word_count, "
        "meta_json, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(chapter) DO UPDATE SET commit_seq=excluded.commit_seq, "
        "commit_id=excluded.commit_id, title=excluded.title, summary=excluded.summary, "
        "word_count=excluded.word_count, meta_json=excluded.meta_json, "
        "recorded_at=excluded.recorded_at",
        (chapter, commit_seq, commit_id, title, summary, word_count, dumps(meta), recorded_at),
    )


def current_commits(conn: Connection) -> list[dict[str, Any]]:
    """The commit each chapter currently stands on, in chapter order: what a rebuild replays.
    Read from the log alone: a chapter's latest commit, unless it was retracted."""
    rows = conn.execute(
        "SELECT c.seq, c.commit_id, c.chapter, c.result_json, c.text, c.recorded_at "
        "FROM commits c JOIN (SELECT chapter, MAX(seq) AS seq FROM commits GROUP BY chapter) "
        "last ON last.seq = c.seq WHERE c.retracted_at IS NULL ORDER BY c.chapter"
    ).fetchall()
    return [
        {
            "seq": r["seq"],
            "commit_id": r["commit_id"],
            "chapter": r["chapter"],
            "result": loads(r["result_json"], _in_commit(r["chapter"])),
            "text": r["text"],
            "recorded_at": r["recorded_at"],
        }
        for r in rows
    ]


def chapter_rows(
    conn: Connection,
    start: int | None = None,
    end: int | None = None,
    limit: int | None = None,
    newest_first: bool = False,
) -> list[ChapterRecord]:
    from .. import records

    order = "DESC" if newest_first else "ASC"
    rows = conn.execute(
        "SELECT chapter, commit_id, title, summary, word_count, meta_json, recorded_at "
        "FROM chapters WHERE chapter >= ? AND chapter <= ? ORDER BY chapter " + order + " LIMIT ?",
        (start or 0, end if end is not None else 2**62, limit or 2**62),
    ).fetchall()
    return [
        records.ChapterRecord(
            chapter=r["chapter"],
            commit_id=r["commit_id"],
            title=r["title"],
            summary=r["summary"],
            word_count=r["word_count"],
            meta=loads(r["meta_json"]) or {},
            recorded_at=r["recorded_at"],
        )
        for r in rows
    ]


def latest_chapter(conn: Connection) -> int | None:
    row = conn.execute("SELECT MAX(chapter) FROM chapters").fetchone()
    return None if row[0] is None else int(row[0])


def chapter_totals(conn: Connection, up_to: int | None) -> tuple[int, int]:
    """How many chapters are committed up to `up_to`, and their words."""
    row = conn.execute(
        "SELECT COUNT(*), IFNULL(SUM(word_count), 0) FROM chapters WHERE chapter <= ?",
        (up_to if up_to is not None else 2**62,),
    ).fetchone()
    return int(row[0]), int(row[1])


def schema_names(conn: Connection) -> list[str]:
    """The migrations applied to the book, in order."""
    return [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]


def counts(conn: Connection) -> dict[str, int]:
    tables = (
        "commits",
        "chapters",
        "entities",
        "assertions",
        "versions",
        "timeline_events",
        "scenes",
        "conflicts",
    )
    return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}


def clear_derived(conn: Connection) -> None:
    """Everything but the commit log: what `rebuild` starts from."""
    for table in (
        "chapters",
        "entity_intros",
        "entities",
        "aliases",
        "activities",
        "assertions",
        "versions",
        "timeline_events",
        "timeline_participants",
        "scenes",
        "conflicts",
        "story_clock",
    ):
        conn.execute(f"DELETE FROM {table}")


def get_meta(conn: Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta(conn: Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def chapter_commit_ids(conn: Connection, chapters: list[int] | None = None) -> dict[int, str]:
    """The commit each chapter stands on (of these chapters only, when given)."""
    if chapters is None:
        return dict(conn.execute("SELECT chapter, commit_id FROM chapters").fetchall())
    sql = "SELECT chapter, commit_id FROM chapters WHERE chapter IN ({marks})"
    return {row[0]: row[1] for row in rows_in(conn, sql, chapters)}


def chapters_committed_since(conn: Connection, seq: int) -> list[int]:
    """Chapters with a commit (or a retraction) logged after sequence number `seq`."""
    return [
        r[0] for r in conn.execute("SELECT DISTINCT chapter FROM commits WHERE seq > ?", (seq,))
    ]


def chapter_with_text(conn: Connection, text: str) -> int | None:
    """The first chapter whose current commit holds exactly this text (an import run again)."""
    row = conn.execute(
        "SELECT MIN(ch.chapter) FROM chapters ch JOIN commits c ON c.seq = ch.commit_seq "
        "WHERE c.text = ?",
        (text,),
    ).fetchone()
    return row[0] if row else None


def introductions(conn: Connection, first: int, last: int) -> dict[int, list[Any]]:
    """The `entities_new` of the commits chapters `first`..`last` currently stand on, by
    chapter (chapters that introduce nobody are left out): what re-importing them must keep."""
    rows = conn.execute(
        "SELECT ch.chapter, c.result_json FROM chapters ch "
        "JOIN commits c ON c.seq = ch.commit_seq WHERE ch.chapter BETWEEN ? AND ?",
        (first, last),
    ).fetchall()
    found = {int(r[0]): loads(r[1]).get("entities_new") for r in rows}
    return {chapter: items for chapter, items in found.items() if isinstance(items, list) and items}


def chapters_naming(conn: Connection, chapters: Iterable[int], names: Iterable[str]) -> set[int]:
    """Of these chapters, those whose current result has any of these names in one of its
    strings (a reference, a mention, a summary): found in the stored JSON as written, without
    parsing it, so a wider net than its references, never a narrower one."""
    wanted = sorted(set(chapters))
    escaped = [dumps(name)[1:-1] for name in set(names)]  # as a string inside the JSON has it
    if not wanted or not escaped:
        return set()
    sql = (
        "SELECT ch.chapter, c.result_json FROM chapters ch "
        "JOIN commits c ON c.seq = ch.commit_seq WHERE ch.chapter IN ({marks})"
    )
    return {int(r[0]) for r in rows_in(conn, sql, wanted) if any(e in r[1] for e in escaped)}


def current_commit(conn: Connection, chapter: int) -> dict[str, Any] | None:
    """The stored chapter result and text a chapter currently stands on."""
    row = conn.execute(
        "SELECT c.commit_id, c.result_json, c.text FROM chapters ch "
        "JOIN commits c ON c.seq = ch.commit_seq WHERE ch.chapter = ?",
        (chapter,),
    ).fetchone()
    if row is None:
        return None
    return {"commit_id": row[0], "result": loads(row[1]), "text": row[2]}


def logged_result(conn: Connection, chapter: int, commit_id: str) -> Any:
    """The result a chapter's commit `commit_id` held, from the log (None: no such commit):
    what an author's change is undone to."""
    row = conn.execute(
        "SELECT result_json FROM commits WHERE chapter = ? AND commit_id = ? "
        "ORDER BY seq DESC LIMIT 1",
        (chapter, commit_id),
    ).fetchone()
    return None if row is None else loads(row[0])


def earlier_version(conn: Connection, chapter: int, commit_id: str | None) -> dict[str, Any] | None:
    """A version of the chapter from the log that it does not stand on now (a replaced or a
    retracted commit), with its result and text: the one named by `commit_id` (its full id or
    a prefix of it), else the latest such. None when there is none."""
    sql = (
        "SELECT commit_id, result_json, text FROM commits WHERE chapter = ? "
        "AND commit_id NOT LIKE 'retract:%' AND commit_id <> "
        "COALESCE((SELECT commit_id FROM chapters WHERE chapter = ?), '')"
    )
    args: tuple[Any, ...] = (chapter, chapter)
    if commit_id is not None:
        sql += " AND substr(commit_id, 1, ?) = ?"
        args += (len(commit_id), commit_id)
    row = conn.execute(sql + " ORDER BY seq DESC LIMIT 1", args).fetchone()
    if row is None:
        return None
    return {"commit_id": row[0], "result": loads(row[1], _in_commit(chapter)), "text": row[2]}


def logged_results(conn: Connection, chapter: int) -> list[Any]:
    """Every result the chapter's log holds (replaced ones too, retractions apart), oldest
    first: what an import once registered there is known after an agent's result replaced it."""
    rows = conn.execute(
        "SELECT result_json FROM commits WHERE chapter = ? AND commit_id NOT LIKE 'retract:%' "
        "ORDER BY seq",
        (chapter,),
    )
    return [loads(row[0], _in_commit(chapter)) for row in rows]


def missing_chapters(conn: Connection, before: int | None = None) -> list[int]:
    """Chapter numbers from 1 up to the latest (or up to `before`, excluded) with no current
    commit: the gaps in the book."""
    end = before - 1 if before is not None else latest_chapter(conn) or 0
    rows = conn.execute("SELECT chapter FROM chapters WHERE chapter <= ? ORDER BY chapter", (end,))
    have = {row[0] for row in rows}
    return [n for n in range(1, end + 1) if n not in have]


def has_chapter(conn: Connection, chapter: int) -> bool:
    return (
        conn.execute("SELECT 1 FROM chapters WHERE chapter = ?", (chapter,)).fetchone() is not None
    )


def whole_log(conn: Connection) -> list[dict[str, Any]]:
    """Every commit and retraction ever logged, in the order they happened: what a copy of the
    book replays."""
    rows = conn.execute(
        "SELECT seq, commit_id, chapter, result_json, text, recorded_at FROM commits ORDER BY seq"
    ).fetchall()
    return [
        {
            "seq": r[0],
            "commit_id": r[1],
            "chapter": r[2],
            "result": loads(r[3], _in_commit(r[2])),
            "text": r[4],
            "recorded_at": r[5],
        }
        for r in rows
    ]


def commits_with_before(conn: Connection, seqs: list[int]) -> dict[int, dict[str, Any]]:
    """For each of these commits: whether it is its chapter's first (`first`), whether it kept
    the text of the chapter's commit before it (`same_text`), and, where that is so, its result
    and the one before (`result`, `before`); its result too where it is no longer its chapter's
    current commit (`result`: the title it gave). What the dashboard's recent-commits list
    names a commit by; the rest is not read, so a long import costs no JSON."""
    rows = rows_in(
        conn,
        "SELECT c.seq, c.chapter, p.seq IS NULL, CASE WHEN c.text = p.text THEN 1 ELSE 0 END, "
        "ch.chapter IS NULL, "
        "CASE WHEN c.text = p.text OR ch.chapter IS NULL THEN c.result_json END, "
        "CASE WHEN c.text = p.text THEN p.result_json END "
        "FROM commits c LEFT JOIN commits p ON p.seq = (SELECT max(q.seq) FROM commits q "
        "WHERE q.chapter = c.chapter AND q.seq < c.seq) "
        "LEFT JOIN chapters ch ON ch.chapter = c.chapter AND ch.commit_seq = c.seq "
        "WHERE c.seq IN ({marks})",
        seqs,
    )
    return {
        int(r[0]): {
            "first": bool(r[2]),
            "same_text": bool(r[3]),
            "result": loads(r[5], _in_commit(r[1])),
            "before": loads(r[6], _in_commit(r[1])),
        }
        for r in rows
    }


def delete_meta(conn: Connection, key: str) -> None:
    conn.execute("DELETE FROM meta WHERE key = ?", (key,))


def all_meta(conn: Connection) -> dict[str, str]:
    return {r[0]: r[1] for r in conn.execute("SELECT key, value FROM meta ORDER BY key")}


def _in_commit(chapter: Any) -> Callable[[], str]:
    """Names a log row in a refusal of its JSON (made only when refused)."""
    return lambda: say("json_where_commit", chapter=chapter)
