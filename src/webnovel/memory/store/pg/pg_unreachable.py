"""Why a connection to the store failed, in the author's words first; and the store's own
errors for what the server refuses or drops mid-work (`said_as_the_store`), so that no adapter
knows PostgreSQL.

libpq (and psycopg, which resolves host names itself) says why in English: "Connection
refused", "Name or service not known", "password authentication failed". An author who reads
Chinese gets the reason in the catalogue's words, and the library's own text after it, in
parentheses, for the DBA who must fix it. Text the table does not know is shown as it is.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from ....errors import NextStep, StoreForbidden, StoreUnavailable, WebnovelError
from ....messages import say

# What libpq or psycopg writes, and the catalogue's reason for it. libpq (15, 16) says why the
# last host it tried failed; its words are the same in every release since 12.
_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Connection refused"), "store_why_refused"),
    (
        re.compile(
            r"failed to resolve host|could not translate host name|Name or service not known"
            r"|nodename nor servname|Temporary failure in name resolution"
        ),
        "store_why_no_host",
    ),
    (re.compile(r"password authentication failed"), "store_why_password"),
    # libpq refused a server asking for the password in clear (url_trust: require_auth)
    (re.compile(r"server requested a cleartext password"), "store_why_cleartext"),
    (re.compile(r"no password supplied|password is required"), "store_why_no_password"),
    (re.compile(r"timeout expired|timed out"), "store_why_timeout"),
    (re.compile(r"no pg_hba\.conf entry"), "store_why_not_allowed"),
    (re.compile(r'database ".*" does not exist'), "store_why_no_database"),
    (re.compile(r'role ".*" does not exist'), "store_why_no_role"),
    (re.compile(r"No route to host|Network is unreachable"), "store_why_no_route"),
)


def why_unreachable(said: str) -> str:
    """The reason a connection failed: the catalogue's, then (in parentheses) the library's
    text on one line; the library's text alone when the reason is not one of ours."""
    said = " ".join(said.split())
    for pattern, reason in _REASONS:
        if pattern.search(said):
            return say("store_why", reason=say(reason), said=said)
    return said


def store_error(exc: BaseException) -> WebnovelError | None:
    """What a PostgreSQL error met in the middle of work means to the author, as the store's
    own error (said in Chinese, exit 1, `store_unavailable` to an agent); None for any other
    error. Opening a book says more (pg_store's own messages); this covers what the server
    refuses or drops later. A lock not granted in time stays the driver's: the store waits
    for its book's lock with a timeout and says so itself (BookBusy)."""
    psycopg = sys.modules.get("psycopg")  # never imported for it: a SQLite book has none
    if psycopg is None or not isinstance(exc, psycopg.Error):
        return None
    said = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return StoreForbidden.of("store_refused", said=said)
    if isinstance(exc, psycopg.OperationalError) and not isinstance(
        exc, psycopg.errors.LockNotAvailable
    ):
        # a commit cut at its last moment may have landed: the step says where to look
        return StoreUnavailable(
            key="store_dropped", arguments={"said": said}, next_step=NextStep("see_resume")
        )
    return None


@contextmanager
def said_as_the_store() -> Iterator[None]:
    """Run a statement; a refusal or a dropped connection leaves as the store's error (the
    driver's error is its cause), so that no adapter needs to know PostgreSQL."""
    try:
        yield
    except Exception as exc:
        if (ours := store_error(exc)) is None:
            raise
        raise ours from exc
