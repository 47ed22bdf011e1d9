"""The memory orchestrator: one `build_memory_pack()` that reads working, episodic, semantic and
graph memory as of the chapter before the one being written, scores every candidate with a
reason, and fills a token budget by the task's recipe.

Nothing from chapter N or later reaches a pack for chapter N: every read is as of N − 1, and
entities first seen at N or later count as new, not as memory.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from ...config import BookConfig
from ...errors import InvalidInput
from ..chains import Version
from ..read import graph_memory
from ..read.aliases import AliasIndex
from ..schema import Thread
from ..store import chain_ops, commit_ops, entity_ops
from .budget_manager import RECIPES, Recipe, allocate, estimate_tokens
from .memory_pack import (
    MemoryPack,
    PackItem,
    PackRequest,
    PackSection,
    Passage,
    Retriever,
    chapter_span,
    value_text,
)
from .relevance_filter import (
    InPlay,
    bigrams,
    conflicts_in_play,
    field_importance,
    find_in_play,
    freshness,
    relations_around,
    shared_terms,
)

T = TypeVar("T")
OUTLINE_CHARS = 400
ENDING_LABELS = {"time": "时间", "location": "地点", "emotion": "情绪"}  # chapter_meta.ending
CANDIDATES_PER_SECTION = 80


def build_memory_pack(
    conn: sqlite3.Connection,
    config: BookConfig,
    aliases: AliasIndex,
    request: PackRequest,
    recipe: Recipe | None = None,
    retriever: Retriever | None = None,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> MemoryPack:
    if request.chapter < 1:
        raise InvalidInput(f"chapter must be >= 1, got {request.chapter}")
    recipe = recipe or RECIPES[request.task]
    budget = request.budget_tokens if request.budget_tokens is not None else recipe.default_budget
    if budget < 1:
        raise InvalidInput(f"budget_tokens must be a positive number of tokens, got {budget}")
    as_of = request.chapter - 1
    in_play = find_in_play(
        conn, aliases, {"outline": request.outline, "query": request.query}, request.focus, as_of
    )
    names = {e.id: e.name for e in in_play.entities.values()}
    gather = _Gatherer(conn, config, recipe, request, as_of, in_play, names)
    events = gather.timeline()
    sections = {
        "working_memory": gather.working_memory(),
        "character_state": gather.character_state(),
        "constraints": gather.constraints(),
        "relations": gather.relations(),
        "threads": gather.threads(),
        "world_rules": gather.world_rules(),
        "timeline": events,
        "history": gather.history(),
        "episodic": gather.episodic(retriever, events),
    }
    for items in sections.values():
        for item in items:
            item.tokens = count_tokens(item.line) + 1
    conflicts, conflict_tokens = conflicts_in_play(conn, in_play, as_of, budget, count_tokens)
    allocation = allocate(sections, budget - conflict_tokens, recipe)
    packed = [
        PackSection(name, _reading_order(name, items)) for name, items in allocation.chosen.items()
    ]
    return MemoryPack(
        request.task,
        request.chapter,
        budget,
        allocation.used + conflict_tokens,
        packed,
        conflicts,
        allocation.dropped,
        [{"id": e.id, "name": e.name, "why": in_play.why[e.id]} for e in in_play.entities.values()],
    )


def _reading_order(name: str, items: list[PackItem]) -> list[PackItem]:
    if name == "character_state":
        return sorted(items, key=lambda i: (i.subject, i.field))
    if name in ("timeline", "history", "working_memory"):
        return sorted(items, key=lambda i: (i.source_chapter or 0, -i.score))
    return sorted(items, key=lambda i: -i.score)


def _top(
    scored: list[tuple[float, str, T]], k: int = CANDIDATES_PER_SECTION
) -> list[tuple[float, str, T]]:
    """The k best (score, why, thing) triples: sections that grow with the book (rules, threads,
    the dead) are cut to a few screens of candidates before items are built and costed."""
    return sorted(scored, key=lambda triple: -triple[0])[:k]


class _Gatherer:
    """Candidates for each section, each with a score and a reason."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        config: BookConfig,
        recipe: Recipe,
        request: PackRequest,
        as_of: int,
        in_play: InPlay,
        names: dict[str, str],
    ) -> None:
        self.scores = recipe.scoring
        self.conn = conn
        self.config = config
        self.recipe = recipe
        self.request = request
        self.as_of = as_of
        self.in_play = in_play
        self.names = names
        self.context_terms = bigrams((request.outline or "") + (request.query or ""))

    def name(self, entity_id: str) -> str:
        if entity_id not in self.names:
            found = entity_ops.entity_names(self.conn, [entity_id])
            self.names[entity_id] = found.get(entity_id, entity_id)
        return self.names[entity_id]

    def fresh(self, chapter: int | None) -> float:
        return freshness(chapter, self.as_of, self.recipe.recency_window)

    # -- working memory -------------------------------------------------------------------------

    def working_memory(self) -> list[PackItem]:
        items = []
        if self.request.outline:
            # one line, without Markdown headings, so it stays one item of the prompt's list
            outline = " ".join(
                line.strip().lstrip("#").strip()
                for line in self.request.outline.splitlines()
                if line.strip()
            )
            shown = outline[:OUTLINE_CHARS] + ("……" if len(outline) > OUTLINE_CHARS else "")
            outline_item = self._item(
                layer="working",
                category="outline",
                subject=f"ch{self.request.chapter}",
                field_name="outline",
                value=shown,
                chapter=None,
                source_type="outline",
                evidence=[],
                score=1.0,
                why="the chapter's outline (pinned: kept whenever it fits the budget)",
                line=f"- 本章大纲：{shown}",
            )
            outline_item.pinned = True
            items.append(outline_item)
        rows = commit_ops.chapter_rows(
            self.conn,
            start=max(1, self.as_of - self.recipe.recent_chapters + 1),
            end=self.as_of,
        )
        for row in rows:
            chapter = row.chapter
            if row.summary:
                items.append(
                    self._item(
                        layer="working",
                        category="story_state",
                        subject=f"ch{chapter}",
                        field_name="summary",
                        value=row.summary,
                        chapter=chapter,
                        source_type="summary",
                        evidence=[{"chapter": chapter, "ref": f"summary:ch{chapter:04d}"}],
                        score=self.scores.summary
                        + self.scores.summary_step * (chapter - self.as_of),
                        why=f"summary of recent chapter {chapter}",
                        line=f"- 第{chapter}章《{row.title or ''}》：{row.summary}",
                    )
                )
            ending = row.meta.get("ending")
            if chapter == self.as_of and isinstance(ending, dict) and ending:
                text = "，".join(f"{ENDING_LABELS.get(k, k)}：{v}" for k, v in ending.items() if v)
                items.append(
                    self._item(
                        layer="working",
                        category="story_state",
                        subject=f"ch{chapter}",
                        field_name="ending",
                        value=ending,
                        chapter=chapter,
                        source_type="chapter_meta",
                        evidence=[{"chapter": chapter, "ref": f"chapter_meta:ch{chapter:04d}"}],
                        score=self.scores.ending,
                        why="where the previous chapter ended",
                        line=f"- 上章结尾（第{chapter}章）：{text}",
                    )
                )
        return items

    # -- semantic: character state and constraints ----------------------------------------------

    def character_state(self) -> list[PackItem]:
        items = []
        for entity_id, entity in self.in_play.entities.items():
            relevance = self.in_play.relevance[entity_id]
            for fact in graph_memory.facts_of(self.conn, entity, self.as_of):
                score = relevance * field_importance(fact.field)
                items.append(
                    self._item(
                        layer="semantic",
                        category="character_state",
                        subject=entity_id,
                        field_name=fact.field,
                        value=fact.value,
                        chapter=fact.valid_from,
                        source_type=fact.source_type,
                        evidence=list(fact.evidence),
                        score=score,
                        why=f"{entity.name}: {self.in_play.why[entity_id]}",
                        line=f"- {entity.name} {fact.field}：{value_text(fact.value)}"
                        f"（第{fact.valid_from}章起）",
                    )
                )
        return items

    def constraints(self) -> list[PackItem]:
        scored = []
        for version in chain_ops.versions_in_state(self.conn, "fact", "dead", self.as_of):
            if version.subject in self.in_play.entities:
                scored.append(
                    (self.scores.dead_in_play, "named for this chapter but dead", version)
                )
            else:
                score = self.scores.dead_elsewhere * self.fresh(version.valid_from)
                scored.append((score, f"died at ch {version.valid_from}", version))
        return [
            self._item(
                layer="semantic",
                category="active_constraints",
                subject=v.subject,
                field_name="status",
                value=v.value,
                chapter=v.valid_from,
                source_type=v.source_type,
                evidence=list(v.evidence),
                score=score,
                why=why,
                line=f"- {graph_memory.dead_constraint(self.name(v.subject), v.value, v.valid_from)}",
            )
            for score, why, v in _top(scored)
        ] + self.secrets()

    def secrets(self) -> list[PackItem]:
        """The information gap around the characters in play (`graph_memory.information_gap`),
        worded for the writer."""
        characters = {e.id for e in self.in_play.entities.values() if e.type == "角色"}
        items = []
        for gap in graph_memory.information_gap(
            self.conn, self.as_of, self.request.chapter, characters
        ):
            secret = gap.secret
            if gap.kind == "due":
                score, why, line = (
                    self.scores.reveal_due,
                    "a reveal due in this chapter",
                    "本章应揭示",
                )
            elif gap.kind == "author_only":
                score, why, line = (
                    self.scores.author_only,
                    "the reader does not know it yet",
                    "仅作者知（勿在叙述中揭示）",
                )
            else:
                who = self.name(gap.entity_id or "")
                score = self.scores.unaware * self.in_play.relevance[gap.entity_id or ""]
                why, line = f"{who} is in play and does not know it", f"{who} 尚不知"
            evidence = [{"chapter": secret.planted_chapter, "ref": f"secret:{secret.id}"}]
            items.append(
                self._item(
                    layer="semantic",
                    category="active_constraints",
                    subject=secret.id,
                    field_name="secret",
                    value=secret.content,
                    chapter=secret.planted_chapter,
                    source_type="secret",
                    evidence=evidence,
                    score=score,
                    why=why,
                    line=f"- {line}：{secret.content}",
                )
            )
        return items

    # -- graph: relations ----------------------------------------------------------------------

    def relations(self) -> list[PackItem]:
        """Relations around the entities in play, `recipe.graph_depth` hops out
        (`relevance_filter.relations_around`)."""
        scored = relations_around(
            self.conn, self.in_play, self.as_of, self.recipe.graph_depth, self.fresh
        )
        top = _top(scored)
        for _, _, edge in top:  # the edges carry their names
            self.names.update({edge.source: edge.source_name, edge.target: edge.target_name})
        return [
            self._item(
                layer="graph",
                category="relationship",
                subject=edge.source,
                field_name=f"relation:{edge.target}",
                value=edge.type,
                chapter=edge.valid_from,
                source_type="relationship",
                evidence=list(edge.evidence),
                score=score,
                why=why,
                line=f"- {self.name(edge.source)} → {self.name(edge.target)}：{edge.type}"
                f"（第{edge.valid_from}章起）",
            )
            for score, why, edge in top
        ]

    # -- threads --------------------------------------------------------------------------------

    def threads(self) -> list[PackItem]:
        scored = []
        for row_id, due, urgency, related, last in chain_ops.thread_candidates(
            self.conn, self.as_of
        ):
            score, why = self._thread_score(due, urgency, related or "[]", last)
            scored.append((score, why, row_id))
        top = _top(scored)
        versions = chain_ops.versions_by_id(self.conn, [row_id for _, _, row_id in top])
        return [
            self._thread_item(
                graph_memory.thread_at(versions[row_id], self.request.chapter), score, why
            )
            for score, why, row_id in top
        ]

    def _thread_item(self, thread: Thread, score: float, why: str) -> PackItem:
        due = f"，第{thread.due_chapter}章前回收" if thread.due_chapter else ""
        flag = "【已逾期】" if thread.overdue else ""
        progress = f"；进展：{thread.progress}" if thread.progress else ""
        category = "reader_promises" if thread.kind == "reader_promise" else "open_loops"
        evidence = [{"chapter": thread.planted_chapter, "ref": f"thread:{thread.id}:plant"}]
        line = (
            f"- {flag}{thread.content}（{thread.kind}，第{thread.planted_chapter}章埋下{due}"
            f"{progress}）"
        )
        return self._item(
            layer="semantic",
            category=category,
            subject=thread.id,
            field_name=thread.kind,
            value=thread.content,
            chapter=thread.planted_chapter,
            source_type="thread",
            evidence=evidence,
            score=score,
            why=why,
            line=line,
        )

    def _thread_score(
        self, due: int | None, urgency: int | None, related_json: str, last_chapter: int | None
    ) -> tuple[float, str]:
        weight = (urgency or 50) / 100
        chapter = self.request.chapter
        s = self.scores
        if due is not None and due < chapter:
            return s.overdue[0] + s.overdue[1] * weight, f"overdue since ch {due}"
        if due is not None and due - chapter <= s.due_window:
            left = due - chapter
            return s.due_soon[0] + s.due_soon[
                1
            ] * weight, f"thread due at ch {due}, {left} chapters left"
        # a substring test on the JSON list: no decoding for each of thousands of open threads
        in_play = [e for e in self.in_play.entities if f'"{e}"' in related_json]
        if in_play:
            return s.thread_in_play[0] + s.thread_in_play[
                1
            ] * weight, f"involves {self.name(in_play[0])}"
        return s.thread_other[0] + s.thread_other[1] * weight * self.fresh(
            last_chapter
        ), "open thread"

    # -- world rules ----------------------------------------------------------------------------

    def world_rules(self) -> list[PackItem]:
        scored = []
        for candidate in chain_ops.rule_candidates(self.conn, self.as_of):
            _, text, domain, since = candidate
            shared = shared_terms(text + (domain or ""), self.context_terms)
            if shared:
                base, step = self.scores.rule_shared
                score = min(1.0, base + step * len(shared))
                why = f"shares terms with the outline: {'、'.join(shared[:3])}"
            else:
                base, step = self.scores.rule_other
                score = base + step * self.fresh(since)
                why = f"rule in force since ch {since}"
            scored.append((score, why, candidate))
        items = []
        for score, why, (rule_id, text, domain, since) in _top(scored):
            items.append(
                self._item(
                    layer="semantic",
                    category="world_rules",
                    subject=rule_id,
                    field_name="rule",
                    value=text,
                    chapter=since,
                    source_type="world_rule",
                    evidence=[{"chapter": since, "ref": f"world_rule:{rule_id}:{since}"}],
                    score=score,
                    why=why,
                    line=f"- {'[' + domain + '] ' if domain else ''}{text}（第{since}章）",
                )
            )
        return items

    # -- episodic: events, recent changes, passages ---------------------------------------------

    def timeline(self) -> list[PackItem]:
        items, seen = [], set()
        start = max(1, self.as_of - self.recipe.recency_window)
        for entity_id, entity in self.in_play.entities.items():
            for event in graph_memory.timeline(self.conn, start, self.as_of, entity):
                if event.id in seen:
                    continue
                seen.add(event.id)
                relevance = self.in_play.relevance[entity_id]
                score = self.scores.event * relevance * self.fresh(event.chapter)
                place = f"＠{event.location}" if event.location else ""
                items.append(
                    self._item(
                        layer="episodic",
                        category="timeline",
                        subject=event.id,
                        field_name="event",
                        value=event.event,
                        chapter=event.chapter,
                        source_type="timeline",
                        evidence=[{"chapter": event.chapter, "ref": f"timeline:{event.id}"}],
                        score=score,
                        why=f"event involving {entity.name} (ch {event.chapter})",
                        line=f"- 第{event.chapter}章：{event.event}{place}",
                    )
                )
        return items

    def history(self) -> list[PackItem]:
        """For each field of an entity in play, the value it held until lately (if it changed
        within the recency window), so a writer does not slip back to it. Only the latest
        superseded value per field: the current ones are in `character_state`."""
        items = []
        start = max(1, self.as_of - self.recipe.recency_window)
        for entity_id, entity in self.in_play.entities.items():
            latest: dict[str, Version] = {}
            for version in chain_ops.subject_versions_between(
                self.conn, "fact", entity_id, start, self.as_of
            ):
                ended = version.valid_to
                if version.status == "tentative" or ended is None or ended > self.as_of:
                    continue
                if ended > version.valid_from:  # a value replaced in its own chapter never held
                    latest[version.field] = version
            for version in latest.values():
                ended = version.valid_to or self.as_of
                score = (
                    self.scores.history
                    * self.in_play.relevance[entity_id]
                    * self.fresh(ended)
                    * field_importance(version.field)
                )
                items.append(
                    self._item(
                        layer="episodic",
                        category="character_state",
                        subject=entity_id,
                        field_name=version.field,
                        value=version.value,
                        chapter=version.valid_from,
                        source_type=version.source_type,
                        evidence=list(version.evidence),
                        score=score,
                        why=f"recent change of {entity.name} (until ch {ended})",
                        line=f"- {entity.name} {version.field} 曾为{value_text(version.value)}"
                        f"（{chapter_span(version.valid_from, ended - 1)}，已变）",
                        status="contradicted" if version.status == "contradicted" else "outdated",
                    )
                )
        return items

    def episodic(self, retriever: Retriever | None, events: list[PackItem]) -> list[PackItem]:
        text = " ".join(filter(None, [self.request.outline, self.request.query]))
        if retriever is not None and text:
            passages = retriever(text, self.as_of, 8)
        else:
            passages = self._summaries_of(events)
        return [
            self._item(
                layer="episodic",
                category=p.kind,
                subject=p.chunk_id,
                field_name="passage",
                value=p.text,
                chapter=p.chapter,
                source_type=p.kind,
                evidence=[{"chapter": p.chapter, "ref": p.chunk_id}],
                score=p.score,
                why=f"{p.kind} from ch {p.chapter}",
                line=f"- 第{p.chapter}章：{' '.join(p.text.split())}",
            )
            for p in passages
            if p.chapter <= self.as_of
        ]

    def _summaries_of(self, events: list[PackItem]) -> list[Passage]:
        """Without a retriever: summaries of older chapters where the entities in play acted."""
        recent_start = self.as_of - self.recipe.recent_chapters + 1
        chapters: dict[int, float] = {}
        for event in events:
            if event.source_chapter and event.source_chapter < recent_start:
                chapters[event.source_chapter] = max(
                    chapters.get(event.source_chapter, 0), event.score
                )
        passages = []
        for chapter, score in sorted(chapters.items(), key=lambda kv: -kv[1])[:6]:
            rows = commit_ops.chapter_rows(self.conn, start=chapter, end=chapter)
            if rows and rows[0].summary:
                passages.append(
                    Passage(
                        f"summary:ch{chapter:04d}",
                        chapter,
                        "chapter_summary",
                        rows[0].summary,
                        self.scores.summary_passage * score,
                    )
                )
        return passages

    # -- one item -------------------------------------------------------------------------------

    def _item(
        self,
        *,
        layer: str,
        category: str,
        subject: str,
        field_name: str,
        value: Any,
        chapter: int | None,
        source_type: str,
        evidence: list[dict[str, Any]],
        score: float,
        why: str,
        line: str,
        status: str = "active",
    ) -> PackItem:
        return PackItem(
            id=f"{category}:{subject}:{field_name}:{chapter}",
            layer=layer,
            category=category,
            subject=subject,
            field=field_name,
            value=value,
            status=status,
            source_chapter=chapter,
            source_type=source_type,
            evidence=[e for e in evidence if (e.get("chapter") or 0) <= self.as_of],
            score=score,
            why=why,
            subject_name=self.names.get(subject, ""),
            line=line,
        )
