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
    lines = [f"【记忆：截至第{as_of}章】" if as_of else "【记忆：本书尚无已知内容】"]
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
        lines.append("已知实体（引用时请用 id；新实体才写进 entities_new）：")
        lines += [_entity_line(e, states.get(e.id, [])) for e in chosen]
    threads = _pressing(book, as_of)
    if threads:
        lines.append("未回收的线索（推进或回收时沿用 id）：")
        lines += [_thread_line(t) for t in threads]
    secrets = [s for s in book.secrets(as_of=as_of) if s.status == "open"][-MAX_SECRETS:]
    if secrets:
        lines.append("秘密（揭示或有人得知时沿用 id）：")
        for secret in secrets:
            knowers = "、".join(secret.known_by) or "无人"
            reader = "读者已知" if secret.reader_knows else "读者未知"
            lines.append(f"- {secret.id}：{secret.content}（知情者：{knowers}；{reader}）")
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
        parts.append("；别名 " + "、".join(entity.aliases[:MAX_ALIASES]))
    if entity.is_protagonist:
        parts.append("；主角")
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
    due = f"，预定第{thread.due_chapter}章回收" if thread.due_chapter else ""
    overdue = "，已逾期" if thread.overdue else ""
    planted = (
        f"第{thread.planted_chapter}章埋下" if thread.planted_chapter is not None else "未埋设"
    )
    return f"- {thread.id}（{thread.kind}，{planted}{due}{overdue}）：{thread.content}"


def ending_passage(text: str, chars: int = ENDING_CHARS) -> str:
    """The previous chapter's last paragraphs, about `chars` long (see text_summary)."""
    return text_ending(text, chars)
