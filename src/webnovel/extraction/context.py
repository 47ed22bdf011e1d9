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

from ..labels import FIELD
from ..memory.read.aliases import AliasIndex
from ..memory.schema import Entity, MemoryItem, Thread
from ..text_summary import ending_passage as text_ending

if TYPE_CHECKING:
    from ..project import Project

RECENT_ENTITIES = 30  # introduced last, listed even when the batch's texts do not name them
MAX_ENTITIES = 150
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
    """What memory knows as of chapter `as_of`, centred on the entities `texts` name."""
    known = book.entities(as_of=as_of) if as_of > 0 else []
    chosen = _chosen_entities(known, texts)
    states = book.states([e.id for e in chosen], as_of=as_of) if chosen else {}
    lines = [f"【记忆：截至第{as_of}章】" if as_of else "【记忆：本书尚无已知内容】"]
    if chosen:
        lines.append("已知实体（引用时请用 id；新实体才写进 entities_new）：")
        for entity in chosen:
            lines.append(_entity_line(entity, states.get(entity.id, [])))
    if as_of > 0:
        threads = _pressing(book.threads("open", as_of=as_of))
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


def _chosen_entities(known: list[Entity], texts: Iterable[str]) -> list[Entity]:
    if not known:
        return []
    names = AliasIndex((n, e.id) for e in known for n in (e.id, e.name, *e.aliases))
    named: dict[str, int] = {}
    for text in texts:
        for entity_id, found in names.mentions(text).items():
            named[entity_id] = named.get(entity_id, 0) + len(found)
    keep = {e.id for e in known if e.is_protagonist}
    keep |= {e.id for e in known[-RECENT_ENTITIES:]}
    keep |= {i for i, _ in sorted(named.items(), key=lambda kv: -kv[1])[:MAX_ENTITIES]}
    return [e for e in known if e.id in keep][:MAX_ENTITIES]


def _entity_line(entity: Entity, items: list[MemoryItem]) -> str:
    parts = [f"- {entity.id}：{entity.name}（{entity.type}"]
    if entity.aliases:
        parts.append("；别名 " + "、".join(entity.aliases[:MAX_ALIASES]))
    if entity.is_protagonist:
        parts.append("；主角")
    parts.append("）")
    fields = []
    for item in items:
        field, value = item.field, item.value
        label = FIELD.get(field)
        shown = "、".join(map(str, value)) if isinstance(value, list) else str(value)
        fields.append(f"{field}（{label}）={shown}" if label else f"{field}={shown}")
    if fields:
        parts.append(" " + "；".join(fields))
    return "".join(parts)


def _pressing(threads: list[Thread]) -> list[Thread]:
    """Overdue first, then those due soonest, then the most recently planted."""
    ranked = sorted(
        threads,
        key=lambda t: (
            not t.overdue,
            t.due_chapter if t.due_chapter is not None else 1 << 40,
            -(t.planted_chapter or 0),
            t.id,
        ),
    )
    return ranked[:MAX_THREADS]


def _thread_line(thread: Thread) -> str:
    due = f"，预定第{thread.due_chapter}章回收" if thread.due_chapter else ""
    overdue = "，已逾期" if thread.overdue else ""
    return f"- {thread.id}（{thread.kind}，第{thread.planted_chapter}章埋下{due}{overdue}）：{thread.content}"


def ending_passage(text: str, chars: int = ENDING_CHARS) -> str:
    """The previous chapter's last paragraphs, about `chars` long (see text_summary)."""
    return text_ending(text, chars)
