"""A record of the packs agents were given: chapter, task, tokens used of the budget, time.

Building a pack is a read, and a read must not wait for the book's write lock, so the record is
a line appended to a file beside the stores (one small write, which the OS keeps whole) rather
than a row in index.db. Losing it loses observability, never memory; it is read from its end.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...untrusted import json_limits
from ...untrusted.safe_paths import open_regular
from .memory_pack import MemoryPack

TAIL_BYTES = 4 << 20  # the dashboard reads the latest 4 MB: some 40,000 packs
KEEP_BYTES = 16 << 20  # past this the log is cut back to its latest TAIL_BYTES


def record(path: Path, pack: MemoryPack, elapsed_ms: float) -> None:
    line = json.dumps(
        {
            "chapter": pack.chapter,
            "task": pack.task,
            "used_tokens": pack.used_tokens,
            "budget_tokens": pack.budget_tokens,
            "elapsed_ms": round(elapsed_ms, 2),
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        },
        ensure_ascii=False,
    )
    try:
        # never through a link: a GET of a pack must not append to a file the book points at
        fd = open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > KEEP_BYTES:
            _cut_back(path)
    except OSError:
        pass  # a read-only book still answers; it just keeps no record


def _cut_back(path: Path) -> None:
    """Keep the latest TAIL_BYTES, whole lines, written beside the log and renamed over it. A
    line another process appends meanwhile may be lost: this is observability, not memory."""
    with open(open_regular(path, os.O_RDONLY), "rb") as handle:
        handle.seek(-TAIL_BYTES, os.SEEK_END)
        tail = handle.read()
    tail = tail[tail.find(b"\n") + 1 :]
    spare = path.with_name(path.name + ".tmp")
    with open(open_regular(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "wb") as handle:
        handle.write(tail)
    os.replace(spare, path)


# path → (inode, bytes read, latest entry per chapter): a dashboard asks again and again, and
# between two asks the log only grows by a few lines, so only those are read.
_READ: dict[Path, tuple[int, int, dict[int, dict[str, Any]]]] = {}


def latest_by_chapter(path: Path, up_to: int | None = None) -> dict[int, dict[str, Any]]:
    """The latest recorded pack for each chapter (up to `up_to`)."""
    try:
        with open(open_regular(path, os.O_RDONLY), "rb") as handle:
            stat = os.fstat(handle.fileno())
            inode, size = stat.st_ino, stat.st_size
            known = _READ.get(path)
            if known is not None and known[0] == inode and known[1] <= size:
                _, start, latest = known
                latest = dict(latest)
            else:  # first read, or the log was cut back: read its tail afresh
                start, latest = max(0, size - TAIL_BYTES), {}
            handle.seek(start)
            fresh = handle.read(size - start)
    except OSError:
        return {}
    ended = fresh.rfind(b"\n") + 1  # a line still being written is read next time
    for raw in fresh[:ended].splitlines():
        try:
            entry = json_limits.loads(raw, str(path))
            latest[int(entry["chapter"])] = entry
        except (ValueError, KeyError, TypeError):
            continue  # the first line of a tail may be cut, and nothing here is trusted
    _READ[path] = (inode, start + ended, latest)
    return {c: e for c, e in latest.items() if up_to is None or c <= up_to}
