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
from ..memory.schema import Entity, Thread
from ..memory.words import FIELD
from .merge import is_minimal

if TYPE_CHECKING:
    from ..book.project import Project

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
HEADINGS = (
    "已知实体（引用时请用 id；新实体才写进 entities_new）：",
    "未回收的线索（推进或回收时沿用 id）：",
    "秘密（揭示或有人得知时沿用 id）：",
)


@dataclass(frozen=True)
class MemoryContext:
    """Memory as of `as_of`, rendered; `entity_ids` are the ids it lists."""

    as_of: int
    text: str
    entity_ids: tuple[str, ...]


def memory_context(
    book: Project, as_of: int, texts: Iterable[str], budget: int = MEMORY_CHARS
) -> MemoryContext:
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
    entity_lines = [_entity_line(e, states.get(e.id, [])) for e in chosen]
    thread_lines = [_thread_line(t) for t in _pressing(book, as_of)]
    secret_lines = []
    for secret in [s for s in book.secrets(as_of=as_of) if s.status == "open"][-MAX_SECRETS:]:
        knowers = "、".join(secret.known_by) or "无人"
        reader = "读者已知" if secret.reader_knows else "读者未知"
        secret_lines.append(f"- {secret.id}：{secret.content}（知情者：{knowers}；{reader}）")
    sections = _within_budget([entity_lines, thread_lines, secret_lines], budget)
    for heading, shown in zip(HEADINGS, sections, strict=True):
        if shown:
            lines += [heading, *shown]
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
        more = "；别名 " + "、".join(aliases[:MAX_ALIASES]) if aliases else ""
        seen.add(entity["id"])
        kind = entity.get("type") or "角色"
        lines.append(f"- {entity['id']}：{entity.get('name')}（{kind}{more}）")
    out = []
    if lines:
        out += ["本章作者已确认的实体（已登记：引用时用 id，不要再写进 entities_new）：", *lines]
    if rejected:
        out.append("作者已否决的名字（不是实体，不要登记）：" + "、".join(rejected))
    return "\n".join(out) or None


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
