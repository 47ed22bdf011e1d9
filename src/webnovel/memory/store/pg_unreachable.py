"""Why a connection to the store failed, in the author's words first.

libpq (and psycopg, which resolves host names itself) says why in English: "Connection
refused", "Name or service not known", "password authentication failed". An author who reads
Chinese gets the reason in the catalogue's words, and the library's own text after it, in
parentheses, for the DBA who must fix it. Text the table does not know is shown as it is.
"""

from __future__ import annotations

import re

from ...messages import say

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
