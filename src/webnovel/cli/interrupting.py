"""SIGTERM and SIGHUP taken like Ctrl-C, for the commands whose half-done work must be taken
away (a copy's folder and book) or rolled back (an accepted candidate's chapters)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def interrupted_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP (a closed terminal, `kill`, a stopping service) end the work as
    Ctrl-C does, so that what it made half way is taken away (a copy's folder and book)."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    wanted = [s for s in ("SIGTERM", "SIGHUP") if hasattr(signal, s)]
    before = {name: signal.signal(getattr(signal, name), interrupt) for name in wanted}
    try:
        yield
    finally:
        for name, handler in before.items():
            signal.signal(getattr(signal, name), handler)
