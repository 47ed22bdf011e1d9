"""The author's reading of each query's answer: labels from the catalogue (Chinese, English when
WEBNOVEL_LANG=en), entities by name, columns padded by display width (a CJK character takes two
columns). The query table (queries/table.py) names one of these for each query; the CLI prints
it for `--format text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..book.coverage import coverage_line
from ..book.words import (
    ADVICE_KIND,
    CHUNK_KIND,
    CONFLICT_KIND,
    CONFLICT_STATUS,
    ENTITY_TYPE,
    FIELD,
    SCENE_MODE,
    SECRET_KIND,
    SOURCE,
    STATUS,
    THREAD_KIND,
    THREAD_STATUS,
    chapter_named,
    label,
    sizes_shown,
    when_words,
)
from ..messages import MESSAGES, say

if TYPE_CHECKING:
    from ..book.reports import BookStats
    from ..book.resume import Resume
    from ..book.values import (
        Conflict,
        Entity,
        Evidence,
        Knowledge,
        RelationEdge,
        SearchHit,
        Secret,
        Thread,
        TimelineEvent,
        Together,
        WorldRule,
    )
    from .answers import FactAnswer, FieldUse, Versions


def width(text: str) -> int:
    """Columns `text` takes on a terminal: wide and full-width characters take two."""
    import unicodedata  # here: JSON output (an agent's) never measures, and the load is 3 ms

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def table(rows: list[list[str]]) -> str:
    """Rows of cells, each column padded to its widest cell (the last one is not padded)."""
    if not rows:
        return ""
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join([*(pad(cell, w) for cell, w in zip(row, widths, strict=False)), row[-1]]).rstrip()
        for row in rows
    )


def listed(items: Sequence[object]) -> str:
    """Items in one line: 甲、乙 (a, b in English)."""
    return say("argument_list_separator").join(map(str, items))


def value_text(value: Any) -> str:
    if isinstance(value, list):
        return listed(value) or say("value_empty")
    return say("value_none") if value is None else str(value)


def interval(valid_from: int, valid_to: int | None) -> str:
    """`[valid_from, valid_to)` in words; a value replaced within its own chapter held only
    inside it."""
    if valid_to is None:
        return say("interval_from", n=valid_from)
    if valid_to <= valid_from:
        return say("interval_within", n=valid_from)
    if valid_to == valid_from + 1:
        return say("chapter_n", n=valid_from)
    return say("chapter_span", a=valid_from, b=valid_to - 1)


def evidence_text(evidence: Sequence[Evidence]) -> str:
    parts = []
    for item in evidence:
        # Without a quote, say what kind of record it was (登场, 状态变化), not its raw ref.
        kind = str(item.get("ref", "")).split(":")[0]
        quote = f"“{item['quote']}”" if item.get("quote") else SOURCE.get(kind, kind)
        parts.append(say("evidence_item", chapter=item.get("chapter"), quote=quote))
    return say("argument_separator").join(parts)


def _field_meant(written: str) -> str | None:
    """The built-in field a field no vocabulary knows was probably meant to be (`relam`: 境界)."""
    if written in FIELD:
        return None
    import difflib  # only when a field is not found

    close = difflib.get_close_matches(written, list(FIELD), n=1, cutoff=0.7)
    return FIELD[close[0]] if close else None


def fact_text(answer: FactAnswer) -> str:
    if answer.every is not None:
        return _every_field_text(answer)
    shown = answer.field_label or label(FIELD, answer.field)
    if answer.nobody_since is not None:  # used up, destroyed, lost: not a missing record
        before = listed(answer.last_holders)
        return say(
            "fact_holder_gone", name=answer.entity_name, since=answer.nobody_since, before=before
        )
    if not answer.found:
        name = answer.entity_name or answer.entity_id
        line = say("fact_not_found", name=name, field=shown)
        meant = _field_meant(answer.field)
        if meant:
            line += "\n  " + say("fact_meant", meant=meant)
        if answer.known_fields:
            line += "\n  " + say("fact_known_fields", fields=listed(answer.known_fields))
        return line
    if answer.holders is not None:  # who holds a named item: no single version to cite
        holders = value_text([name for _, name in answer.holders])
        return say("fact_holders", name=answer.entity_name, holders=holders)
    item = answer.item
    assert item is not None  # found, and not a holder answer
    aged = "" if answer.value_now is None else say("fact_value_now", value=answer.value_now)
    value = value_text(item.value)
    found = say("fact_found", name=item.subject_name, field=shown, value=value, aged=aged)
    where = say(
        "fact_found_where",
        status=STATUS.get(item.status, item.status),
        interval=interval(item.valid_from, item.valid_to),
        chapter=item.source_chapter,
        source=SOURCE.get(item.source_type, item.source_type),
    )
    return f"{found}\n  {where}"


def _every_field_text(answer: FactAnswer) -> str:
    """Who someone is now, one line a field, and where to ask for more."""
    name = answer.entity_name or answer.entity_id
    more = say("fact_every_more", subject=name)
    if not answer.every:
        return f"{say('fact_every_none', name=name)}\n  {more}"
    when = "" if answer.as_of is None else say("fact_every_as_of", chapter=answer.as_of)
    lines = [say("fact_every_heading", name=name, when=when)]
    for now in answer.every:
        aged = "" if now.value_now is None else say("fact_value_now", value=now.value_now)
        held = interval(now.item.valid_from, now.item.valid_to)
        value = value_text(now.item.value)
        row = say("fact_every_row", field=now.label, value=value, aged=aged, when=held)
        lines.append("  " + row)
    return "\n".join([*lines, "  " + more])


def history_text(versions: Versions) -> str:
    if not versions.items:
        return say("history_none")
    rows = [
        [
            say("query_column_field"),
            say("query_column_value"),
            say("query_column_interval"),
            say("query_column_status"),
            say("query_column_evidence"),
        ]
    ]
    rows += [
        [
            versions.labels.get(i.field) or label(FIELD, i.field),
            say("holder_nobody")
            if i.field == "holder" and i.value is None
            else value_text(i.value),
            interval(i.valid_from, i.valid_to),
            STATUS.get(i.status, i.status),
            evidence_text(i.evidence),
        ]
        for i in versions.items
    ]
    return table(rows)


def relations_text(items: Sequence[RelationEdge]) -> str:
    if not items:
        return say("relations_none")
    rows = [
        [
            f"{r.source_name or r.source} —{r.type}→ {r.target_name or r.target}",
            STATUS.get(r.status, r.status),
            interval(r.valid_from, r.valid_to),
            r.description or "",
        ]
        for r in items
    ]
    return table(rows)


def threads_text(items: Sequence[Thread]) -> str:
    if not items:
        return say("threads_none")
    rows = []
    for t in items:
        status = THREAD_STATUS.get(t.status, t.status)
        if t.overdue:
            status = say("thread_status_overdue", status=status)
        due = say("thread_due_chapter", chapter=t.due_chapter) if t.due_chapter else ""
        if t.due_time:  # due in story time: `clock` says how many days are left
            due += say("thread_due_time", due_time=t.due_time)
        # a thread acted on but never planted has no chapter to name (it printed 第None章)
        planted = (
            say("thread_planted_in", chapter=t.planted_chapter)
            if t.planted_chapter is not None
            else say("thread_never_planted")
        )
        rows.append(
            [
                f"[{status}]",
                t.id,
                say(
                    "thread_kind_planted",
                    kind=THREAD_KIND.get(t.kind, t.kind),
                    planted=planted,
                    due=due,
                ),
                t.content,
            ]
        )
    return table(rows)


def rules_text(items: Sequence[WorldRule]) -> str:
    if not items:
        return say("rules_none")
    rows = [
        [r.id, f"[{r.domain or '—'}]", interval(r.valid_from, r.valid_to), r.rule] for r in items
    ]
    return table(rows)


def timeline_text(items: Sequence[TimelineEvent]) -> str:
    if not items:
        return say("timeline_none")
    rows = [
        [
            (say("chapter_n", n=e.chapter) if not e.placed else _story_when(e)),
            (
                say("line_bracketed", word=label(SCENE_MODE, e.flashback))
                if e.flashback and not e.placed
                else ""
            )
            + e.event
            + (say("line_at_place", place=e.location) if e.location else "")
            + (say("aside", text=e.time_hint) if e.time_hint else ""),
        ]
        for e in items
    ]
    return table(rows)


def _story_when(event: TimelineEvent) -> str:
    """An event's day on the story clock, its part of day, and the chapter that tells it."""
    when = when_words(event.day, part=event.part or None)
    mode = say("line_bracketed", word=label(SCENE_MODE, event.flashback)) if event.flashback else ""
    return say("timeline_story_when", when=when, mode=mode, chapter=event.chapter)


def conflict_kind_word(kind: str) -> str:
    """A conflict's kind as an author reads it (a recorded kind, else an advice kind)."""
    return CONFLICT_KIND.get(kind) or ADVICE_KIND.get(kind) or kind


def settled_text(conflict_id: str, status: str, note: str | None) -> str:
    """What settling a conflict did, in one line."""
    why = say("aside", text=note) if note else ""
    shown = label(CONFLICT_STATUS, status)
    return say("conflict_settled", conflict=conflict_id, status=shown, why=why)


def conflicts_text(items: Sequence[Conflict]) -> str:
    if not items:
        return say("open_conflicts_none")
    rows = [
        [
            c.id,
            say("chapter_n", n=c.chapter),
            conflict_kind_word(c.kind)
            + (say("aside", text=label(CONFLICT_STATUS, c.status)) if c.status != "open" else ""),
            c.message,
        ]
        for c in items
    ]
    return table(rows)


def key_word(key: str) -> str:
    """A summary's key as the reader names it (书名 for `title`), from the catalogue's
    `summary_key_<key>`; a key it does not name is shown as it is."""
    message = f"summary_key_{key}"
    return say(message) if message in MESSAGES else key


def stats_text(stats: BookStats) -> str:
    """The book's health, each part under its Chinese name."""
    shown = stats.to_dict()
    shown["sizes_bytes"] = sizes_shown(shown["sizes_bytes"], "store" in shown["book"])
    only = shown.pop("text_only_chapters", [])
    line = coverage_line(only)
    return mapping_text(shown) + (f"\n{line}" if line else "")


def mapping_text(d: dict[str, Any], indent: int = 0) -> str:
    lines = []
    for key, value in d.items():
        shown = key_word(key)
        if isinstance(value, dict):
            lines.append(" " * indent + say("summary_section", key=shown))
            lines.append(mapping_text(value, indent + 2))
        else:
            lines.append(" " * indent + say("summary_line", key=shown, value=value_text(value)))
    return "\n".join(lines)


def resume_text(brief: Resume) -> str:
    lines = [say("resume_head", title=brief.book["title"], chapter=brief.latest_chapter or 0)]
    if brief.coverage_line:
        lines.append(brief.coverage_line)
    if brief.missing_chapters:
        lines.append(say("resume_missing", chapters=chapter_list(brief.missing_chapters)))
    if brief.published_through:
        lines.append(say("published_line_shown", line=brief.published_through))
    if brief.last_chapter:
        last = brief.last_chapter
        summary = last.summary or ""
        named = chapter_named(brief.latest_chapter or 0, last.title)
        line = say("resume_last_chapter", named=named, summary=summary)
        lines.append(line.rstrip())
    if brief.protagonist:
        p = brief.protagonist
        state = say("state_separator").join(
            f"{label(FIELD, k)} {value_text(v)}" for k, v in p.now.items()
        )
        lines.append(say("resume_protagonist", name=p.name, state=state))
    lines += ["", say("resume_open_threads"), threads_text(brief.open_threads)]
    lines += ["", say("resume_open_conflicts"), conflicts_text(brief.open_conflicts)]
    if brief.outline_found:
        names = listed([e.name for e in brief.named_entities]) or say("resume_no_known_entities")
        lines += ["", say("resume_next_outlined", chapter=brief.next_chapter, names=names)]
    else:
        lines += ["", say("resume_next_no_outline", chapter=brief.next_chapter)]
    return "\n".join(lines)


def search_text(hits: Sequence[SearchHit]) -> str:
    if not hits:
        return say("search_none")
    lines = []
    for hit in hits:
        kind = CHUNK_KIND.get(hit.kind, hit.kind)
        parts = [say("search_lexical", score=hit.lexical)]
        if hit.semantic is not None:
            parts.append(say("search_semantic", score=hit.semantic))
        lines.append(
            say(
                "search_hit",
                chapter=hit.chapter,
                kind=kind,
                score=hit.score,
                parts=" · ".join(parts),
                weak=say("search_weak") if hit.weak else "",
                chunk=hit.chunk_id,
            )
        )
        lines.append(f"    {_marked(hit)}")
        if hit.matched:
            lines.append("    " + say("search_matched", words=listed(hit.matched)))
    return "\n".join(lines)


def _marked(hit: SearchHit) -> str:
    """The hit's snippet with its matches in 【】, else the opening of its text."""
    if hit.snippet:
        return hit.marked_snippet()
    text = hit.text.replace("\n", " ")
    return f"{text[:160]}{'…' if len(text) > 160 else ''}"


def entities_text(items: Sequence[Entity]) -> str:
    if not items:
        return say("entities_none")
    rows = [
        [
            say("query_column_name"),
            say("query_column_type"),
            say("query_column_first_seen"),
            say("query_column_aliases"),
            "id",
        ]
    ]
    rows += [
        [
            e.name + (" ★" if e.is_protagonist else ""),
            label(ENTITY_TYPE, e.type),
            say("chapter_n", n=e.first_chapter),
            listed(e.aliases),
            e.id,
        ]
        for e in items
    ]
    return table(rows)


def knows_text(items: Sequence[Knowledge]) -> str:
    if not items:
        return say("knows_none")
    rows = [
        [
            say("knows_state_knows") if k.state == "knows" else say("knows_state_suspects"),
            k.content,
            say("interval_from", n=k.since),
            (k.how or "")
            + (say("knows_source", source=k.source_name or k.source) if k.source else ""),
        ]
        for k in items
    ]
    return table(rows)


def secrets_text(items: Sequence[Secret]) -> str:
    if not items:
        return say("secrets_none")
    rows = [
        [
            say("query_column_secret"),
            say("query_column_reader"),
            say("query_column_reveal_due"),
            say("query_column_known_by"),
            say("query_column_content"),
        ]
    ]
    for secret in items:
        reader = say("secret_reader_knows") if secret.reader_knows else say("secret_reader_unaware")
        if secret.status == "retired":
            reader = say("secret_retired", reader=reader)
        due = say("chapter_n", n=secret.reveal_due) if secret.reveal_due else ""
        holders = listed(secret.known_by) + (
            say("secret_suspected_by", names=listed(secret.suspected_by))
            if secret.suspected_by
            else ""
        )
        kind = say("line_bracketed", word=label(SECRET_KIND, secret.kind)) if secret.kind else ""
        holders = holders or say("value_none")
        rows.append([secret.id, reader, due, holders, kind + secret.content])
    return table(rows)


def fields_text(items: Sequence[FieldUse]) -> str:
    if not items:
        return say("fields_none")
    rows = [
        [
            say("query_column_field"),
            say("query_column_key"),
            say("query_column_entities"),
            say("query_column_synonyms"),
        ]
    ]
    rows += [[f.label, f.field, str(f.entities), listed(f.synonyms[:6])] for f in items]
    return table(rows)


def chapter_list(chapters: Sequence[int]) -> str:
    """[2, 3, 4, 9] → 「第2–4、9章」: runs folded, so a long gap reads in one line."""
    runs: list[list[int]] = []
    for n in chapters:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    if len(runs) == 1 and len(runs[0]) == 1:
        return say("chapter_n", n=runs[0][0])
    parts = [f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    return say("chapters_listed", chapters=listed(parts))


def cooccurrence_text(items: Sequence[Together]) -> str:
    if not items:
        return say("cooccurrence_none")
    rows = [
        [
            say("query_column_person"),
            say("query_column_chapters_together"),
            say("query_column_scenes_together"),
            say("query_column_last_together"),
        ]
    ]
    rows += [
        [
            t.name,
            say("chapters_count", chapters=t.chapters),
            say("scenes_count", scenes=t.scenes),
            say("chapter_n", n=t.last_chapter),
        ]
        for t in items
    ]
    return table(rows) + "\n" + say("cooccurrence_note")
