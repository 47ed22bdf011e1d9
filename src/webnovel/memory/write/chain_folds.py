"""Pure rules deciding add / supersede / contradict / tentative, one chain of versions at a time.

A *chain* is the history of one key: one field of one entity, one ordered pair's relation group,
one thread, one world rule. Replaying a chain means folding its assertions, in chapter order, into
versions over `[valid_from, valid_to)`. The storage layer loads the versions open just before the
first chapter to replay, hands them to `Chain`, folds the assertions with `FOLDS[family]`, and
writes back what changed. Because every rule here is a function of (chain, assertion, config), an
append and a revision of chapter 50 after chapter 120 go down the same path.

Conflicts are drafts here; the pipeline gives them stable ids and entity names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...config import BookConfig
from ...messages import MESSAGES
from ..chains import (
    KEY_SEPARATOR,
    TARGET,
    WHO,
    Activity,
    Assertion,
    Chain,
    ConflictDraft,
    ThreadPayload,
    Version,
    chain_key,
    fact_claim,
    fmt,
    new_version,
    relation_claim,
    rule_claim,
    said_together,
    same_value,
    thread_claim,
)
from ..said import Said
from ..schema import ThreadState
from ..vocabulary import FIELDS, THREAD_ACTIONS
from .knowledge_rules import fold_knowledge, fold_secret, knowledge_conflicts
from .ladder import fell

__all__ = [
    "KEY_SEPARATOR",
    "FOLDS",
    "Activity",
    "Assertion",
    "Chain",
    "ConflictDraft",
    "Version",
    "chain_key",
    "conflict_windows",
    "duplicate_intros",
    "entity_conflicts",
    "knowledge_conflicts",
    "next_fact_value",
    "replay",
    "same_value",
]

# -- facts ------------------------------------------------------------------------------------


def next_fact_value(current: Any, op: str, value: Any) -> tuple[Any, bool]:
    """The value after `op`; the flag is False when a `remove` named a value not held."""
    if op == "set":
        return value, True
    members = list(current) if isinstance(current, list) else ([] if current is None else [current])
    if op == "add":
        return sorted({*map(str, members), str(value)}) if value is not None else members, True
    held = [str(m) for m in members]
    if str(value) not in held:
        return sorted(held), False
    return sorted(m for m in held if m != str(value)), True


def fold_fact(chain: Chain, a: Assertion, config: BookConfig) -> None:
    p = fact_claim(a)
    confidence = float(p.get("confidence", 1.0))
    tentative = confidence < config.tentative_below
    current = chain.current
    base = current.value if current is not None else None
    new_value, held = next_fact_value(base, p.get("op", "set"), p.get("value"))
    close_as = "outdated"
    if not held:
        chain.conflict(
            ConflictDraft(
                kind="set_remove_missing",
                chapter=a.chapter,
                entity_id=a.subject,
                field=a.field,
                expected=p.get("value"),
                found=base,
                message=Said(
                    "conflict_set_remove_missing",
                    who=WHO,
                    chapter=a.chapter,
                    value=fmt(p.get("value")),
                    field=FIELDS.said(a.field),
                    current=fmt(base),
                ),
                evidence=tuple(p.get("evidence", ())) + (current.evidence if current else ()),
            )
        )
        return
    if tentative:
        chain.open(
            new_version(a, new_value, p.get("source_type", "state_change"), confidence),
            tentative=True,
        )
        return
    if p.get("has_old") and current is not None and not same_value(p.get("old"), base):
        close_as = "contradicted"
        chain.conflict(
            ConflictDraft(
                kind="old_value_mismatch",
                chapter=a.chapter,
                entity_id=a.subject,
                field=a.field,
                expected=base,
                found=p.get("old"),
                message=Said(
                    "conflict_old_value_mismatch",
                    who=WHO,
                    chapter=a.chapter,
                    field=FIELDS.said(a.field),
                    old=fmt(p.get("old")),
                    since=current.valid_from,
                    current=fmt(base),
                    new=fmt(new_value),
                ),
                evidence=current.evidence + tuple(p.get("evidence", ())),
            )
        )
    if current is not None:
        _check_ladder(chain, a, config, current, new_value)
    chain.close_tentatives(a.chapter)
    if current is not None and same_value(base, new_value) and close_as == "outdated":
        return
    chain.close_current(a.chapter, close_as)
    dead = a.field == "status" and config.is_dead(new_value)
    version = new_version(
        a,
        new_value,
        p.get("source_type", "state_change"),
        confidence,
        state="dead" if dead else None,
    )
    chain.open(version, tentative=False)


def _check_ladder(
    chain: Chain, a: Assertion, config: BookConfig, current: Version, new_value: Any
) -> None:
    """A field walking down its ladder (a realm lost: 金丹中期 → 筑基后期, or on one rung 后期 →
    初期) is a `regression` conflict unless the chapter gives a reason; with a reason it is
    advice to make sure the text explains it."""
    ladder = config.ladders.get(a.field) or ()
    old = current.value
    if not (isinstance(old, str) and isinstance(new_value, str)):
        return
    if not fell(ladder, old, new_value):
        return
    reason = fact_claim(a).get("reason")
    draft = ConflictDraft(
        kind="ladder_regression" if reason else "regression",
        chapter=a.chapter,
        entity_id=a.subject,
        field=a.field,
        expected=old,
        found=new_value,
        message=Said(
            "conflict_ladder_fell",
            who=WHO,
            chapter=a.chapter,
            field=FIELDS.said(a.field),
            old=old,
            new=new_value,
            reason=Said("conflict_reason_given", reason=reason)
            if reason
            else Said("conflict_no_reason"),
        ),
        evidence=current.evidence + tuple(a.payload.get("evidence", ())),
    )
    if reason:
        chain.note(draft)
    else:
        chain.conflict(draft)


# -- relations --------------------------------------------------------------------------------

GROUP_JUMP = 4  # steps inside an exclusive group that read as a sudden turn (朋友 → 仇敌)


def fold_relation(chain: Chain, a: Assertion, config: BookConfig) -> None:
    """Relations are keyed by (from, to, exclusive group or type); the value is the type."""
    p = relation_claim(a)
    rel_type = p["type"]
    confidence = float(p.get("confidence", 1.0))
    current = chain.current
    if p.get("action") == "end":
        if current is not None and current.value == rel_type:
            chain.close_tentatives(a.chapter)
            chain.close_current(a.chapter)
            return
        found = current.value if current is not None else None
        chain.conflict(
            ConflictDraft(
                kind="relation_end_missing",
                chapter=a.chapter,
                entity_id=a.subject,
                field=rel_type,
                expected=rel_type,
                found=found,
                message=Said(
                    "conflict_relation_end_missing",
                    chapter=a.chapter,
                    who=WHO,
                    target=TARGET,
                    type=rel_type,
                    current=fmt(found),
                ),
                evidence=tuple(p.get("evidence", ())) + (current.evidence if current else ()),
                target=a.obj,
            )
        )
        return
    version = new_version(a, rel_type, "relationship", confidence)
    if confidence < config.tentative_below:
        chain.open(version, tentative=True)
        return
    chain.close_tentatives(a.chapter)
    if current is not None and current.value == rel_type:
        return
    if current is not None:
        _check_jump(chain, a, config, current)
    chain.close_current(a.chapter)
    chain.open(version, tentative=False)


def _check_jump(chain: Chain, a: Assertion, config: BookConfig, current: Version) -> None:
    group = next((g for g in config.exclusive_groups if relation_claim(a)["type"] in g), ())
    if current.value not in group:
        return
    if abs(group.index(relation_claim(a)["type"]) - group.index(current.value)) >= GROUP_JUMP:
        chain.note(
            ConflictDraft(
                kind="relation_jump",
                chapter=a.chapter,
                entity_id=a.subject,
                field=relation_claim(a)["type"],
                expected=current.value,
                found=relation_claim(a)["type"],
                message=Said(
                    "conflict_relation_jump",
                    who=WHO,
                    target=TARGET,
                    old=current.value,
                    new=relation_claim(a)["type"],
                ),
                evidence=current.evidence,
                target=a.obj,
            )
        )


# -- threads ----------------------------------------------------------------------------------


def fold_thread(chain: Chain, a: Assertion, config: BookConfig) -> None:
    """A thread's value is its state dict; a version per change of status or terms."""
    p = thread_claim(a)
    action = p.get("action", "plant")
    current = chain.current
    state: ThreadState | None = _copy_state(current.value) if current is not None else None
    evidence = tuple(p.get("evidence", ()))
    if state is None:
        state = ThreadState(
            status="open",
            kind=p.get("kind") or "open_loop",
            content=p.get("content") or "",
            planted_chapter=a.chapter,
            due_chapter=None,
            urgency=None,
            related=[],
            resolved_chapter=None,
        )
        if action != "plant":
            state["planted_chapter"] = None
            said_action = THREAD_ACTIONS.said(action)
            key = "conflict_thread_unknown"
            chain.unplanted(a, "thread", "planted thread", key, evidence, action=said_action)
    elif state["status"] != "open" and action != "plant":
        chain.conflict(
            ConflictDraft(
                kind="thread_closed",
                chapter=a.chapter,
                field=a.subject,
                expected="open",
                found=state["status"],
                message=Said(
                    "conflict_thread_closed_resolved"
                    if state["status"] == "resolved"
                    else "conflict_thread_closed_abandoned",
                    chapter=a.chapter,
                    closed=state["resolved_chapter"],
                    thread=state["content"] or a.subject,
                    action=THREAD_ACTIONS.said(action),
                ),
                evidence=current.evidence + evidence if current else evidence,
            )
        )
        return
    elif state["status"] != "open":
        state["status"], state["resolved_chapter"] = "open", None
    _act_on_thread(state, p, action, a.chapter)
    if current is not None and current.value == state:
        return
    chain.close_current(a.chapter)
    chain.open(new_version(a, state, "thread", 1.0, state=state["status"]), tentative=False)


def _act_on_thread(state: ThreadState, p: ThreadPayload, action: str, chapter: int) -> None:
    """One action's change to an open thread's state (a closed one planted again included)."""
    # Only a plant states what the thread *is*; later actions' content is a progress note.
    kind, content = p.get("kind"), p.get("content")
    if action == "plant":
        if kind:
            state["kind"] = kind
        if content:
            state["content"] = content
    if (due := p.get("due_chapter")) is not None:
        state["due_chapter"] = due
    if (due_time := p.get("due_time")) is not None:
        state["due_time"] = due_time
    if (urgency := p.get("urgency")) is not None:
        state["urgency"] = urgency
    if action != "plant" and content:
        state["progress"] = content
    if p.get("related"):
        state["related"] = sorted({*state.get("related", []), *p["related"]})
    if action == "resolve":
        state["status"], state["resolved_chapter"] = "resolved", chapter
    elif action == "abandon":
        state["status"], state["resolved_chapter"] = "abandoned", chapter
    state["last_chapter"] = chapter


def _copy_state(value: Any) -> ThreadState:
    """A stored thread state, copied so the fold never changes a version in place."""
    state: ThreadState = dict(value)  # type: ignore[assignment]  # JSON of a ThreadState
    return state


# -- world rules ------------------------------------------------------------------------------


def fold_rule(chain: Chain, a: Assertion, config: BookConfig) -> None:
    p = rule_claim(a)
    action = p.get("action", "reveal")
    current = chain.current
    evidence = tuple(p.get("evidence", ()))
    if current is None and action != "reveal":
        revised = action == "revise"
        message_key = (
            "conflict_rule_unknown_revised" if revised else "conflict_rule_unknown_retired"
        )
        chain.unplanted(a, "rule", "rule in force", message_key, evidence)
        if action == "retire":
            return
    if action == "retire":
        chain.close_current(a.chapter)
        return
    value = {"rule": p.get("rule", ""), "domain": p.get("domain")}
    if current is not None:
        value["domain"] = value["domain"] or current.value.get("domain")
        if current.value == value:
            return
    chain.close_current(a.chapter)
    chain.open(new_version(a, value, "world_rule", 1.0, state="in_force"), tentative=False)


Fold = Callable[[Chain, Assertion, BookConfig], None]
FOLDS: dict[str, Fold] = {
    "fact": fold_fact,
    "rel": fold_relation,
    "thread": fold_thread,
    "rule": fold_rule,
    "secret": fold_secret,
    "know": fold_knowledge,
}


def replay(
    family: str,
    open_versions: Iterable[Version],
    assertions: Iterable[Assertion],
    config: BookConfig,
) -> Chain:
    """Fold `assertions` (already in chapter, seq order) onto the versions open before them."""
    chain = Chain.reopen(open_versions, config.tentative_below)
    fold = FOLDS[family]
    for assertion in assertions:
        fold(chain, assertion, config)
    return chain


# -- per-entity checks ------------------------------------------------------------------------


def _acts_said(kinds: str) -> str:
    """The activity kinds of a conflict (kept in English in its `found`) in the reader's words,
    each said from the catalogue (`activity_<kind>`) and listed as `fmt` lists values, so that
    the stored conflict is said again in the language of whoever reads it."""
    return said_together(
        [
            Said(f"activity_{kind}") if f"activity_{kind}" in MESSAGES else kind
            for kind in kinds.split("、")
        ]
    )


# Being named by someone else's relation or thread is not acting: the dead may be mourned.
# So is being remembered or talked about (`entities_appeared[].role` 提及), and being in a
# scene or event that is not now (a flashback, a dream: `recalled`).
PASSIVE_ACTIVITIES = frozenset({"relation_target", "thread_related", "mentioned", "recalled"})


def conflict_windows(
    status_versions: Iterable[Version], intro_chapter: int | None, config: BookConfig
) -> list[tuple[int, int | None]]:
    """The chapter ranges where an entity's activity could be a conflict: after each death
    chapter while dead, and before its introduction. Only these ranges need loading."""
    windows: list[tuple[int, int | None]] = [
        (v.valid_from + 1, v.valid_to)
        for v in status_versions
        if v.status != "tentative" and config.is_dead(v.value)
    ]
    windows.append((0, intro_chapter) if intro_chapter is not None else (0, None))
    return [(start, end) for start, end in windows if end is None or start < end]


def duplicate_intros(entity_id: str, intro_chapters: Iterable[int]) -> list[ConflictDraft]:
    """Every introduction of an entity after its first is a `duplicate_entity` conflict: an
    agent that re-introduces a known character usually means someone else, or has forgotten.
    (A re-introduction marked `revealed` is not counted: it tells more of a known entity.)"""
    chapters = sorted(set(intro_chapters))
    return [
        ConflictDraft(
            kind="duplicate_entity",
            chapter=chapter,
            entity_id=entity_id,
            expected=chapters[0],
            found=chapter,
            message=Said(
                "conflict_duplicate_entity",
                chapter=chapter,
                who=WHO,
                entity=entity_id,
                first=chapters[0],
            ),
            evidence=(
                {"chapter": chapters[0], "ref": f"entity_new:{entity_id}:{chapters[0]}"},
                {"chapter": chapter, "ref": f"entity_new:{entity_id}:{chapter}"},
            ),
        )
        for chapter in chapters[1:]
    ]


def entity_conflicts(
    entity_id: str,
    status_versions: Iterable[Version],
    activities: Iterable[Activity],
    intro_chapter: int | None,
    config: BookConfig,
) -> list[ConflictDraft]:
    """Conflicts that depend on the whole entity: acting while dead, referenced before introduced.

    Dead from the chapter that sets a dead status: acting in that chapter is fine, acting in a
    later one is a conflict unless that chapter sets a living status again (its dead interval then
    ends there). One conflict per entity and chapter, naming every kind of activity seen.
    """
    activities = list(activities)
    dead = [v for v in status_versions if v.status != "tentative" and config.is_dead(v.value)]
    acting = {a.chapter for a in activities if a.kind not in PASSIVE_ACTIVITIES}
    by_chapter: dict[int, list[Activity]] = {}
    for act in activities:
        by_chapter.setdefault(act.chapter, []).append(act)
    drafts = []
    for chapter, acts in sorted(by_chapter.items()):
        kinds = "、".join(sorted({a.kind for a in acts if a.kind not in PASSIVE_ACTIVITIES}))
        for version in dead if chapter in acting else ():
            if version.valid_from < chapter and (
                version.valid_to is None or chapter < version.valid_to
            ):
                drafts.append(
                    ConflictDraft(
                        kind="dead_entity_active",
                        chapter=chapter,
                        entity_id=entity_id,
                        field="status",
                        expected=version.value,
                        found=kinds,
                        message=Said(
                            "conflict_dead_entity_active",
                            chapter=chapter,
                            who=WHO,
                            acts=_acts_said(kinds),
                            since=version.valid_from,
                            status=version.value,
                        ),
                        evidence=version.evidence
                        + (
                            {
                                "chapter": chapter,
                                "ref": f"activity:{entity_id}:{chapter}",
                                "quote": acts[0].mention,
                            },
                        ),
                    )
                )
                break
        if intro_chapter is None or chapter < intro_chapter:
            drafts.append(
                ConflictDraft(
                    kind="unknown_entity",
                    chapter=chapter,
                    entity_id=entity_id,
                    expected="introduced entity",
                    found=acts[0].mention,
                    # No word of a later introduction: as of this chapter it is not known.
                    message=Said(
                        "conflict_unknown_entity", chapter=chapter, mention=acts[0].mention
                    ),
                    evidence=(
                        {
                            "chapter": chapter,
                            "ref": f"activity:{entity_id}:{chapter}",
                            "quote": acts[0].mention,
                        },
                    ),
                )
            )
    return drafts
