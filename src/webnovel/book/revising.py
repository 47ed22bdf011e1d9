"""The facade's revising work: what a revision would do before it is made (`impact`), the
published line readers have reached, and the refusal to change what they have already read
unless forced."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput, PublishedChapterRevised, ReplacementChangesAnswers
from ..memory.vocabulary import FIELD, THREAD_STATUS, label
from ..messages import say
from .reader import chapter_number

if TYPE_CHECKING:
    from ..memory.review.impact import AnswerChange, Impact
    from ..memory.store.parts import StoreParts
    from ..memory.store.storage import Storage
    from ..memory.write.write_pipeline import WritePipeline

MAX_CHAPTER = 1_000_000
EXAMPLES_IN_REFUSAL = 3
KNOWING_STATES = frozenset({"knows", "suspects"})  # a `know` chain's values
SECRET_STATES = frozenset({"open", "retired"})  # what an impact reads of a secret's chain


def impact(
    store: StoreParts,
    pipeline: WritePipeline,
    result: Any = None,
    chapter: int | None = None,
    text: str | None = None,
    retract: bool = False,
) -> Impact:
    """What committing `result` as chapter `chapter` (or retracting it) would do; writes
    nothing."""
    from ..memory.review.impact import impact_of

    if retract:
        number = chapter_number(chapter, "chapter")
        if number is None:
            raise InvalidInput.of("impact_needs_chapter")
        return impact_of(pipeline, number, retract=True, published_through=published_through(store))
    if result is None:
        raise InvalidInput.of("impact_needs_file")
    parsed, _ = pipeline.read(result, chapter)
    return impact_of(
        pipeline,
        parsed.chapter,
        result,
        text,
        published_through=published_through(store),
    )


def published_through(store: StoreParts) -> int | None:
    """The last chapter readers have; None when no line is set."""
    return store.commits.published_through()


@contextmanager
def logged_as_published(storage: Storage, line: int | None) -> Iterator[None]:
    """Around a commit or retraction forced across the published line `line` (None: not one):
    in the same transaction, the log marks it a revision of a published chapter."""
    if line is None:
        yield
        return
    with storage.writing() as store:
        yield
        store.commits.mark_published_revision(int(store.commits.meta("commit_seq") or 0), line)


def publish(storage: Storage, through: int) -> int | None:
    """Mark chapters 1..`through` published (0 clears the line); returns the line."""
    if isinstance(through, bool) or not isinstance(through, int) or not 0 <= through <= MAX_CHAPTER:
        raise InvalidInput.of("publish_range", high=MAX_CHAPTER, got=repr(through))
    with storage.writing() as store:  # the line is checked against the book as it is written
        latest = store.commits.latest_chapter() or 0
        if through > latest:
            raise InvalidInput.of("publish_beyond_latest", chapter=through, latest=latest)
        store.commits.set_published_through(through)
    return through or None


def guard_published(
    store: StoreParts,
    pipeline: WritePipeline,
    result: Any,
    chapter: int | None,
    text: str | None,
    retract: bool,
    force: bool,
) -> int | None:
    """Before a commit or retraction: when it would change a chapter readers have, refuse it
    (naming what would change) unless `force`. Returns the published line when a forced one
    crosses it, or when a published chapter's text alone changes (a typo fixed after readers
    read it is normal, allowed without `force`, but the log marks it a revision of a published
    chapter all the same), else None."""
    line = published_through(store)
    if line is None:
        return None
    canonical = None if retract else pipeline.read(result, chapter)
    number = chapter if canonical is None else canonical[0].chapter
    if number is None or number > line:
        return None
    stored = store.commits.current_commit(number)
    if stored is None:
        return None  # a gap below the line filled: nothing readers have is changed
    if canonical is not None and canonical[1].result == stored["result"]:
        return text_revised(stored, text, line)  # a text edited by hand (`sync`): memory stands
    if canonical is not None and filled_in(stored["result"], canonical[1].result):
        return line  # the import's guesses made whole: readers' story is the same; logged
    found = impact(store, pipeline, result, number, text, retract)
    if found.status == "unchanged":
        return text_revised(stored, text, line)
    if force:
        return line
    raise PublishedChapterRevised(refusal(found), found)


def filled_in(stored: Any, new: Any) -> bool:
    """Whether a result fills in a chapter the import read (its stored result the import's own,
    marked, and the new one not): an imported book published through its last chapter gets its
    structured results this way, each needing no author's consent (a trial: every chapter of
    an imported serial was refused until forced)."""
    from ..memory.write.import_shape import import_made, names_found

    return names_found(stored) and not import_made(new)


def text_revised(stored: dict[str, Any], text: str | None, line: int) -> int | None:
    """The published line when `text` replaces a published chapter's stored text (its memory
    unchanged), else None: a commit without a text keeps the stored one."""
    return line if text is not None and text != (stored.get("text") or "") else None


def replacing_earlier(
    store: StoreParts, pipeline: WritePipeline, result: Any, chapter: int | None, text: str | None
) -> Impact | None:
    """The impact of a commit that replaces a chapter before the latest with another result,
    when it changes answers; None for a new chapter, the latest one, the same result (a text
    edited by hand), a replacement that changes no answer, or one of a result an import made
    from the text alone (structured results over an imported book are its normal course: they
    add to the import's guesses, they erase nobody's work). Writes nothing."""
    from ..memory.write.import_shape import import_made

    parsed, intake = pipeline.read(result, chapter)
    number = parsed.chapter
    if number >= (store.commits.latest_chapter() or 0):
        return None
    stored = store.commits.current_commit(number)
    if stored is None or intake.result == stored["result"] or import_made(stored["result"]):
        return None
    found = impact(store, pipeline, result, number, text)
    if found.status == "unchanged" or not found.answers_changed:
        return None
    return found


def replacement_refused(found: Impact) -> ReplacementChangesAnswers:
    """The refusal of a checked commit replacing an earlier chapter: what it would change, the
    answers as `impact` gives them, and the way on (fix the number, or force)."""
    arguments = {
        "chapter": found.chapter,
        "latest": found.as_of,
        "summary": summary(found),
        "examples": _examples(found),
    }
    changes = [c.to_dict() for c in [*found.changed, *found.records]]
    return ReplacementChangesAnswers(arguments, changes, found.answers_changed)


def replacement_note(found: Impact) -> str:
    """What a replacement made without check (or forced) says: how many answers it changed."""
    return say(
        "replacement_answers_changed",
        chapter=found.chapter,
        count=found.answers_changed,
        examples=_examples(found),
    )


def _examples(found: Impact) -> str:
    changes = [change_text(c) for c in found.changed]
    changes += [
        change_text(r) for r in found.records if r.answer not in {c.answer for c in found.changed}
    ]
    return "；".join(changes[:EXAMPLES_IN_REFUSAL]) or say("refusal_own_record_only")


def refusal(found: Impact) -> dict[str, Any]:
    """What the refusal of a published chapter's revision says: what it would change (each
    example once: an answer that changes as of the latest chapter and in the chapter's own
    record reads the same), and only the published chapters it would contradict. Conflicts it
    removes contradict nothing, and the revised chapter is not a chapter it contradicts. Its
    next step, forcing it, is said in the words of the surface showing it (errors.py)."""
    changes = [change_text(c) for c in found.changed]
    changes += [c.message for c in found.conflicts_added]
    changes += [change_text(r) for r in found.records if r.chapter == found.chapter]
    examples = list(dict.fromkeys(changes))[:EXAMPLES_IN_REFUSAL]
    contradicted = contradicted_published(found)
    return {
        "chapter": found.chapter,
        "line": found.published_through,
        "action": say(f"published_revision_action_{found.action}"),
        "summary": summary(found),
        "examples": "；".join(examples) or say("refusal_own_record_only"),
        "contradicts": say(
            "published_revision_contradicts", chapters="、".join(map(str, contradicted))
        )
        if contradicted
        else "",
    }


def contradicted_published(found: Impact) -> list[int]:
    """The published chapters, other than the revised one, where the revision makes a new
    conflict or that a new conflict cites as its evidence (a death revised into chapter 20
    contradicts chapter 25 where the dead man acts; a chapter 10 revised so the dead act
    contradicts chapter 5 where he died)."""
    line = found.published_through
    if line is None:
        return []
    cited: set[int] = set()
    for conflict in found.conflicts_added:
        cited.add(conflict.chapter)
        cited |= {e["chapter"] for e in conflict.evidence if isinstance(e.get("chapter"), int)}
    return sorted(c for c in cited if c != found.chapter and c <= line)


def summary(found: Impact) -> str:
    return say(
        "impact_summary",
        changed=found.answers_changed,
        added=len(found.conflicts_added),
        removed=len(found.conflicts_removed),
        later=len(found.chapters),
    )


def change_text(change: AnswerChange) -> str:
    """One change as the author reads it: 林砚的状态：存活 → 死亡."""
    before, after = _shown(change.before), _shown(change.after)
    if change.kind == "relation":
        return say(
            "impact_relation",
            name=change.entity_name,
            target=change.target_name or change.target,
            before=before,
            after=after,
        )
    if change.kind == "know":
        return say(
            "impact_knows",
            name=change.entity_name,
            secret=change.target_name or change.field,
            before=_knowing(change.before),
            after=_knowing(change.after),
        )
    if change.kind == "secret":
        before, after = (
            say(f"impact_secret_{v}") if v in SECRET_STATES else _shown(v)
            for v in (change.before, change.after)
        )
        return say("impact_secret", secret=change.entity_name, before=before, after=after)
    if change.kind == "entity":
        before, after = _entity_shown(change.before), _entity_shown(change.after)
        return say("impact_entity", name=change.entity_name, before=before, after=after)
    field = label(FIELD, change.field)
    if change.kind == "thread":
        field = say("impact_thread_field")
        before, after = (
            label(THREAD_STATUS, v) if isinstance(v, str) else _shown(v)
            for v in (change.before, change.after)
        )
    elif change.kind == "rule":
        field = say("impact_rule_field")
    return say("impact_change", name=change.entity_name, field=field, before=before, after=after)


def _knowing(value: Any) -> str:
    """知道 / 怀疑: a character's hold on a secret in words."""
    return say(f"knows_state_{value}") if value in KNOWING_STATES else _shown(value)


def _entity_shown(value: Any) -> str:
    if not isinstance(value, dict):
        return say("value_none")
    if value.get("tentative") or value.get("intro_chapter") is None:
        return say("impact_entity_tentative", name=value.get("name"))
    return say("impact_entity_introduced", name=value.get("name"), chapter=value["intro_chapter"])


def _shown(value: Any) -> str:
    if value is None:
        return say("value_none")
    if isinstance(value, list):
        return say("argument_list_separator").join(map(str, value)) or say("value_none")
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
