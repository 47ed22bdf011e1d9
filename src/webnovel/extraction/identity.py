"""Who is who in a model's answer, settled against the cast memory knows before it is committed.

- **Reconciled on the way in.** An `entities_new` whose id is a known entity's, or whose name is
  a known entity's name or alias (one entity only), *is* that entity: it becomes an appearance,
  the names it brings that nobody holds become aliases, fields memory has no value for become
  state changes, and references to the model's id follow it. Nothing conflicts: a model that
  was not shown someone and registered them again has not introduced anyone. (A name that only
  looks like a known one, or an alias another entity holds, stays the model's: advice for the
  author, `name_taken`.)
- **Asked again.** What memory cannot place goes back to the model with the known candidates,
  within the run's repair budget: a reference to no known entity, a thread advanced, resolved
  or abandoned that was never planted, and a known entity re-introduced under another entity's
  name (岳飞 `revealed` as 秦桧, which would rename one person to another's name). If the model
  holds to it, the commit records what it is (`unknown_entity`, `thread_unknown`,
  `reveal_takes_name`) for the author, never a silent rename.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..book.candidate_queue import look_alike
from ..memory.records import Thread
from ..memory.schema import Entity
from ..memory.write.reference_places import REFERENCE_KEYS, REFERENCE_LISTS
from ..messages import say

THREAD_FOLLOW_UPS = frozenset({"advance", "resolve", "abandon"})
CANDIDATES = 8  # known entities or threads a repair question offers


@dataclass
class Cast:
    """What memory knows before the chapter: settled entities, their fields, every thread."""

    entities: list[Entity]
    threads: list[Thread] = field(default_factory=list)
    # entity id -> the fields memory holds a value for (read only for an entity folded in)
    fields_of: Callable[[str], set[str]] = lambda entity_id: set()

    def __post_init__(self) -> None:
        self.by_id = {e.id: e for e in self.entities if not e.tentative}
        self.by_name: dict[str, set[str]] = {}
        for entity in self.by_id.values():
            for name in (entity.id, entity.name, *entity.aliases):
                self.by_name.setdefault(name, set()).add(entity.id)

    def one(self, name: Any) -> Entity | None:
        ids = self.by_name.get(name) if isinstance(name, str) else None
        return self.by_id[next(iter(ids))] if ids and len(ids) == 1 else None


Reconciled = tuple[dict[str, Any], list[str], dict[str, str]]


def reconcile(result: dict[str, Any], cast: Cast) -> Reconciled:
    """The result with every `entities_new` that is a known entity folded into it; warnings (in
    the author's language), and, by entity id, what is said of an entity only registered again
    (no new name): a run says that once per entity, not once per chapter."""
    new = result.get("entities_new")
    if not isinstance(new, list) or not cast.by_id:
        return result, [], {}
    out = dict(result)
    kept: list[Any] = []
    renamed: dict[str, str] = {}
    appeared: list[dict[str, Any]] = []
    reintros: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    warnings: list[str] = []
    again: dict[str, str] = {}
    for item in new:
        entity = _known_as(item, cast)
        if entity is None:
            kept.append(item)
            warnings += _lookalike_advice(item, cast)
            continue
        if item["id"] != entity.id:
            renamed[item["id"]] = entity.id
        appeared.append({"id": entity.id})
        names = [item.get("name"), *(item.get("aliases") or [])]
        fresh = [n for n in dict.fromkeys(names) if isinstance(n, str) and n not in cast.by_name]
        if fresh:  # as `candidates merge` adds an alias: a re-introduction that tells more
            aliases = sorted({*entity.aliases, *fresh})
            reintros.append(
                {"id": entity.id, "name": entity.name, "aliases": aliases, "revealed": True}
            )
        current = item.get("current")
        known_fields = cast.fields_of(entity.id)
        for name, value in current.items() if isinstance(current, dict) else ():
            if name not in known_fields:  # a field memory holds is restated, not changed
                changes.append({"entity_id": entity.id, "field": name, "new": value})
        if fresh:
            aliases_said = say("argument_list_separator").join(fresh)
            warnings.append(
                say(
                    "extract_known_alias",
                    written=item["id"],
                    id=entity.id,
                    name=entity.name,
                    aliases=aliases_said,
                )
            )
        else:
            again[entity.id] = say(
                "extract_known_again", written=item["id"], id=entity.id, name=entity.name
            )
    if not appeared:
        return result, warnings, again
    out["entities_new"] = kept + reintros
    out = renamed_references(out, renamed)
    before = list(out.get("entities_appeared") or [])
    listed = {a.get("id") for a in before if isinstance(a, dict)}
    out["entities_appeared"] = before + [a for a in appeared if a["id"] not in listed]
    out["state_changes"] = changes + list(out.get("state_changes") or [])
    return {k: v for k, v in out.items() if v != [] or k in result}, warnings, again


def _lookalike_advice(item: Any, cast: Cast) -> list[str]:
    """A newcomer whose name looks like a known entity's (金兀术 beside 兀术): advice for the
    author, who may merge them (`candidates merge`)."""
    name = item.get("name") if isinstance(item, dict) else None
    if not isinstance(name, str) or name in cast.by_name:
        return []
    alike = sorted(
        {e.name for e in cast.by_id.values() for n in (e.name, *e.aliases) if look_alike(name, n)}
    )
    if not alike:
        return []
    return [say("extract_lookalike", name=name, others="、".join(alike), first=alike[0])]


def _known_as(item: Any, cast: Cast) -> Entity | None:
    """The known entity an `entities_new` item is, by its id or its name; None for a newcomer
    and for a reveal (a known id with `revealed`: it tells more, `cast_rewrites` checks it)."""
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        return None
    if item["id"] in cast.by_id:
        return None if item.get("revealed") is True else cast.by_id[item["id"]]
    if item["id"] in cast.by_name:  # the model's id is a known name: 岳飞 as an id
        return cast.one(item["id"])
    return cast.one(item.get("name"))


def cast_rewrites(result: dict[str, Any], cast: Cast) -> list[str]:
    """A problem (by JSON path, for the repair turn) for each `entities_new` that gives a known
    entity a name or alias another known entity holds."""
    problems = []
    new = result.get("entities_new")
    for i, item in enumerate(new if isinstance(new, list) else []):
        if not isinstance(item, dict) or item.get("id") not in cast.by_id:
            continue
        entity = cast.by_id[item["id"]]
        written = item.get("aliases")
        aliases: list[Any] = written if isinstance(written, list) else []
        for key, name in [("name", item.get("name")), *(("aliases", a) for a in aliases)]:
            holders = cast.by_name.get(name, set()) if isinstance(name, str) else set()
            for holder_id in sorted(holders - {entity.id}):
                holder = cast.by_id[holder_id]
                problems.append(
                    say(
                        "extract_cast_rewrite",
                        path=f"$.entities_new[{i}].{key}",
                        entity_id=entity.id,
                        entity_name=entity.name,
                        name=name,
                        holder_id=holder.id,
                        holder_name=holder.name,
                    )
                )
    return problems


def rejected_names(result: dict[str, Any], rejected: Iterable[str]) -> list[str]:
    """A problem for each `entities_new` named by a name the author rejected as a candidate."""
    refused = set(rejected)
    return [
        say("extract_rejected_name", path=f"$.entities_new[{i}].name", name=item["name"])
        for i, item in enumerate(result.get("entities_new") or [])
        if isinstance(item, dict) and item.get("name") in refused
    ]


def unknown_references(result: dict[str, Any], cast: Cast) -> list[str]:
    """A problem for each entity reference that names nobody memory or the result itself
    introduces, and each thread followed up that was never planted, with the candidates."""
    local: set[str] = set()
    for item in result.get("entities_new") or []:
        if isinstance(item, dict):
            local |= {n for n in (item.get("id"), item.get("name")) if isinstance(n, str)}
            local |= {a for a in item.get("aliases") or [] if isinstance(a, str)}
    for guess in result.get("uncertain") or []:  # a mention the model said it is unsure of
        if isinstance(guess, dict) and isinstance(guess.get("mention"), str):
            local.add(guess["mention"])
    problems = []
    for path, reference in _references(result):
        if reference not in local and reference not in cast.by_name:
            problems.append(
                say(
                    "extract_unknown_entity",
                    path=path,
                    reference=reference,
                    candidates=_entity_candidates(reference, cast),
                )
            )
    planted = {t.id for t in cast.threads}
    for i, thread in enumerate(result.get("plot_threads") or []):
        if not isinstance(thread, dict) or thread.get("action") not in THREAD_FOLLOW_UPS:
            continue
        thread_id = thread.get("id")
        here = any(
            isinstance(t, dict) and t.get("id") == thread_id and t.get("action", "plant") == "plant"
            for t in result.get("plot_threads") or []
        )
        if isinstance(thread_id, str) and thread_id not in planted and not here:
            problems.append(
                say(
                    "extract_unknown_thread",
                    path=f"$.plot_threads[{i}].id",
                    reference=thread_id,
                    candidates=_thread_candidates(thread_id, cast),
                )
            )
    return problems


def _references(result: dict[str, Any]) -> Iterable[tuple[str, str]]:
    for key, ref in REFERENCE_KEYS:
        for i, item in enumerate(result.get(key) or []):
            if isinstance(item, dict) and isinstance(item.get(ref), str):
                yield f"$.{key}[{i}].{ref}", item[ref]
    for key, ref in REFERENCE_LISTS:
        for i, item in enumerate(result.get(key) or []):
            listed = item.get(ref) if isinstance(item, dict) else None
            for j, value in enumerate(listed if isinstance(listed, list) else []):
                if isinstance(value, str):
                    yield f"$.{key}[{i}].{ref}[{j}]", value


def _entity_candidates(reference: str, cast: Cast) -> str:
    """The known entities most like the reference (shared characters), as `id（name）`."""

    def likeness(entity: Entity) -> int:
        names = (entity.id, entity.name, *entity.aliases)
        return max(len(set(reference) & set(n)) for n in names)

    ranked = sorted(cast.by_id.values(), key=lambda e: (-likeness(e), e.id))[:CANDIDATES]
    return "、".join(f"{e.id}（{e.name}）" for e in ranked) or say("extract_none_known")


def _thread_candidates(reference: str, cast: Cast) -> str:
    open_threads = [t for t in cast.threads if t.status == "open"]
    ranked = sorted(open_threads, key=lambda t: (-len(set(reference) & set(t.id)), t.id))[
        :CANDIDATES
    ]
    return "、".join(f"{t.id}（{t.content[:30]}）" for t in ranked) or say("extract_none_known")


def renamed_references(result: dict[str, Any], renamed: dict[str, str]) -> dict[str, Any]:
    """The result with every entity reference in `renamed` (old id → new id) following it
    (lists the result lacks stay lacking)."""
    if not renamed:
        return result
    out = dict(result)
    for key, ref in REFERENCE_KEYS:
        if key in out:
            out[key] = [_renamed_item(i, ref, renamed) for i in out.get(key) or []]
    for key, ref in REFERENCE_LISTS:
        if key in out:
            out[key] = [_renamed_list(i, ref, renamed) for i in out.get(key) or []]
    return out


def _renamed_item(item: Any, key: str, renamed: dict[str, str]) -> Any:
    if isinstance(item, dict) and isinstance(item.get(key), str) and item[key] in renamed:
        return {**item, key: renamed[item[key]]}
    return item


def _renamed_list(item: Any, key: str, renamed: dict[str, str]) -> Any:
    if isinstance(item, dict) and isinstance(item.get(key), list):
        return {**item, key: [renamed.get(v, v) if isinstance(v, str) else v for v in item[key]]}
    return item
