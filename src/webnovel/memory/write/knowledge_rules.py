"""Pure rules for secrets and who knows them: a secret's own chain (planted, revealed to the
reader, retired), one chain per character and secret (knows, suspects, forgotten), and the
conflicts that span chains of one secret (learning it before it was planted, or from someone who
did not know it). Like every fold, each is a function of (chain, assertion, config).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...config import BookConfig
from ..chains import (
    TARGET,
    WHO,
    Assertion,
    Chain,
    ConflictDraft,
    Version,
    knowledge_claim,
    new_version,
    secret_claim,
)
from ..said import Said

# -- secrets and knowledge ----------------------------------------------------------------------


def fold_secret(chain: Chain, a: Assertion, config: BookConfig) -> None:
    """A secret's value is its state: content, whether the reader knows it, when it is due to
    be revealed, and whether it still matters (`open`) or was retired."""
    p = secret_claim(a)
    action = p.get("action", "plant")
    current = chain.current
    evidence = tuple(p.get("evidence", ()))
    if current is None and action != "plant":
        revealed = action == "reveal"
        message_key = (
            "conflict_secret_unknown_revealed" if revealed else "conflict_secret_unknown_retired"
        )
        chain.unplanted(a, "secret", "planted secret", message_key, evidence)
        if action == "retire":
            return
    state: dict[str, Any] = (
        dict(current.value)
        if current is not None
        else {
            "content": p.get("content") or a.subject,
            "status": "open",
            "reader_knows": False,
            "reveal_due": None,
            "planted_chapter": a.chapter,
            "revealed_chapter": None,
        }
    )
    if action == "plant":
        for key in ("about", "unaware"):  # kept only when given: older values stay as they were
            if p.get(key):
                state[key] = list(p[key])
        for name in ("content", "reveal_due", "kind", "thread"):
            if p.get(name) is not None:
                state[name] = p[name]
        if p.get("reader_knows") is not None:
            state["reader_knows"] = p["reader_knows"]
        state["status"] = "open"
    elif action == "reveal":
        due = state.get("reveal_due")
        if due is not None and a.chapter < due:
            chain.note(
                ConflictDraft(
                    kind="early_reveal",
                    chapter=a.chapter,
                    field=a.subject,
                    expected=due,
                    found=a.chapter,
                    message=Said(
                        "conflict_early_reveal", secret=state["content"], due=due, chapter=a.chapter
                    ),
                    evidence=evidence,
                )
            )
        state.update(reader_knows=True, revealed_chapter=a.chapter)
    else:  # retire
        state["status"] = "retired"
    if state.get("reader_knows") and state.get("revealed_chapter") is None:
        state["revealed_chapter"] = a.chapter
    if current is not None and current.value == state:
        return
    chain.close_current(a.chapter)
    chain.open(new_version(a, state, "secret", 1.0, state=state["status"]), tentative=False)


def fold_knowledge(chain: Chain, a: Assertion, config: BookConfig) -> None:
    """One character's knowledge of one secret: `knows` or `suspects`, until forgotten."""
    p = knowledge_claim(a)
    change = p.get("change", "learns")
    current = chain.current
    if change == "forgets":
        chain.close_current(a.chapter)
        return
    value = "knows" if change == "learns" else "suspects"
    if current is not None and current.value == "knows":
        if change == "learns" and not p.get("present"):  # one told again what one knew: no news
            chain.note(
                ConflictDraft(
                    kind="already_known",
                    chapter=a.chapter,
                    entity_id=a.subject,
                    field=a.field,
                    expected="knows",
                    found="learns",
                    message=Said(
                        "conflict_already_known",
                        who=WHO,
                        chapter=a.chapter,
                        secret=a.field,
                        since=current.valid_from,
                    ),
                    evidence=current.evidence + tuple(p.get("evidence", ())),
                )
            )
        return  # suspecting what one knows changes nothing
    if current is not None and current.value == value:
        return
    chain.close_current(a.chapter)
    chain.open(new_version(a, value, "knowledge", 1.0, state=value), tentative=False)


def knowledge_conflicts(
    secret_id: str,
    secret_versions: Iterable[Version],
    assertions: Iterable[Assertion],
    known: Callable[[str, int], bool],
) -> list[ConflictDraft]:
    """Conflicts that depend on more than one chain: learning a secret never planted, and
    learning it from someone who did not know it. `known(entity, chapter)` tells whether an
    entity knew the secret before that chapter's own changes."""
    planted = [v for v in secret_versions if v.status != "tentative"]
    drafts = []
    for a in assertions:
        if knowledge_claim(a).get("change") == "forgets":
            continue
        # named as the chapter knew it: a later planting's words must not show through
        known_then = [v for v in planted if v.valid_from <= a.chapter]
        what = (known_then[-1].value.get("content") if known_then else None) or secret_id
        if not known_then:
            drafts.append(
                ConflictDraft(
                    kind="secret_unknown",
                    chapter=a.chapter,
                    entity_id=a.subject,
                    field=secret_id,
                    expected="planted secret",
                    found=knowledge_claim(a).get("change"),
                    message=Said(
                        "conflict_secret_unknown_learnt", chapter=a.chapter, who=WHO, secret=what
                    ),
                    evidence=tuple(knowledge_claim(a).get("evidence", ())),
                )
            )
        source = knowledge_claim(a).get("from")
        # one cannot learn a secret from oneself; from another, only if they knew it by then
        if source and (source == a.subject or not known(source, a.chapter)):
            drafts.append(
                ConflictDraft(
                    kind="secret_source_unaware",
                    chapter=a.chapter,
                    entity_id=source,
                    field=secret_id,
                    expected="knows",
                    message=Said(
                        "conflict_secret_source_unaware",
                        chapter=a.chapter,
                        target=TARGET,
                        who=WHO,
                        secret=what,
                    ),
                    evidence=tuple(knowledge_claim(a).get("evidence", ())),
                    target=a.subject,
                )
            )
    return drafts
