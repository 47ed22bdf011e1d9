"""One book's storage folder, `<book>/.webnovel/`: the stores and the derived JSON files.

`index.db` is the source of truth (or, when config.toml names a `[store]`, the book's schema in a
shared PostgreSQL database: `pg/pg_store.py`; the files below stay on each machine); `state.json` and `memory_scratchpad.json` are projections of it,
written atomically (temp file + rename) so a reader never sees half a file. They carry the commit
sequence they were built from, so a stale one (a crash after the database committed, before the
files were rewritten) is noticed on open and rebuilt.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...untrusted import json_limits
from .connection import Connection
from .index_store import IndexStore, SQLiteStore
from .lexical_index import LexicalIndex
from .location import StoreLocation
from .parts import StoreParts
from .vector_store import VECTOR_MIGRATIONS

if TYPE_CHECKING:
    from .pg.pg_vectors import SharedVectors

MEMORY_DIR = ".webnovel"
INDEX_DB = "index.db"
VECTORS_DB = "vectors.db"
LEXICON = "lexicon"
SCRATCHPAD = "memory_scratchpad.json"
STATE = "state.json"
CONFIG = "config.toml"
PACK_LOG = "packs.jsonl"


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON beside the target and rename over it. No fsync: the file is derived and is
    rebuilt from index.db if a power cut ever leaves it empty."""
    import tempfile  # a reading process never writes one (tempfile loads random, shutil)

    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            # one string, one write: json.dump writes each token apart (55,000 writes for the
            # scratchpad at 10,000 chapters, 40 ms; this is 11 ms and the same bytes)
            handle.write(json.dumps(data, ensure_ascii=False, indent=1))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any:
    """A derived JSON file, or None when it is missing or unreadable (nested or grown past
    json_limits' bounds too): it is then rebuilt from index.db."""
    try:
        return json_limits.loads(path.read_text(encoding="utf-8"), str(path))
    except (FileNotFoundError, json.JSONDecodeError):
        return None


class Storage:
    def __init__(
        self,
        memory_dir: Path,
        location: StoreLocation | None = None,
        create: bool = False,
        title: str | None = None,
        created_meta: dict[str, str] | None = None,
    ) -> None:
        """Open (or `create`) the book's index: the SQLite file in `memory_dir`, or the book
        `location` names in a PostgreSQL store (created with `created_meta` in its meta).
        Derived files stay in `memory_dir` either way."""
        self.location = location
        self.index: IndexStore
        if location is None:
            self.index = SQLiteStore(memory_dir / INDEX_DB)
        else:
            from .pg.pg_store import PostgresStore  # psycopg only for books that live there

            self.index = PostgresStore(location, create=create, title=title, meta=created_meta)
        self.vectors_path = memory_dir / VECTORS_DB
        self._vectors: SQLiteStore | None = None
        self.lexicon = LexicalIndex(memory_dir / LEXICON)
        self.scratchpad_path = memory_dir / SCRATCHPAD
        self.state_path = memory_dir / STATE
        self.config_path = memory_dir / CONFIG
        self.pack_log_path = memory_dir / PACK_LOG

    @contextmanager
    def writing(self) -> Iterator[StoreParts]:
        """One transaction (the book's write lock held), its parts bound to it. The facade reads
        outside a transaction through its one reader (`memory/read/reading.py`)."""
        with self.index.atomic() as conn:
            yield StoreParts(conn)

    @property
    def conn(self) -> Connection:
        """The book's connection: sqlite3's, or on PostgreSQL a `PgConnection`; the store's
        queries use only what both offer (`Connection`, connection.py)."""
        return self.index.conn

    def sizes(self) -> dict[str, int]:
        lexicon = self.lexicon.path
        files = {
            "index.db": self.index.size_bytes(),  # on PostgreSQL: the book schema's size
            "vectors.db": self.vectors_path.stat().st_size if self.vectors_path.exists() else 0,
            "lexicon": sum(p.stat().st_size for p in lexicon.glob("*") if p.is_file())
            if lexicon.is_dir()
            else 0,
        }
        for path in (self.scratchpad_path, self.state_path):
            files[path.name] = path.stat().st_size if path.exists() else 0
        return files

    @property
    def vectors(self) -> SQLiteStore:
        """`vectors.db`, opened (and created or migrated) on first use: most commands never
        touch retrieval."""
        if self._vectors is None:
            self._vectors = SQLiteStore(self.vectors_path, VECTOR_MIGRATIONS)
            self._vectors.on_wait = self.index.on_wait
        return self._vectors

    def shared_vectors(self) -> SharedVectors | None:
        """The vectors the store keeps for every machine (a PostgreSQL book), or None: a
        SQLite book's vectors are this folder's `vectors.db` alone."""
        if self.location is None:
            return None
        from .pg.pg_store import PostgresStore
        from .pg.pg_vectors import SharedVectors

        assert isinstance(self.index, PostgresStore)
        return SharedVectors(self.index.pg, self.index.schema)

    def on_wait(self, tell: Callable[[str], None]) -> None:
        """Have every store say so (once per wait) when a writer waits for another process."""
        self.index.on_wait = tell
        if self._vectors is not None:
            self._vectors.on_wait = tell

    def close(self) -> None:
        self.index.close()
        if self._vectors is not None:
            self._vectors.close()
