"""What the facade's helpers take of a book handle, named by what they do with it.

`Project` calls its helpers (renaming, the candidate queue, imports, extraction) and they call
back into the book: read its chapters and entities, commit a result. Were they to name
`Project`, each would import the module that imports it, and neither could be read alone. So
each takes the shape it uses, declared here (this module imports nothing of the facade), and
`Project` fits it without saying so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from ..memory.read.reading import Reading
    from ..memory.records import CommitReport
    from ..memory.schema import Entity
    from ..memory.store.storage import Storage


class Rewriting(Protocol):
    """A book whose chapter results are rewritten and committed again (a rename, a candidate
    accepted or merged, an import, an extraction): its stored chapters and entities, memory read
    through its one reader (`store`), its storage for a write's transaction, and `commit`."""

    @property
    def storage(self) -> Storage: ...

    @property
    def store(self) -> Reading: ...

    def chapters(self) -> list[dict[str, Any]]: ...

    def stored_commit(self, chapter: int) -> dict[str, Any] | None: ...

    def entity(self, reference: str) -> Entity: ...

    def entities(
        self, as_of: int | None = None, entity_type: str | None = None
    ) -> list[Entity]: ...

    def commit(
        self,
        result: Any,
        text: str | None = None,
        chapter: int | None = None,
        check: bool = False,
        force: bool = False,
        text_source: str | None = None,
        weigh: bool = False,
        as_given: bool = False,
    ) -> CommitReport: ...

    def all_or_nothing(self) -> AbstractContextManager[None]: ...


class Closing(Protocol):
    """A handle that is closed when its owner is done with it."""

    def close(self) -> None: ...
