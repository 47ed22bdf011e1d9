"""The planner's statistics of a PostgreSQL book kept current while one process writes many
chapters in a burst (an import, a bulk commit, an extraction, a replay).

PostgreSQL plans each statement from its statistics of the tables, which autovacuum refreshes
when a table has changed by a tenth, at its next round (a minute apart by default). A writer
that commits hundreds of chapters in that minute runs on the statistics of a much smaller
book, and the plans made for a few rows are slow for many: measured on a book 300 chapters
old, the next commits took 32 ms at p50 with its first statistics and 20 ms after ANALYZE (the
server's time for them, 18 ms and 5.5). So every `CHECK_EVERY` transactions of this process
(a commit is one), the book's tables that have changed by autovacuum's own measure are
analyzed now. A writer of a chapter now and then never gets there: autovacuum keeps up with
it. The server counts a backend's changes at most once a second, so a look sees those of a
second ago; in a burst, the next look sees the rest.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

CHECK_EVERY = 32  # this process's transactions between looks at the book's statistics
# autovacuum's rule for a table to analyze (its default threshold and scale factor)
STALE = "n_mod_since_analyze > 50 + 0.1 * GREATEST(n_live_tup, 0)"


class Statistics:
    def __init__(self) -> None:
        self.commits = 0

    def after_commit(self, raw: psycopg.Connection[Any]) -> None:
        """Count a transaction of this process; at each `CHECK_EVERY`th, analyze the tables of
        the book (the connection's schema) that autovacuum would analyze next. Never fails
        the commit that is already made: a refusal or a dropped connection waits for the
        next look (or for autovacuum)."""
        import psycopg

        self.commits += 1
        if self.commits % CHECK_EVERY:
            return
        with suppress(psycopg.Error):
            stale = raw.execute(
                "SELECT relname FROM pg_stat_user_tables "
                f"WHERE schemaname = current_schema() AND {STALE}"
            ).fetchall()
            for (table,) in stale:
                raw.execute(f'ANALYZE "{table}"')
