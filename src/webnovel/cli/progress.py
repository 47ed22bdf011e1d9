"""A progress bar on stderr for long work; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
import time
from types import TracebackType


class ProgressBar:
    def __init__(self, label: str, width: int = 30) -> None:
        self.label = label
        self.width = width
        self.enabled = sys.stderr.isatty()
        self.started = time.perf_counter()
        self.drawn = False

    def update(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
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
