"""What memory knows as of a chapter, written for the model that extracts the next ones.

The model references existing ids instead of inventing new ones when it sees them: the entities
with their ids, names, aliases, types and current fields; the open threads and secrets with their
ids; and how the chapter before ended. A long book knows thousands of entities and threads, so
the context lists those the batch's own texts name, the protagonist, the most recently introduced,
and the most pressing threads: a few hundred lines at most, whatever the length of the book.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ingest.text_summary import ending_passage as text_ending
from ..memory.schema import Entity, Thread
from ..memory.words import FIELD
from ..messages import say

if TYPE_CHECKING:
    from ..book.project import Project

RECENT_ENTITIES = 10  # introduced last, listed even when the batch's texts do not name them
MAX_ENTITIES = 80
MAX_THREADS = 40
MAX_SECRETS = 20
MAX_ALIASES = 6
ENDING_CHARS = 300  # of the previous chapter's text, cut at a paragraph where possible


@dataclass(frozen=True)
class MemoryContext:
    """Memory as of `as_of`, rendered; `entity_ids` are the ids it lists."""

    as_of: int
    text: str
    entity_ids: tuple[str, ...]


def memory_context(book: Project, as_of: int, texts: Iterable[str]) -> MemoryContext:
    """What memory knows as of chapter `as_of`, centred on the entities `texts` name. Reads
    only what it lists (a few hundred rows), so its cost does not grow with the book."""
    lines = [say("context_head", as_of=as_of) if as_of else say("context_head_empty")]
    if as_of <= 0:
        return MemoryContext(as_of, lines[0], ())
    chosen = _chosen_entities(book, as_of, texts)
    states: dict[str, list[tuple[str, object]]] = {}
    if chosen:  # values only: evidence is not shown, and decoding it is most of the read
        for v in book.store.chains.versions_at(
            "fact", as_of, subjects=[e.id for e in chosen], evidence=False
        ):
            states.setdefault(v.subject, []).append((v.field or "", v.value))
    if chosen:
        lines.append(say("context_entities_head"))
        lines += [_entity_line(e, states.get(e.id, [])) for e in chosen]
    threads = _pressing(book, as_of)
    if threads:
        lines.append(say("context_threads_head"))
        lines += [_thread_line(t) for t in threads]
    secrets = [s for s in book.secrets(as_of=as_of) if s.status == "open"][-MAX_SECRETS:]
    if secrets:
        lines.append(say("context_secrets_head"))
        for secret in secrets:
            knowers = "、".join(secret.known_by) or say("context_nobody")
            reader = say(
                "context_reader_knows" if secret.reader_knows else "context_reader_unaware"
            )
            lines.append(
                say(
                    "context_secret_line",
                    id=secret.id,
                    content=secret.content,
                    knowers=knowers,
                    reader=reader,
                )
            )
    return MemoryContext(as_of, "\n".join(lines), tuple(e.id for e in chosen))


def _chosen_entities(book: Project, as_of: int, texts: Iterable[str]) -> list[Entity]:
    """The entities the texts name (by the book's alias automaton, kept in step with its
    commits), the protagonist and those introduced last, as chapter `as_of` knew them."""
    entities = book.store.entities
    names = book.aliases()
    named: dict[str, int] = {}
    for text in texts:
        for entity_id, found in names.mentions(text).items():
            named[entity_id] = named.get(entity_id, 0) + len(found)
    wanted = [i for i, _ in sorted(named.items(), key=lambda kv: (-kv[1], kv[0]))]
    protagonist = entities.protagonist()
    if protagonist is not None:
        wanted.insert(0, protagonist.id)
    wanted += entities.recently_introduced(as_of, RECENT_ENTITIES)
    keep = list(dict.fromkeys(wanted))[:MAX_ENTITIES]
    # introductions up to `as_of` decide who is known, and by which names: never a later one
    return entities.known_at(keep, as_of)


def _entity_line(entity: Entity, items: list[tuple[str, object]]) -> str:
    parts = [f"- {entity.id}：{entity.name}（{entity.type}"]
    if entity.aliases:
        parts.append(say("context_aliases", aliases="、".join(entity.aliases[:MAX_ALIASES])))
    if entity.is_protagonist:
        parts.append(say("context_protagonist"))
    parts.append("）")
    fields = []
    for field, value in items:
        label = FIELD.get(field)
        shown = "、".join(map(str, value)) if isinstance(value, list) else str(value)
        fields.append(f"{field}（{label}）={shown}" if label else f"{field}={shown}")
    if fields:
        parts.append(" " + "；".join(fields))
    return "".join(parts)


def _pressing(book: Project, as_of: int) -> list[Thread]:
    """The open threads that matter most: overdue first, then those due soonest, then the
    most recently moved (ranked in SQL; only those listed are read whole)."""
    return [
        book.reading.thread_at(v, as_of)
        for v in book.store.chains.pressing_threads(as_of, MAX_THREADS)
    ]


def _thread_line(thread: Thread) -> str:
    due = say("context_thread_due", chapter=thread.due_chapter) if thread.due_chapter else ""
    overdue = say("context_thread_overdue") if thread.overdue else ""
    planted = (
        say("pack_thread_planted", chapter=thread.planted_chapter)
        if thread.planted_chapter is not None
        else say("pack_thread_never_planted")
    )
    return say(
        "context_thread_line",
        id=thread.id,
        kind=thread.kind,
        planted=planted,
        due=due,
        overdue=overdue,
        content=thread.content,
    )


def ending_passage(text: str, chars: int = ENDING_CHARS) -> str:
    """The previous chapter's last paragraphs, about `chars` long (see text_summary)."""
    return text_ending(text, chars)
