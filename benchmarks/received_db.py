"""A received book's `index.db`, tampered with: every command answers in one sentence, nothing
in the file runs, and `rebuild` recovers what it says it can. Seeded, so a failure replays.

Each case takes a fresh copy of a small book and applies one to three tamperings: triggers
(which would wipe the log or the meta if they ran), views standing for tables, dropped or
altered tables and indexes, extra indexes (a UNIQUE one would refuse our rows), deleted or
foreign migration rows, a non-numeric commit sequence, deeply nested JSON in the log, flipped
bytes in the file, a truncated file, a file that is not a database. Then it runs `stats`,
`fact`, `commit` and `rebuild`, and checks:
- no traceback, every refusal one line;
- the log was not touched by anything in the file (a trigger never ran);
- after a `rebuild` that succeeded, the book opens and holds every commit the log could give.

    python benchmarks/received_db.py --cases 300 --seed 1
"""

from __future__ import annotations

import argparse
import io
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import webnovel
from webnovel.cli.main import main as cli

TABLES = ["commits", "chapters", "entities", "versions", "assertions", "meta", "aliases"]
SQL_TAMPERINGS = [
    "CREATE TRIGGER t{n} AFTER INSERT ON commits BEGIN DELETE FROM commits; END",
    "CREATE TRIGGER t{n} BEFORE INSERT ON meta BEGIN DELETE FROM meta; END",
    "CREATE TRIGGER t{n} AFTER UPDATE ON meta BEGIN UPDATE commits SET result_json = 'x'; END",
    "CREATE VIEW v{n} AS SELECT * FROM commits",
    "DROP TABLE {table}",
    "DROP INDEX versions_by_key",
    "CREATE UNIQUE INDEX u{n} ON commits(chapter)",
    "CREATE INDEX i{n} ON entities(name)",
    "ALTER TABLE {table} ADD COLUMN extra{n} TEXT",
    "DELETE FROM schema_migrations WHERE name = '0003_reference_indexes'",
    "DELETE FROM schema_migrations",
    "INSERT INTO schema_migrations VALUES ('9999_future', 'then')",
    "UPDATE meta SET value = 'seven' WHERE key = 'commit_seq'",
    "UPDATE commits SET result_json = '" + "[" * 3000 + "]" * 3000 + "' WHERE chapter = 2",
    "UPDATE commits SET chapter = 'two' WHERE chapter = 2",
    "CREATE TABLE stranger (x)",
]
SWAP_VIEW = [
    "DROP TABLE entities",
    "CREATE VIEW entities AS SELECT 'x' AS id, '秦桧' AS name, NULL AS type, NULL AS tier, "
    "NULL AS description, 0 AS is_protagonist, 0 AS tentative, 1 AS intro_chapter, "
    "1 AS first_chapter, 1 AS last_chapter",
]


def make_book(folder: Path) -> Path:
    root = folder / "book"
    with webnovel.init_project(root, title="收到的书") as book:
        book.commit({"chapter": 1, "entities_new": [{"id": "linyan", "name": "林砚"}]})
        for n in range(2, 6):
            book.commit(
                {
                    "chapter": n,
                    "state_changes": [
                        {"entity_id": "linyan", "field": "location", "new": f"地{n}"}
                    ],
                }
            )
        book.storage.index.checkpoint()
    return root


def tamper(index: Path, rng: random.Random) -> list[str]:
    done = []
    for n in range(rng.randint(1, 3)):
        kind = rng.random()
        if kind < 0.7:
            statements = (
                SWAP_VIEW
                if rng.random() < 0.1
                else [rng.choice(SQL_TAMPERINGS).format(n=n, table=rng.choice(TABLES))]
            )
            conn = sqlite3.connect(index, isolation_level=None)
            try:
                for statement in statements:
                    conn.execute(statement)
                    done.append(statement[:60])
            except (sqlite3.Error, UnicodeDecodeError):
                pass  # a table already dropped, a page already flipped: this one is moot
            finally:
                conn.close()
        elif kind < 0.85:
            data = bytearray(index.read_bytes())
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            index.write_bytes(bytes(data))
            done.append("flipped bytes")
        elif kind < 0.95:
            data = index.read_bytes()
            index.write_bytes(data[: rng.randrange(len(data))])
            done.append("truncated")
        else:
            index.write_bytes(b"plain words, no database " * rng.randint(1, 400))
            done.append("not a database")
    return done


def run(root: Path, *words: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli(["--project", str(root), *words])
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 2
        except BaseException as exc:  # a traceback: what this harness looks for
            return -1, "", f"{type(exc).__name__}: {exc}"
    return int(code or 0), out.getvalue(), err.getvalue()


def log_rows(index: Path) -> int | None:
    try:
        conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM commits").fetchone()[0])
        finally:
            conn.close()
    except (sqlite3.Error, UnicodeDecodeError):  # a flipped byte in an error's own text
        return None


def one_case(template: Path, work: Path, rng: random.Random, counts: Counter[str]) -> list[str]:
    root = work / "book"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(template, root)
    index = root / ".webnovel" / "index.db"
    done = tamper(index, rng)
    before = log_rows(index)
    problems = []
    draft = work / "ch6.json"
    draft.write_text(json.dumps({"chapter": 6, "summary": "六"}), encoding="utf-8")
    for words in (("stats",), ("fact", "林砚", "location"), ("commit", str(draft))):
        code, _, err = run(root, *words)
        counts[f"{words[0]}:{code}"] += 1
        if code < 0 or "Traceback" in err:
            problems.append(f"{done} {words[0]}: {err.strip()[:300]}")
        elif code and len(err.strip().splitlines()) != 1:
            problems.append(f"{done} {words[0]}: not one sentence: {err.strip()[:300]}")
        if code and words[0] == "commit" and before is not None:
            after = log_rows(index)
            if after is not None and after != before:
                problems.append(f"{done}: a refused commit changed the log {before} -> {after}")
    code, out, err = run(root, "rebuild", "--format", "json")
    counts[f"rebuild:{code}"] += 1
    if code < 0 or "Traceback" in err:
        problems.append(f"{done} rebuild: {err.strip()[:300]}")
    elif code == 0:
        try:
            with webnovel.open_project(root) as book:
                book.stats()
        except Exception as exc:  # noqa: BLE001 - any failure after a rebuild is the finding
            problems.append(f"{done}: the rebuilt book does not open: {exc}")
        recovered = json.loads(out).get("recovered")
        if recovered:
            counts["recovered"] += 1
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="webnovel-received-") as scratch:
        template = make_book(Path(scratch) / "template")
        for _ in range(args.cases):
            problems += one_case(template, Path(scratch) / "work", rng, counts)
    print(json.dumps({"cases": args.cases, "counts": dict(sorted(counts.items()))}, indent=1))
    for problem in problems[:40]:
        print("PROBLEM", problem)
    print(f"{len(problems)} problems in {args.cases} cases")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
