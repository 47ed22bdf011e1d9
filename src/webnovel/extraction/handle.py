"""What extraction uses of a book: what rewriting a chapter's result uses (`book/handles.py`),
and memory as of a chapter for the model's request, the write path's reading of an answer, and
the names and commit sequence that say when memory moved. `Project` fits it; extraction never
names it, so that the facade and extraction do not import each other."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..book.handles import Rewriting

if TYPE_CHECKING:
    from ..memory.read.aliases import AliasIndex
    from ..memory.records import Secret, Thread
    from ..memory.schema import MemoryItem
    from ..memory.write.write_pipeline import WritePipeline


class Extracting(Rewriting, Protocol):
    @property
    def pipeline(self) -> WritePipeline: ...

    def aliases(self) -> AliasIndex: ...

    def commit_seq(self) -> int: ...

    def threads(self, status: str = "open", as_of: int | None = None) -> list[Thread]: ...

    def states(
        self, entity_ids: Iterable[str], as_of: int | None = None
    ) -> dict[str, list[MemoryItem]]: ...

    def secrets(self, as_of: int | None = None) -> list[Secret]: ...

    def flush(self) -> None: ...
