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
from typing import TYPE_CHECKING, Any

from ..ingest.text_summary import ending_passage as text_ending
from ..memory.records import Thread
from ..memory.schema import Entity
from ..memory.vocabulary import FIELD
from ..memory.write.import_shape import is_minimal
from ..messages import say

if TYPE_CHECKING:
    from .handle import Extracting

RECENT_ENTITIES = 10  # introduced last, listed even when the batch's texts do not name them
MAX_ENTITIES = 80
MAX_THREADS = 40
MAX_SECRETS = 20
MAX_ALIASES = 6
ENDING_CHARS = 300  # of the previous chapter's text, cut at a paragraph where possible
# What memory knows, at most, unless the request's other parts leave less (`run` gives each
# request what its chapter plus 10,000 characters leaves after the instructions, the schema,
# the previous ending and the author's cast). What it cannot list, identity reconciliation
# places (`identity`).
MEMORY_CHARS = 2000
SHARES = (0.6, 0.25, 0.15)  # entities, threads, secrets: a first claim on the budget
HEADINGS = ("context_entities_head", "context_threads_head", "context_secrets_head")


@dataclass(frozen=True)
class MemoryContext:
    """Memory as of `as_of`, rendered; `entity_ids` are the ids it lists."""

    as_of: int
    text: str
    entity_ids: tuple[str, ...]


def memory_context(
    book: Extracting, as_of: int, texts: Iterable[str], budget: int = MEMORY_CHARS
) -> MemoryContext:
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
    entity_lines = [_entity_line(e, states.get(e.id, [])) for e in chosen]
    thread_lines = [_thread_line(t) for t in _pressing(book, as_of)]
    secret_lines = []
    for secret in [s for s in book.secrets(as_of=as_of) if s.status == "open"][-MAX_SECRETS:]:
        knowers = "、".join(secret.known_by) or say("context_nobody")
        reader = say("context_reader_knows" if secret.reader_knows else "context_reader_unaware")
        secret_lines.append(
            say(
                "context_secret_line",
                id=secret.id,
                content=secret.content,
                knowers=knowers,
                reader=reader,
            )
        )
    sections = _within_budget([entity_lines, thread_lines, secret_lines], budget)
    for heading, shown in zip(HEADINGS, sections, strict=True):
        if shown:
            lines += [say(heading), *shown]
    listed = tuple(e.id for e in chosen[: len(sections[0])])  # a prefix of them fit
    return MemoryContext(as_of, "\n".join(lines), listed)


def _within_budget(sections: list[list[str]], budget: int) -> list[list[str]]:
    """The first lines of each section (each in its order of importance) that fit `budget`
    characters: each section may take its share (SHARES), and what one leaves unused goes to
    the next, then back to the first. A long book's context stays the same size."""
    kept: list[list[str]] = [[] for _ in sections]
    left = budget
    for rounds in range(2):
        for index, lines in enumerate(sections):
            allowance = left if rounds else min(left, int(budget * SHARES[index]))
            for line in lines[len(kept[index]) :]:
                if len(line) + 1 > allowance:
                    break
                kept[index].append(line)
                allowance -= len(line) + 1
                left -= len(line) + 1
    return kept


def settled_cast(
    stored: dict[str, Any] | None,
    author: dict[str, list[dict[str, Any]]] | None = None,
    rejected: tuple[str, ...] = (),
) -> str | None:
    """The entities the author settled for the chapter (`candidates accept` and `merge`, and
    the cast its imported result introduces): written into the extracted result whatever the
    model writes, so the model is told to reference them, not register them again."""
    entries = list((author or {}).get("entities_new") or [])
    if is_minimal(stored) and isinstance(stored, dict):
        entries += stored.get("entities_new") or []
    lines = []
    seen: set[str] = set()
    for entity in entries:
        if isinstance(entity, dict) and entity.get("id") in seen:
            continue
        if not isinstance(entity, dict) or not isinstance(entity.get("id"), str):
            continue
        aliases = [a for a in entity.get("aliases") or [] if isinstance(a, str)]
        shown = "、".join(aliases[:MAX_ALIASES])
        more = say("settled_cast_aliases", aliases=shown) if aliases else ""
        seen.add(entity["id"])
        kind = entity.get("type") or "角色"
        lines.append(
            say("settled_cast_line", id=entity["id"], name=entity.get("name"), kind=kind, more=more)
        )
    out = []
    if lines:
        out += [say("settled_cast_head"), *lines]
    if rejected:
        out.append(say("settled_cast_rejected", names="、".join(rejected)))
    return "\n".join(out) or None


def _chosen_entities(book: Extracting, as_of: int, texts: Iterable[str]) -> list[Entity]:
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


def _pressing(book: Extracting, as_of: int) -> list[Thread]:
    """The open threads that matter most: overdue first, then those due soonest, then the
    most recently moved (ranked in SQL; only those listed are read whole)."""
    return [
        book.store.chains.thread_at(v, as_of)
        for v in book.store.chains.pressing_threads(as_of, MAX_THREADS)
    ]


def _thread_line(thread: Thread) -> str:
    due = say("context_thread_due", chapter=thread.due_chapter) if thread.due_chapter else ""
    overdue = say("context_thread_overdue") if thread.overdue else ""
    planted = (
        say("pack_thread_planted", chapter=thread.planted_chapter)
        if thread.planted_chapter is not None
        else say("thread_never_planted")
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
