"""The memory orchestrator: one `build_memory_pack()` that reads working, episodic, semantic and
graph memory as of the chapter before the one being written, scores every candidate with a
reason, and fills a token budget by the task's recipe.

Nothing from chapter N or later reaches a pack for chapter N: every read is as of N − 1, and
entities first seen at N or later count as new, not as memory.
"""

from __future__ import annotations

from collections.abc import Callable

from ...config import BookConfig
from ...errors import InvalidInput
from ..read.aliases import AliasIndex
from ..store import commit_ops, ranking_scans, record_ops
from ..store.connection import Connection
from ..store.ranking_scans import RankingCache as RankingCache  # the facade holds one
from . import episodic_sections, story_sections, working_sections
from .gathering import Gathering, scene_terms
from .memory_pack import MemoryPack, PackItem, PackRequest, PackSection, Retriever
from .must_know import KINDS, conflict_items, gather_must_know
from .recipes import RECIPES, Recipe, allocate, estimate_tokens
from .relevance_filter import find_in_play, rule_terms
from .scene_cast import Surroundings, extend_cast


def build_memory_pack(
    conn: Connection,
    config: BookConfig,
    aliases: AliasIndex,
    request: PackRequest,
    recipe: Recipe | None = None,
    retriever: Retriever | None = None,
    count_tokens: Callable[[str], int] = estimate_tokens,
    held: RankingCache | None = None,
) -> MemoryPack:
    """The pack for `request`; `held` (from `ranking_cache()`, one per book handle) keeps the
    book's rules and its dead in memory between packs while the book is unchanged."""
    if request.chapter < 1:
        raise InvalidInput.of("chapter_at_least_one", got=request.chapter)
    recipe = recipe or RECIPES[request.task]
    budget = request.budget_tokens if request.budget_tokens is not None else recipe.default_budget
    if budget < 1:
        raise InvalidInput.of("budget_positive", got=budget)
    as_of = request.chapter - 1
    gather, around = _gathering(conn, config, aliases, request, recipe, as_of, held)
    sections = _sections(gather, recipe, retriever, count_tokens)
    in_play = gather.in_play
    conflicts = record_ops.list_conflicts(conn, entity_ids=list(in_play.entities), up_to=as_of)
    listed = {c.id for c in conflicts}
    conflicts += [c for c in (around.recent_conflicts if around else []) if c.id not in listed]
    must = gather_must_know(
        sections, conflict_items(conflicts, set(in_play.entities)), budget, count_tokens
    )
    sections = {"must_know": must, **sections}
    allocation = allocate(sections, budget, recipe)
    packed = [
        PackSection(name, _reading_order(name, items)) for name, items in allocation.chosen.items()
    ]
    shown = {i.id for i in allocation.chosen.get("must_know", []) if i.category == "conflict"}
    by_id = {f"conflict:{c.id}": c for c in conflicts}
    latest = commit_ops.latest_chapter(conn)
    pack = MemoryPack(
        request.task,
        request.chapter,
        budget,
        allocation.used,
        packed,
        [by_id[i] for i in sorted(shown, key=lambda i: -by_id[i].chapter)],
        allocation.dropped,
        [
            {
                "id": e.id,
                "name": e.name,
                "why": str(in_play.why[e.id]),
                "why_zh": in_play.why[e.id].shown(),
            }
            for e in in_play.entities.values()
        ],
    )
    # asked past the book's end: memory reaches only its last chapter, and the pack says so
    pack.memory_through = min(as_of, latest) if latest is not None else as_of
    return pack


def _gathering(
    conn: Connection,
    config: BookConfig,
    aliases: AliasIndex,
    request: PackRequest,
    recipe: Recipe,
    as_of: int,
    held: RankingCache | None,
) -> tuple[Gathering, Surroundings | None]:
    """Who is in play (named, and around them when the recipe asks for the scene's cast), the
    open threads, and what the handle holds between packs: what every section reads."""
    in_play = find_in_play(
        conn, aliases, {"outline": request.outline, "query": request.query}, request.focus, as_of
    )
    snapshot = held.snapshot(conn) if held else None
    open_threads = (
        snapshot.open_threads(conn, as_of) if snapshot else ranking_scans.thread_rows(conn, as_of)
    )
    # an outline's names add to the scene's people, never replace them, whatever the task: a
    # check of chapter N's outline still has whoever stood in the last scene
    around = (
        extend_cast(conn, in_play, as_of, request.chapter, open_threads)
        if recipe.scene_cast or (request.outline and not request.focus)
        else None
    )
    near = frozenset(around.near) if around else frozenset()
    names = {e.id: e.name for e in in_play.entities.values()}
    gather = Gathering(conn, config, recipe, request, as_of, in_play, names, near, open_threads)
    gather.snapshot = snapshot
    gather.pov = around.pov if around else None
    return gather, around


def _sections(
    gather: Gathering,
    recipe: Recipe,
    retriever: Retriever | None,
    count_tokens: Callable[[str], int],
) -> dict[str, list[PackItem]]:
    """Every section's candidates, scored, without what scores as noise, each item counted."""
    events = episodic_sections.timeline(gather)
    working = working_sections.working_memory(gather)
    state = working_sections.character_state(gather)
    if recipe.scene_cast:  # a rule about what the cast holds or where they are touches the scene
        gather.scene_terms = scene_terms(state, gather.in_play)
    sections = {
        "working_memory": working,
        "character_state": state,
        "constraints": working_sections.constraints(gather),
        "relations": story_sections.relations(gather),
        "threads": story_sections.threads(gather),
        "world_rules": story_sections.world_rules(gather),
        "timeline": events,
        "history": episodic_sections.history(gather),
        "episodic": episodic_sections.episodic(gather, retriever, events, working),
    }
    for name, items in sections.items():
        # a writer's pack is not filled up with what scores as noise (old rules, the far dead)
        sections[name] = [i for i in items if i.score >= recipe.min_score or i.must_know]
        for item in sections[name]:
            item.tokens = count_tokens(item.line) + 1
    return sections


def ranking_cache() -> RankingCache:
    """What a book handle keeps between its packs (`build_memory_pack(held=...)`)."""
    return RankingCache(rule_terms)


def _reading_order(name: str, items: list[PackItem]) -> list[PackItem]:
    if name == "must_know":
        order = {kind: i for i, kind in enumerate(KINDS)}
        # who does not know what: in the order of what the scene turns on (`gap_lines`)
        return sorted(
            items,
            key=lambda i: (
                order.get(i.must_know, len(KINDS)),
                -i.score if i.must_know == "unaware" else 0.0,
                i.subject,
            ),
        )
    if name == "character_state":
        return sorted(items, key=lambda i: (i.subject, i.field))
    if name == "working_memory":  # a chapter's ending closes it, after its summary
        return sorted(items, key=lambda i: (i.source_chapter or 0, i.field == "ending", -i.score))
    if name in ("timeline", "history"):
        return sorted(items, key=lambda i: (i.source_chapter or 0, -i.score))
    return sorted(items, key=lambda i: -i.score)
