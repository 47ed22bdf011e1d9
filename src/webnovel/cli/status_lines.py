"""The lines `status` and `sync` print for files: one a chapter, except that consecutive
chapters from one file (an imported novel's, gone or grown) are said in one line."""

from __future__ import annotations

from typing import Any

from ..messages import say


def file_lines(key: str, entries: list[dict[str, Any]]) -> list[str]:
    """`key`: edited, missing, uncommitted or outside, as `status` answers them."""
    lines = []
    run: list[dict[str, Any]] = []
    for entry in [*entries, None]:
        if entry is not None and run and _follows(run[-1], entry):
            run.append(entry)
            continue
        if len(run) > 1 and key in ("missing", "uncommitted", "outside"):
            first, last = run[0]["chapter"], run[-1]["chapter"]
            lines.append(
                say(
                    f"status_{_kind(key, run[0])}_run",
                    first=first,
                    last=last,
                    count=len(run),
                    path=run[0]["path"],
                )
            )
        else:
            lines += [_line(key, e) for e in run]
        run = [entry] if entry is not None else []
    return lines


def _follows(before: dict[str, Any], entry: dict[str, Any]) -> bool:
    chapter, previous = entry["chapter"], before["chapter"]
    return (
        entry["path"] == before["path"]
        and entry.get("imported") == before.get("imported")
        and chapter is not None
        and previous is not None
        and chapter == previous + 1
    )


def _line(key: str, entry: dict[str, Any]) -> str:
    chapter = entry["chapter"]
    return say(
        f"status_{_kind(key, entry)}",
        chapter=chapter if chapter is not None else "?",
        path=entry["path"],
    )


def _kind(key: str, entry: dict[str, Any]) -> str:
    """An imported file outside the book is let in by importing a copy inside it, not by
    `commit --text`: its lines say so."""
    return "outside_imported" if key == "outside" and entry.get("imported") else key
