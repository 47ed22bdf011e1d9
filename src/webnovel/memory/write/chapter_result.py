"""The chapter result (CONTRACT §1): validation and normalisation into typed input values.

`parse_chapter_result` either returns a `ChapterResult` or raises `InvalidChapterResult` naming
every bad JSON path at once, so an agent can fix its output in one round trip. The older upstream
shape (`memory_facts.*`, `from_entity`, `new_value`, …) is folded into the current one here, so
nothing past this module knows it existed.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ...errors import InvalidChapterResult
from ...messages import say
from ..schema import MAX_CHAPTER, THREAD_ACTIONS, THREAD_KINDS, ThreadKind, thread_kind
from ..vocabulary import APPEARANCE_ROLES, CERTAINTIES, SCENE_MODES, SECRET_KINDS
from .chapter_inputs import (
    Appearance,
    ChapterResult,
    EventInput,
    KnowledgeChange,
    NewEntity,
    RelationChange,
    RuleAction,
    SceneInput,
    SecretAction,
    StateChange,
    ThreadAction,
    Uncertain,
)
from .import_shape import names_found
from .json_hygiene import json_problems
from .result_checker import MAX_COUNT, NAME_CHARS, Checker, type_name

# The ranges of the contract's numbers (docs/contract.md; the chapter's is schema's MAX_CHAPTER):
# a word count past a hundred million is a mistake, not a book.
MAX_WORDS = 100_000_000
MAX_URGENCY = 100

KNOWN_KEYS = {
    "chapter",
    "title",
    "summary",
    "word_count",
    "entities_new",
    "entities_appeared",
    "state_changes",
    "relationships_new",
    "plot_threads",
    "world_rules",
    "timeline_events",
    "scenes",
    "chapter_meta",
    "secrets",
    "knowledge_changes",
    "uncertain",
    "memory_facts",
}
RELATION_ACTIONS = {"create": "assert", "update": "assert", "end": "end", "remove": "end"}
RULE_ACTIONS = ("reveal", "revise", "retire")
SECRET_ACTIONS = ("plant", "reveal", "retire")
KNOWLEDGE_CHANGES = ("learns", "suspects", "forgets")
SET_OPS = ("set", "add", "remove")


def derived_id(prefix: str, content: str) -> str:
    """A stable id for a thread or rule given without one: the same content gives the same id."""
    digest = hashlib.blake2b(content.encode("utf-8"), digest_size=5).hexdigest()
    return f"{prefix}-{digest}"


def parse_chapter_number(value: Any) -> int | None:
    """Accept 150 or "第150章" / "150" for due chapters."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        match = re.search(r"\d+", value)
        if match:
            return int(match.group())
    return None


def parse_chapter_result(
    data: Any, chapter: int | None = None, *, plain: bool = False
) -> ChapterResult:
    """Validate a decoded chapter result; `chapter` is the `--chapter` option, if given.
    `plain`: the caller (intake) has already found it plain JSON, so it is not walked again."""
    check = Checker()
    if not isinstance(data, dict):
        raise InvalidChapterResult([f"$: {say('must_be_json_object', got=type_name(data))}"])
    problems = [] if plain else json_problems(data)
    if problems:  # not plain JSON: nothing below could read it safely
        raise InvalidChapterResult(problems)
    number = _chapter_number(check, data, chapter)
    compat = data.get("memory_facts") or {}
    if not isinstance(compat, dict):
        check.fail("$.memory_facts", say("must_be_object", got=type_name(compat)))
        compat = {}
    # read before any normalising: the result as it was written, an import's or an agent's
    found = names_found(data)
    result = ChapterResult(
        chapter=number or 0,
        title=check.text(data, "title", "$", limit=NAME_CHARS),
        summary=check.text(data, "summary", "$"),
        word_count=check.integer(data, "word_count", "$", (0, MAX_WORDS)),
        entities_new=tuple(_entities_new(check, data)),
        entities_appeared=tuple(_appearances(check, data, found)),
        state_changes=tuple(_state_changes(check, data)),
        relationships=tuple(_relationships(check, data)),
        threads=tuple(_threads(check, data, compat)),
        world_rules=tuple(_rules(check, data, compat)),
        timeline_events=tuple(_events(check, data, compat)),
        scenes=tuple(_scenes(check, data)),
        secrets=tuple(_secrets(check, data)),
        knowledge=tuple(_knowledge(check, data)),
        chapter_meta=_meta(check, data),
        uncertain=tuple(_uncertain(check, data)),
        warnings=tuple(say("unknown_key_kept", key=k) for k in data if k not in KNOWN_KEYS),
        names_found=found,
    )
    _told_in_scenes(check, result)
    if check.problems:
        raise InvalidChapterResult(check.problems)
    return result


def _told_in_scenes(check: Checker, result: ChapterResult) -> None:
    """A reveal told in `scene` N names a scene of this chapter: else nobody would learn it."""
    indexes = {scene.index for scene in result.scenes}
    for i, secret in enumerate(result.secrets):
        if secret.scene is not None and secret.scene not in indexes:
            shown = "、".join(str(n) for n in sorted(indexes)) or say("no_scenes")
            check.fail(f"$.secrets[{i}].scene", say("no_such_scene", got=secret.scene, have=shown))


def _chapter_number(check: Checker, data: dict[str, Any], chapter: int | None) -> int | None:
    value = data.get("chapter")
    if value is None and chapter is None:
        check.fail("$.chapter", say("chapter_required"))
        return None
    if value is not None and not _is_chapter(value):
        check.fail("$.chapter", say("must_be_chapter", high=f"{MAX_CHAPTER:,}", got=repr(value)))
        return None
    if chapter is not None and not _is_chapter(chapter):
        check.fail("--chapter", say("must_be_chapter", high=f"{MAX_CHAPTER:,}", got=chapter))
        return None
    if chapter is not None and value is not None and chapter != value:
        check.fail("$.chapter", say("chapter_disagrees", written=value, given=chapter))
    return value if value is not None else chapter


def _is_chapter(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_CHAPTER


def _entities_new(check: Checker, data: dict[str, Any]) -> list[NewEntity]:
    out = []
    first_path: dict[str, str] = {}
    for path, item in check.objects(data, "entities_new", "$"):
        entity_id = check.name(
            check.text(item, "id", path, required=True, alternatives=("suggested_id",)),
            f"{path}.id",
        )
        name = check.name(check.text(item, "name", path, required=True), f"{path}.name")
        if entity_id and entity_id in first_path:
            check.fail(
                f"{path}.id", say("introduced_twice", id=entity_id, first=first_path[entity_id])
            )
            continue
        if entity_id:
            first_path[entity_id] = path
        current = item.get("current") or {}
        if not isinstance(current, dict):
            check.fail(f"{path}.current", say("must_be_fields"))
            current = {}
        for key in current:
            check.scalar(current, key, f"{path}.current")
            if current[key] is None:
                check.fail(f"{path}.current.{key}", say("must_be_scalar", got=say("null")))
        aliases = check.refs(item, "aliases", path)
        protagonist = item.get("is_protagonist", False)
        if not isinstance(protagonist, bool):
            check.fail(f"{path}.is_protagonist", say("must_be_bool"))
        revealed = item.get("revealed", False)
        if not isinstance(revealed, bool):
            check.fail(f"{path}.revealed", say("must_be_bool"))
        if entity_id and name:
            out.append(
                NewEntity(
                    id=entity_id,
                    name=name,
                    type=check.text(item, "type", path) or "角色",
                    tier=check.text(item, "tier", path),
                    desc=check.text(item, "desc", path),
                    aliases=aliases,
                    current=tuple(current.items()),
                    is_protagonist=protagonist is True,
                    revealed=revealed is True,
                )
            )
    return out


def _appearances(check: Checker, data: dict[str, Any], found: bool) -> list[Appearance]:
    # an import's result (also one stored before imports wrote the role) names, not acts; once
    # an agent has made it its own, an appearance without a role is the agent's: present. An
    # explicit role is kept either way (the import's "mentioned" stays a mention).
    default_role = "mentioned" if found else "present"
    out = []
    for path, item in check.objects(data, "entities_appeared", "$"):
        ref = check.name(
            check.text(item, "id", path, required=True, alternatives=("entity_id", "name")),
            f"{path}.id",
        )
        mentions = check.refs(item, "mentions", path)
        if ref:
            role = check.choice(
                item.get("role"), APPEARANCE_ROLES.values, f"{path}.role", default_role
            )
            out.append(Appearance(ref, mentions, check.number(item, "confidence", path), role))
    return out


def _state_changes(check: Checker, data: dict[str, Any]) -> list[StateChange]:
    out = []
    for path, item in check.objects(data, "state_changes", "$"):
        ref = check.name(check.text(item, "entity_id", path, required=True), f"{path}.entity_id")
        field_name = check.text(item, "field", path, required=True, alternatives=("field_path",))
        new_key = "new" if "new" in item else "new_value"
        old_key = "old" if "old" in item else "old_value"
        if new_key not in item:
            check.fail(f"{path}.new", say("required"))
        elif item[new_key] is None:  # a state field holds a value; null says nothing
            check.fail(f"{path}.{new_key}", say("must_be_scalar", got=say("null")))
        new = check.scalar(item, new_key, path)
        old = check.scalar(item, old_key, path)
        op = check.choice(item.get("op"), SET_OPS, f"{path}.op", "set")
        if ref and field_name and item.get(new_key) is not None:
            out.append(
                StateChange(
                    ref=ref,
                    field=field_name,
                    new=new,
                    op=op,
                    old=old,
                    has_old=item.get(old_key) is not None,
                    reason=check.text(item, "reason", path),
                    confidence=check.number(item, "confidence", path),
                    **_certainty(check, item, path, ref),
                )
            )
    return out


def _certainty(check: Checker, item: dict[str, Any], path: str, ref: str | None) -> dict[str, Any]:
    """Whose words a fact is (`said_by`): hearsay, or a claim when they are the entity's own."""
    said_by = check.name(check.text(item, "said_by", path), f"{path}.said_by")
    certainty = check.choice(item.get("certainty"), CERTAINTIES.values, f"{path}.certainty", "")
    if said_by and not certainty:
        certainty = "claimed" if said_by == ref else "rumor"
    return {"certainty": certainty or None, "said_by": said_by}


def _relationships(check: Checker, data: dict[str, Any]) -> list[RelationChange]:
    out = []
    for path, item in check.objects(data, "relationships_new", "$"):
        source = check.text(item, "from", path, required=True, alternatives=("from_entity",))
        target = check.text(item, "to", path, required=True, alternatives=("to_entity",))
        rel_type = check.text(item, "type", path, required=True)
        action = check.choice(item.get("action"), RELATION_ACTIONS, f"{path}.action", "create")
        evidence = item.get("evidence")
        if source and target and rel_type:
            out.append(
                RelationChange(
                    source,
                    target,
                    rel_type,
                    RELATION_ACTIONS[action],
                    check.text(item, "description", path),
                    evidence if isinstance(evidence, str) else None,
                    check.number(item, "confidence", path),
                )
            )
    return out


def _threads(check: Checker, data: dict[str, Any], compat: dict[str, Any]) -> list[ThreadAction]:
    items = check.objects(data, "plot_threads", "$")
    for key, compat_kind in (("open_loops", "open_loop"), ("reader_promises", "reader_promise")):
        items += [
            (p, {"kind": compat_kind, **i}) for p, i in check.objects(compat, key, "$.memory_facts")
        ]
    out = []
    for path, item in items:
        action = check.choice(item.get("action"), THREAD_ACTIONS, f"{path}.action", "plant")
        kind_value = item.get("kind")
        kind: ThreadKind | None = (
            thread_kind(check.choice(kind_value, THREAD_KINDS, f"{path}.kind", "open_loop"))
            if kind_value is not None
            else None
        )
        content = check.text(item, "content", path, alternatives=("description", "text"))
        thread_id = check.text(item, "id", path, alternatives=("thread_id",))
        if not thread_id:
            if action != "plant" or not content:
                check.fail(f"{path}.id", say("thread_id_required"))
                continue
            thread_id = derived_id("t", content)
        due_raw = item.get("due_chapter", item.get("expected_payoff"))
        due = parse_chapter_number(due_raw)
        if due_raw is not None and (due is None or not _is_chapter(due)):
            check.fail(
                f"{path}.due_chapter",
                say("must_be_chapter", high=f"{MAX_CHAPTER:,}", got=repr(due_raw)),
            )
            due = None
        urgency = item.get("urgency")
        if urgency is not None and (
            isinstance(urgency, bool)
            or not isinstance(urgency, int | float)
            or not 0 <= urgency <= MAX_URGENCY
        ):
            check.fail(f"{path}.urgency", say("out_of_range", low=0, high=MAX_URGENCY, got=urgency))
            urgency = None
        out.append(
            ThreadAction(
                thread_id,
                action,
                kind,
                content,
                due,
                int(urgency) if urgency is not None else None,
                check.refs(item, "related", path),
                check.text(item, "due_time", path),
            )
        )
    return out


def _rules(check: Checker, data: dict[str, Any], compat: dict[str, Any]) -> list[RuleAction]:
    items = check.objects(data, "world_rules", "$") + check.objects(
        compat, "world_rules", "$.memory_facts"
    )
    out = []
    for path, item in items:
        action = check.choice(item.get("action"), RULE_ACTIONS, f"{path}.action", "reveal")
        rule = check.text(
            item, "rule", path, required=action != "retire", alternatives=("content",)
        )
        rule_id = check.text(item, "id", path)
        if not rule_id:
            if action != "reveal" or not rule:
                check.fail(f"{path}.id", say("rule_id_required", action=action))
                continue
            rule_id = derived_id("r", rule)
        out.append(RuleAction(rule_id, rule or "", check.text(item, "domain", path), action))
    return out


def _events(check: Checker, data: dict[str, Any], compat: dict[str, Any]) -> list[EventInput]:
    items = check.objects(data, "timeline_events", "$") + check.objects(
        compat, "timeline_events", "$.memory_facts"
    )
    out = []
    for path, item in items:
        event = check.text(item, "event", path, required=True, alternatives=("description",))
        if event:
            out.append(
                EventInput(
                    event,
                    check.text(item, "time_hint", path),
                    check.refs(item, "participants", path),
                    check.text(item, "location", path),
                    check.text(item, "event_type", path),
                    _scene_mode(check, item.get("flashback"), f"{path}.flashback"),
                )
            )
    return out


def _secrets(check: Checker, data: dict[str, Any]) -> list[SecretAction]:
    out = []
    for path, item in check.objects(data, "secrets", "$"):
        action = check.choice(item.get("action"), SECRET_ACTIONS, f"{path}.action", "plant")
        secret_id = check.name(check.text(item, "id", path, required=True), f"{path}.id")
        content = check.text(item, "content", path, required=action == "plant")
        reader_knows = item.get("reader_knows")
        if reader_knows is not None and not isinstance(reader_knows, bool):
            check.fail(f"{path}.reader_knows", say("must_be_bool"))
            reader_knows = None
        due = check.integer(item, "reveal_due", path, (1, MAX_CHAPTER))
        if secret_id:
            out.append(
                SecretAction(
                    secret_id,
                    action,
                    content,
                    check.refs(item, "known_by", path),
                    reader_knows,
                    due,
                    check.refs(item, "about", path),
                    check.refs(item, "unaware", path),
                    kind=check.choice(item.get("kind"), SECRET_KINDS.values, f"{path}.kind", "")
                    or None,
                    to=check.refs(item, "to", path),
                    scene=check.integer(item, "scene", path, (0, MAX_COUNT)),
                    thread=check.text(item, "thread", path),
                )
            )
    return out


def _knowledge(check: Checker, data: dict[str, Any]) -> list[KnowledgeChange]:
    out = []
    for path, item in check.objects(data, "knowledge_changes", "$"):
        ref = check.name(check.text(item, "entity_id", path, required=True), f"{path}.entity_id")
        secret_id = check.text(item, "secret_id", path, required=True)
        change = check.choice(item.get("change"), KNOWLEDGE_CHANGES, f"{path}.change", "learns")
        source = check.name(check.text(item, "from", path), f"{path}.from")
        if ref and secret_id:
            out.append(
                KnowledgeChange(ref, secret_id, change, check.text(item, "how", path), source)
            )
    return out


def _scenes(check: Checker, data: dict[str, Any]) -> list[SceneInput]:
    out = []
    for n, (path, item) in enumerate(check.objects(data, "scenes", "$"), start=1):
        index = check.integer(item, "index", path, (0, MAX_COUNT))
        out.append(
            SceneInput(
                index if index is not None else n,
                check.text(item, "location", path),
                check.refs(item, "characters", path),
                check.text(item, "summary", path),
                check.text(item, "content", path),
                _scene_mode(check, item.get("flashback"), f"{path}.flashback"),
                check.text(item, "time", path),
            )
        )
    return out


def _scene_mode(check: Checker, value: Any, path: str) -> str | None:
    """`flashback`: true or false, or the word for a scene that is not now (回忆, 梦境)."""
    if value is None or value is False:
        return None
    if value is True:
        return "flashback"
    if isinstance(value, str) and value in SCENE_MODES.values:
        return value
    check.fail(path, say("must_be_scene_mode", choices=SCENE_MODES.described(), got=repr(value)))
    return None


def _meta(check: Checker, data: dict[str, Any]) -> dict[str, Any]:
    meta = data.get("chapter_meta") or {}
    if not isinstance(meta, dict):
        check.fail("$.chapter_meta", say("must_be_object", got=type_name(meta)))
        return {}
    return meta


def _uncertain(check: Checker, data: dict[str, Any]) -> list[Uncertain]:
    out = []
    for path, item in check.objects(data, "uncertain", "$"):
        mention = check.text(item, "mention", path, required=True)
        if mention:
            out.append(
                Uncertain(
                    mention,
                    check.text(item, "adopted", path),
                    check.refs(item, "candidates", path),
                    check.number(item, "confidence", path),
                )
            )
    return out
