"""The garbage collector's policy in the long-lived processes this package runs itself (the MCP
server, the dashboard), never in the library a host program imports.

A full (oldest-generation) collection walks every container alive in the process, and its
modules alone (the interpreter's, the MCP SDK's or Starlette's, ours) cost one 10–15 ms at
10,000 chapters on this machine: the packs that meet one are the slow tail. What a server has
imported and opened before it serves lives as long as the process, so it is moved out of the
collector's sight (`gc.freeze`) once, at start-up; what is made later is collected as usual,
and memory is still freed by reference counts (only cycles among frozen objects would stay).
"""

from __future__ import annotations

import gc
import importlib

from .project import Project

# what a pack and a search import on first use: imported now, so that they are frozen too
_PACK_MODULES = ("webnovel.memory.packs.orchestrator", "webnovel.memory.retrieval.search")


def settle_heap(book: Project) -> None:
    """Import what packs use and open the book's name index, then freeze everything alive."""
    for name in _PACK_MODULES:
        importlib.import_module(name)
    book.aliases()
    gc.collect()
    gc.freeze()
