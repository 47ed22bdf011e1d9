"""The rename control of an entity's page: a new name from a chapter on, and the undo of the
entity's latest rename, through the same facade call as `webnovel rename` (book/renaming.py).

The form is read here, the write is the facade's: a refusal (a name another entity holds, a
chapter before the entity's introduction) is its own message, shown beside the form with what
was typed, and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..book.project import Project
from ..book.renaming import Renamed, latest_rename
from ..errors import InvalidInput
from ..messages import say
from .form_numbers import written_chapter


@dataclass(frozen=True, kw_only=True, slots=True)
class RenameUndo:
    """The entity's latest rename, which the page offers to take back."""

    old_name: str
    name: str
    from_chapter: int | None  # None when the kept record does not say


@dataclass(frozen=True, kw_only=True, slots=True)
class RenameControl:
    """What the form shows: the entity's name now (whatever chapter the page is shown as of, a
    rename is made on the book), the lowest chapter it may start from, the undo on offer, and
    after a refusal, the refusal with the form as it was filled in."""

    name: str
    first_chapter: int | None
    latest_chapter: int | None
    undo: RenameUndo | None
    new_name: str = ""
    from_chapter: str = ""
    refused: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Posted:
    """A posted rename form: `rename` (with the new name and maybe the chapter) or `undo`."""

    action: str
    new_name: str
    from_chapter: str

    @classmethod
    def of(cls, form: dict[str, list[str]]) -> Posted:
        def first(key: str) -> str:
            return (form.get(key) or [""])[0]

        return cls(
            action=first("action"),
            new_name=first("new_name").strip(),  # as the CLI takes it: the facade judges it
            from_chapter=first("from_chapter").strip(),
        )


def control(
    book: Project, entity_id: str, posted: Posted | None = None, refused: str | None = None
) -> RenameControl:
    """The control for the entity `entity_id`, refilled from `posted` after a refusal."""
    entity = book.entity(entity_id)
    kept = latest_rename(book.store, entity.id)
    undo = None
    if kept is not None:
        # the author's layer is the book's meta, which a received book brings as it likes
        chapters = kept.get("chapters")
        start = chapters[0] if isinstance(chapters, list) and chapters else None
        undo = RenameUndo(
            old_name=str(kept.get("old_name") or ""),
            name=str(kept.get("name") or ""),
            from_chapter=start if isinstance(start, int) and not isinstance(start, bool) else None,
        )
    return RenameControl(
        name=entity.name,
        first_chapter=entity.first_chapter,
        latest_chapter=book.latest_chapter(),
        undo=undo,
        new_name=posted.new_name if posted is not None and refused else "",
        from_chapter=posted.from_chapter if posted is not None and refused else "",
        refused=refused,
    )


def submit(book: Project, entity_id: str, posted: Posted) -> Renamed:
    """Rename the entity or undo its latest rename, as the form asks; the facade refuses what
    it must (raising, nothing written)."""
    if posted.action == "undo":
        return book.rename_entity(entity_id, "", undo=True)
    if posted.action != "rename":
        raise InvalidInput.of("rename_unknown_action", action=posted.action[:20])
    raw = posted.from_chapter
    start = written_chapter(raw, "from_chapter") if raw else None
    if raw and start is None:
        raise InvalidInput.of("chapter_not_digits", raw=raw[:40])
    return book.rename_entity(entity_id, posted.new_name, start)


def done_text(done: Renamed) -> str:
    """The notice the page shows after the write."""
    if done.action == "undone":
        return say("page_rename_undone", old=done.old_name, name=done.name)
    return say("page_renamed", old=done.old_name, name=done.name, chapter=done.from_chapter)
