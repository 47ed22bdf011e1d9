"""A progress bar on stderr for long work. On a terminal the bar appears once the work has
lasted half a second (a bar that flashes by for a 0.1-second step is noise). When stderr is not
a terminal (an agent's pipe, a log), work that lasts past two seconds says how far it got in a
line every two seconds, so nothing ever waits minutes silently; shorter work says nothing."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType

from ..messages import say

LINE_EVERY_SECONDS = 2.0
BAR_AFTER_SECONDS = 0.5  # on a terminal: quicker work draws no bar


class ProgressBar:
    def __init__(self, work: str, width: int = 30) -> None:
        """`work`: which long work this is (index, commit, import, extract, summarize, embed,
        wiki, rebuild, copy), shown by its name in the reader's language."""
        self.work = say(f"progress_{work}")
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
                line = say(
                    "progress_line",
                    work=self.work,
                    done=done,
                    total=total,
                    seconds=now - self.started,
                )
                print(line, file=sys.stderr)
                self.next_line = now + LINE_EVERY_SECONDS
            return
        elapsed = time.perf_counter() - self.started
        if not self.drawn and elapsed < BAR_AFTER_SECONDS:
            return
        filled = int(self.width * done / total)
        bar = "#" * filled + "." * (self.width - filled)
        shown = say(
            "progress_bar", work=self.work, bar=bar, done=done, total=total, seconds=elapsed
        )
        sys.stderr.write("\r" + shown)
        sys.stderr.flush()
        self.drawn = True

    def labelled(self, work: str) -> Callable[[int, int], None]:
        """An `update` that names another part of the work on this bar (the chapters indexed
        before the vectors are made), so one line shows each part in turn."""
        name = say(f"progress_{work}")

        def update(done: int, total: int) -> None:
            self.work = name
            self.update(done, total)

        return update

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
