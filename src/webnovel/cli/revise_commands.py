"""The revising commands: `impact` (what a revision would do, before it is made) and `publish`
(the published line). Their text reads as an author's change list, chapter by chapter."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..book import hand_edits
from ..book.revising import change_text, summary
from ..book.words import CHUNK_KIND, label
from ..errors import InvalidInput, UnknownChapter
from ..messages import say
from .commands import emit, open_book, read_json_input, read_text_file
from .parsing import Subcommands, add_command
from .status_lines import file_lines

if TYPE_CHECKING:
    from ..book.values import Impact


def add_revise_commands(sub: Subcommands) -> None:
    p = add_command(
        sub,
        "impact",
        impact,
        "help_impact",
        "webnovel impact ch0100-v2.json --chapter 100\n  webnovel impact --retract 100",
    )
    p.add_argument(
        "file",
        nargs="?",
        default=None,
        help="help_impact_file",
    )
    p.add_argument(
        "--chapter",
        type=int,
        default=None,
        help="help_impact_chapter",
    )
    p.add_argument("--text", type=Path, default=None, help="help_impact_text")
    # `--retract N` names the chapter, as `webnovel retract N` does; `--retract --chapter N`
    # (the first spelling) still works
    p.add_argument(
        "--retract", nargs="?", const=True, default=False, metavar="N", help="help_impact_retract"
    )

    p = add_command(
        sub,
        "result",
        stored_result,
        "help_result",
        "webnovel result 100 > ch0100-v2.json\n  webnovel impact ch0100-v2.json",
        formats=("json",),
    )
    p.add_argument("chapter", type=int, help="help_result_chapter")

    p = add_command(
        sub,
        "restore",
        restore,
        "help_restore",
        "webnovel restore 5\n  webnovel restore 5 --commit b2:3743bc61",
    )
    p.add_argument("chapter", type=int, help="help_restore_chapter")
    p.add_argument("--commit", default=None, help="help_restore_commit")
    p.add_argument("--force", action="store_true", help="help_restore_force")

    p = add_command(
        sub,
        "publish",
        publish,
        "help_publish",
        "webnovel publish --through 400",
    )
    p.add_argument(
        "--through",
        type=int,
        required=True,
        help="help_publish_through",
    )


def restore(args: argparse.Namespace) -> int:
    from . import render

    with open_book(args) as book:
        report = book.restore(args.chapter, args.commit, force=args.force)
    emit(args, report.to_dict(), lambda _: render.commit_text(report))
    return 0


def add_hand_edit_commands(sub: Subcommands) -> None:
    add_command(
        sub,
        "status",
        status,
        "help_status",
        "webnovel status",
    )
    p = add_command(
        sub,
        "sync",
        sync,
        "help_sync",
        "webnovel sync\n  webnovel sync --extract\n  webnovel sync --extract --yes",
    )
    p.add_argument(
        "--extract",
        action="store_true",
        help="help_sync_extract",
    )
    p.add_argument("--yes", action="store_true", help="help_sync_yes")
    p.add_argument(
        "--force",
        action="store_true",
        help="help_sync_force_published",
    )


def status(args: argparse.Namespace) -> int:
    with open_book(args) as book:
        found = hand_edits.status(book)
    emit(args, found.to_dict(), lambda _: status_text(found.to_dict()))
    return 0


def sync(args: argparse.Namespace) -> int:
    with open_book(args) as book:
        done = hand_edits.sync(book, extract=args.extract, commit=args.yes, force=args.force)
        if done.synced:
            book.catch_up_search()
    data = done.to_dict()
    emit(args, data, lambda _: "\n\n".join([sync_text(data), *map(proposal_text, done.proposals)]))
    return 0


def proposal_text(proposal: hand_edits.Proposal) -> str:
    said = "sync_committed" if proposal.committed else "sync_not_committed"
    return "\n".join([impact_text(proposal.impact), say(said, chapter=proposal.chapter)])


def status_text(found: dict[str, Any]) -> str:
    lines = []
    for key in ("edited", "missing", "uncommitted", "outside"):
        lines += file_lines(key, found.get(key, []))
    lines += [
        say("status_link", chapter=link["chapter"] or "?", path=link["path"], target=link["target"])
        for link in found.get("links", [])
    ]
    if found["stale"]:
        lines.append(say("status_stale", chapters="、".join(map(str, found["stale"]))))
    return "\n".join(lines) or say("status_in_step")


def sync_text(done: dict[str, Any]) -> str:
    remade = set(done.get("remade") or [])
    stale = [c for c in done["synced"] if c not in remade]
    lines = [say("sync_done", chapters="、".join(map(str, stale)))] if stale else []
    if remade:  # an import's own result, made again from the new text: not stale
        lines.append(say("sync_done_remade", chapters="、".join(map(str, sorted(remade)))))
    if done.get("published_revised"):
        from .render import published_revised  # loaded when it is said, as `commit`'s text

        lines.append(published_revised(done["published_revised"], done["published_through"]))
    lines += file_lines("missing", done["missing"])
    return "\n".join(lines) or say("status_in_step")


def impact(args: argparse.Namespace) -> int:
    retract = args.retract is not False
    chapter = retracted_chapter(args.retract, args.chapter) if retract else args.chapter
    result = None if retract or args.file is None else read_json_input(args.file)
    text = read_text_file(args.text) if args.text else None
    with open_book(args) as book:
        found = book.impact(result, chapter=chapter, text=text, retract=retract)
    emit(args, found.to_dict(), lambda _: impact_text(found))
    return 0


def stored_result(args: argparse.Namespace) -> int:
    """The result chapter N stands on, as committed: a file to edit and pass to `impact` and
    `commit` (the dashboard's 改稿 page loads the same)."""
    with open_book(args) as book:
        stored = book.stored_commit(args.chapter)
    if stored is None:
        raise UnknownChapter(args.chapter)
    emit(args, stored["result"], lambda _: "")
    return 0


def retracted_chapter(given: str | bool, chapter: int | None) -> int | None:
    """The chapter of `--retract N` (or of `--retract --chapter N`): both, only if they agree."""
    if given is True:
        return chapter
    try:
        number = int(str(given).strip())
    except ValueError:
        raise InvalidInput.of("impact_retract_not_chapter", given=given) from None
    if chapter is not None and chapter != number:
        raise InvalidInput.of("impact_retract_two_chapters", given=number, chapter=chapter)
    return number


def publish(args: argparse.Namespace) -> int:
    with open_book(args) as book:
        line = book.publish(args.through)
    data = {"published_through": line}
    emit(
        args, data, lambda _: say("publish_done", chapter=line) if line else say("publish_cleared")
    )
    return 0


PASSAGES_SHOWN = 3  # of those lost and of those gained, each cut to PASSAGE_CHARS
PASSAGE_CHARS = 60


def passages_text(found: Impact) -> list[str]:
    """What search and the summaries lose and gain: counted, and the first few shown."""
    if not (found.passages_lost or found.passages_gained):
        return []
    lines = [
        say(
            "impact_passages",
            chapter=found.chapter,
            lost=len(found.passages_lost),
            gained=len(found.passages_gained),
        )
    ]
    for key, passages in (
        ("impact_passage_lost", found.passages_lost),
        ("impact_passage_gained", found.passages_gained),
    ):
        for passage in passages[:PASSAGES_SHOWN]:
            text = passage["text"].replace("\n", " ")
            cut = text[:PASSAGE_CHARS] + ("…" if len(text) > PASSAGE_CHARS else "")
            lines.append(say(key, kind=label(CHUNK_KIND, passage["kind"]), text=cut))
    return lines


def impact_text(found: Impact) -> str:
    """The author's change list: what the answers become, then chapter by chapter what breaks
    or mends, the published line drawn where readers stand."""
    action = say(f"impact_action_{found.action}")
    lines = [say("impact_head", action=action, chapter=found.chapter, as_of=found.as_of)]
    if found.status == "unchanged":
        return "\n".join([*lines, say("impact_unchanged", chapter=found.chapter)])
    lines.append(summary(found))
    if found.changed:
        lines.append(say("impact_changed_head", as_of=found.as_of))
        lines += [say("impact_record", change=change_text(c)) for c in found.changed]
    line = found.published_through
    by_chapter: dict[int, list[str]] = {}
    for record in found.records:
        by_chapter.setdefault(record.chapter or found.chapter, []).append(
            say("impact_record", change=change_text(record))
        )
    for c in found.conflicts_added:
        by_chapter.setdefault(c.chapter, []).append(say("impact_conflict_added", message=c.message))
    for c in found.conflicts_removed:
        by_chapter.setdefault(c.chapter, []).append(
            say("impact_conflict_removed", message=c.message)
        )
    drawn = line is None
    for chapter in sorted(by_chapter):
        if not drawn and line is not None and chapter > line:
            lines.append(say("impact_published_line", line=line))
            drawn = True
        mark = say("impact_published_mark") if line is not None and chapter <= line else ""
        lines.append(say("commits_chapter", chapter=chapter) + mark)
        lines += by_chapter[chapter]
    if not drawn and line is not None:
        lines.append(say("impact_published_line", line=line))
    if not found.chapters:
        lines.append(say("impact_nothing_later"))
    lines += passages_text(found)
    if line is None:
        lines.append(say("impact_no_line"))
    return "\n".join(lines)
