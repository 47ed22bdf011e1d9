"""The story's graph in a pack: relations around the entities in play, open threads by urgency
and due chapter, and the world rules in force.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from ...messages import say
from ..chains import RuleInForce
from ..read import as_of_reads
from ..records import Thread
from ..store import chain_ops, ranking_scans
from ..vocabulary import THREAD_KINDS
from .gathering import CANDIDATES_PER_SECTION, Gathering, best, best_of
from .memory_pack import PackItem
from .reasons import Reason, because
from .relevance_filter import freshness, relations_around, rule_terms

DEAD_RELATION = 0.5  # a relation's weight when an end is dead and not in the scene


def relations(g: Gathering) -> list[PackItem]:
    """Relations around the entities in play, `recipe.graph_depth` hops out
    (`relevance_filter.relations_around`): ranked from their ends, type and first chapter, and
    only those shown named and their evidence decoded."""
    scored = relations_around(
        g.conn, g.in_play, g.as_of, g.recipe.graph_depth, g.fresh, g.recipe.relation_sources
    )
    top = best(scored)
    # their ends named as the chapter before knew them (a name revealed later is not shown)
    names = as_of_reads.names_as_of(
        g.conn, {end for _, _, link in top for end in (link.source, link.target) if end}, g.as_of
    )
    for _, _, link in top:
        g.names.update(
            {
                link.source: names.get(link.source, link.source),
                link.target: names.get(link.target, link.target),
            }
        )
    # a relation to the dead reads as one (「韩啸（已故）」), and weighs half unless the scene
    # names them: a friend long dead is not the scene's business, a grave visited is
    dead = {v.subject for v in g.dead()}

    def end(entity_id: str) -> str:
        return g.name(entity_id) + (say("pack_dead_mark") if entity_id in dead else "")

    def weight(link: Any) -> float:
        gone = {link.source, link.target} & dead
        return 1.0 if not gone or gone <= set(g.in_play.entities) else DEAD_RELATION

    return [
        g.item(
            layer="graph",
            category="relationship",
            subject=link.source,
            field_name=f"relation:{link.target}",
            value=link.type,
            chapter=link.valid_from,
            source_type="relationship",
            evidence=list(chain_ops.evidence_known_at(link.evidence_json, g.as_of)),
            score=score * weight(link),
            why=why,
            line=say(
                "pack_line_relation",
                source=end(link.source),
                target=end(link.target),
                type=link.type,
                since=link.valid_from,
            ),
        )
        for score, why, link in top
    ]


def threads(g: Gathering) -> list[PackItem]:
    # thousands of threads are open at 10,000 chapters: each is scored, and only the winners'
    # reasons are put into words (`_thread_why`) and their states read
    in_play = [(f'"{e}"', e) for e in g.in_play.entities]
    # scores, reasons and rows apart, and triples for the winners only: a list of a triple
    # for each of ~1,500 threads, held while they are ranked, costs a garbage collection
    scores: list[float] = []
    whys: list[_ThreadWhy] = []
    rows: list[int] = []
    score = _thread_scorer(g, in_play)
    for row_id, due, urgency, related, last_chapter in g.open_threads():  # an OpenThread's
        value, why = score(due, urgency, related, last_chapter)
        scores.append(value)
        whys.append(why)
        rows.append(row_id)
    top = [(scores[i], whys[i], rows[i]) for i in best_of(scores)]
    states = chain_ops.values_by_id(g.conn, [row_id for _, _, row_id in top])
    return [
        _thread_item(
            g,
            as_of_reads.thread_state_at(*states[row_id], g.request.chapter),
            value,
            _thread_why(g, why),
        )
        for value, why, row_id in top
    ]


def _thread_item(g: Gathering, thread: Thread, score: float, why: Reason) -> PackItem:
    due = say("pack_thread_due", chapter=thread.due_chapter) if thread.due_chapter else ""
    flag = say("pack_thread_overdue") if thread.overdue else ""
    progress = say("pack_thread_progress", progress=thread.progress) if thread.progress else ""
    category = "reader_promises" if thread.kind == "reader_promise" else "open_loops"
    evidence = [{"chapter": thread.planted_chapter, "ref": f"thread:{thread.id}:plant"}]
    # a thread acted on but never planted has no chapter to name (it printed 第None章)
    planted = (
        say("pack_thread_planted", chapter=thread.planted_chapter)
        if thread.planted_chapter is not None
        else say("thread_never_planted")
    )
    line = say(
        "pack_line_thread",
        flag=flag,
        content=thread.content,
        kind=THREAD_KINDS.label(thread.kind),
        planted=planted,
        due=due,
        progress=progress,
    )
    item = g.item(
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
    if thread.due_chapter is not None and thread.due_chapter <= g.request.chapter:
        item.must_know = "thread_due" if thread.due_chapter == g.request.chapter else "overdue"
    return item


_ThreadWhy = tuple[str, Any]  # a reason's code and its one argument (None: none)


_OPEN_THREAD: _ThreadWhy = ("open_thread", None)


def _thread_scorer(
    g: Gathering, in_play: list[tuple[str, str]]
) -> Callable[[int | None, float | None, str | None, int | None], tuple[float, _ThreadWhy]]:
    """How an open thread scores (and why) from its due chapter, urgency, people (a JSON list)
    and last chapter; the recipe's numbers looked up once for the ~1,500 threads of a pack."""
    s = g.scores
    chapter, as_of, window = g.request.chapter, g.as_of, g.recipe.recency_window
    overdue, due_soon, due_window = s.overdue, s.due_soon, s.due_window
    (involved, involved_step), (other, other_step) = s.thread_in_play, s.thread_other

    def score(
        due: int | None, urgency: float | None, related_json: str | None, last: int | None
    ) -> tuple[float, _ThreadWhy]:
        weight = (urgency or 50) / 100
        if due is not None:
            if due < chapter:
                return overdue[0] + overdue[1] * weight, ("overdue", due)
            if due - chapter <= due_window:
                return due_soon[0] + due_soon[1] * weight, ("due", due)
        # a substring test on the JSON list: no decoding for each of thousands of open threads
        if related_json:
            for quoted, entity_id in in_play:
                if quoted in related_json:
                    return involved + involved_step * weight, ("involves", entity_id)
        return other + other_step * weight * freshness(last, as_of, window), _OPEN_THREAD

    return score


def _thread_why(g: Gathering, why: _ThreadWhy) -> Reason:
    code, argument = why
    if code == "due":
        return because(code, argument, argument - g.request.chapter)
    if code == "involves":
        return because(code, g.name(argument))
    return because(code) if argument is None else because(code, argument)


def world_rules(g: Gathering) -> list[PackItem]:
    # Thousands of rules are in force at 10,000 chapters and a pack shows a few dozen: each is
    # scored from how many terms it shares with the scene, and only the winners get their
    # reason put into words.
    context, scene = g.context_terms, g.scene_terms
    if g.snapshot is None:
        rules = ranking_scans.rule_candidates(g.conn, g.as_of)
        shared, newest = _rules_sharing(rules, context, scene)
    else:
        # only the sharing rules that can make the cut (`best` below) come back
        shared, newest = g.snapshot.rules_sharing(
            g.as_of, context, scene, CANDIDATES_PER_SECTION, (CANDIDATES_PER_SECTION, g.rule_score)
        )
    scored: list[tuple[float, str | None, RuleInForce]] = [
        (g.rule_score(count), code, rule) for code, count, rule in shared
    ]
    # a rule sharing nothing scores by its recency alone: only the newest can make the cut
    base, step = g.scores.rule_other
    scored += [(base + step * g.fresh(rule.valid_from), None, rule) for rule in newest]
    items = []
    for score, code, (rule_id, text, domain, since) in best(scored):
        if code is None:
            why = because("rule_in_force", since)
        else:
            every, own = rule_terms(text, domain)
            terms = (
                context.intersection(every)
                if code == "rule_shares_outline"
                else scene.intersection(own)
            )
            why = because(code, "、".join(sorted(terms)[:3]))
        items.append(
            g.item(
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
                line=say(
                    "pack_line_rule",
                    domain=say("pack_rule_domain", domain=domain) if domain else "",
                    text=text,
                    since=since,
                ),
            )
        )
    return items


def _rules_sharing(
    rules: list[RuleInForce], context: frozenset[str], scene: frozenset[str]
) -> tuple[list[ranking_scans.SharedRule], list[RuleInForce]]:
    """`RankingSnapshot.rules_sharing` over rules read from the state index."""
    shared: list[ranking_scans.SharedRule] = []
    unshared = []
    for rule in rules:
        every, own = rule_terms(rule.text, rule.domain)
        if not context.isdisjoint(every):
            shared.append(("rule_shares_outline", len(context.intersection(every)), rule))
        elif not scene.isdisjoint(own):
            shared.append(("rule_shares_scene", len(scene.intersection(own)), rule))
        else:
            unshared.append(rule)
    newest = heapq.nlargest(CANDIDATES_PER_SECTION, unshared, key=lambda r: r.valid_from)
    return shared, newest
