"""A chapter the author retracted that an imported text still holds.

A novel's file is the author's whole manuscript: importing it again after `retract 46` would
otherwise commit 46 again as a chapter new to the book, silently undoing what the author did.
So an import tells a retracted chapter apart: when the file still gives the very text it was
retracted with, the retraction stands (the chapter is kept out; `--force` brings it back, as
`restore` does); when the file gives another text, the author rewrote it, and it comes back.
Either way the import says so (docs/contract.md, `import text`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..memory.read.reading import Reading

Fate = Literal["kept_out", "back"]


def fate(store: Reading, chapter: int, text: str, force: bool) -> Fate | None:
    """What an import does with `chapter` when the author retracted it: keeps it out (the file
    still gives the retracted text, and no `force`) or brings it back; None when the chapter
    stands, or was never committed."""
    if store.commits.current_commit(chapter) is not None:
        return None
    retracted = store.commits.earlier_version(chapter, None)
    if retracted is None:
        return None
    return "kept_out" if (retracted["text"] or "") == text and not force else "back"
