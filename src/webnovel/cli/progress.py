"""A progress bar on stderr for long work. When stderr is not a terminal (an agent's pipe, a
log), work that lasts past two seconds says how far it got in a line every two seconds, so
nothing ever waits minutes silently; shorter work says nothing."""

from __future__ import annotations

import sys
import time
from types import TracebackType

LINE_EVERY_SECONDS = 2.0


class ProgressBar:
    def __init__(self, label: str, width: int = 30) -> None:
        self.label = label
        self.width = width
        self.enabled = sys.stderr.isatty()
        self.started = time.perf_counter()
        self.drawn = False
        self.next_line = self.started + LINE_EVERY_SECONDS

    def update(self, done: int, total: int) -> None:
        if total <= 0:
            return
        if not self.enabled:
            now = time.perf_counter()
            if now >= self.next_line:
                print(f"{self.label} {done}/{total} {now - self.started:.0f}s", file=sys.stderr)
                self.next_line = now + LINE_EVERY_SECONDS
            return
        filled = int(self.width * done / total)
        elapsed = time.perf_counter() - self.started
        sys.stderr.write(
            f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
            f"{done}/{total} {elapsed:.1f}s"
        )
        sys.stderr.flush()
        self.drawn = True

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.drawn:
            sys.stderr.write("\n")
