"""The chapter result once validated: plain frozen values, one class per kind of item. The
validator in `chapter_result` builds them; the extractors read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..schema import ThreadKind


@dataclass(frozen=True)
class NewEntity:
    id: str
    name: str
    type: str = "角色"
    tier: str | None = None
    desc: str | None = None
    aliases: tuple[str, ...] = ()
    current: tuple[tuple[str, Any], ...] = ()
    is_protagonist: bool = False
    revealed: bool = False  # a known entity, of whom this chapter reveals more


@dataclass(frozen=True)
class Appearance:
    ref: str
    mentions: tuple[str, ...] = ()
    confidence: float = 1.0
    role: str = "present"  # "mentioned": only named (a memory, a dialogue), not acting


@dataclass(frozen=True)
class StateChange:
    ref: str
    field: str
    new: Any
    op: str = "set"
    old: Any = None
    has_old: bool = False
    reason: str | None = None
    confidence: float = 1.0
    certainty: str | None = None  # CERTAINTIES: rumor (传闻) or claimed (自称); None: as told
    said_by: str | None = None  # whose words it is (a reference)


@dataclass(frozen=True)
class RelationChange:
    source_ref: str
    target_ref: str
    type: str
    action: str = "assert"  # "assert" (create/update) or "end"
    description: str | None = None
    evidence: str | None = None
    confidence: float = 1.0


@dataclass(frozen=True)
class ThreadAction:
    id: str
    action: str = "plant"
    kind: ThreadKind | None = None
    content: str | None = None
    due_chapter: int | None = None
    urgency: int | None = None
    related: tuple[str, ...] = ()
    due_time: str | None = None  # due in story time, from the chapter that plants it: 三年后


@dataclass(frozen=True)
class RuleAction:
    id: str
    rule: str
    domain: str | None = None
    action: str = "reveal"


@dataclass(frozen=True)
class EventInput:
    event: str
    time_hint: str | None = None
    participants: tuple[str, ...] = ()
    location: str | None = None
    event_type: str | None = None
    mode: str | None = None  # as a scene's: an event remembered or dreamt happens in no present


@dataclass(frozen=True)
class SceneInput:
    index: int
    location: str | None = None
    characters: tuple[str, ...] = ()
    summary: str | None = None
    content: str | None = None
    mode: str | None = None  # None: the story's present; "flashback" or "dream" (SCENE_MODES)
    time: str | None = None  # when it happens, in the prose's own words (清晨, 三日后, 十年前)


@dataclass(frozen=True)
class SecretAction:
    """A secret of the story: planted (known to some characters), revealed to the reader, or
    retired (it stopped mattering)."""

    id: str
    action: str = "plant"
    content: str | None = None
    known_by: tuple[str, ...] = ()
    reader_knows: bool | None = None
    reveal_due: int | None = None
    about: tuple[str, ...] = ()  # whom it is about: they know it, unless also `unaware`
    unaware: tuple[str, ...] = ()  # people it is about who do not know it (a hidden lineage)
    kind: str | None = None  # SECRET_KINDS: 身份, 生死, 下落, 计划, 秘法, 其他
    to: tuple[str, ...] = ()  # a reveal told to these (people, a 势力, 众人): they learn it
    scene: int | None = None  # the scene of the chapter it is told in: its people learn it
    thread: str | None = None  # the thread it belongs to: it ends when the thread closes


@dataclass(frozen=True)
class KnowledgeChange:
    """A character learns, suspects or forgets a secret, perhaps from someone."""

    ref: str
    secret_id: str
    change: str = "learns"
    how: str | None = None
    source_ref: str | None = None


@dataclass(frozen=True)
class Uncertain:
    mention: str
    adopted: str | None
    candidates: tuple[str, ...] = ()
    confidence: float = 1.0


@dataclass(frozen=True)
class ChapterResult:
    chapter: int
    title: str | None = None
    summary: str | None = None
    word_count: int | None = None
    entities_new: tuple[NewEntity, ...] = ()
    entities_appeared: tuple[Appearance, ...] = ()
    state_changes: tuple[StateChange, ...] = ()
    relationships: tuple[RelationChange, ...] = ()
    threads: tuple[ThreadAction, ...] = ()
    world_rules: tuple[RuleAction, ...] = ()
    timeline_events: tuple[EventInput, ...] = ()
    scenes: tuple[SceneInput, ...] = ()
    secrets: tuple[SecretAction, ...] = ()
    knowledge: tuple[KnowledgeChange, ...] = ()
    chapter_meta: dict[str, Any] = field(default_factory=dict)
    uncertain: tuple[Uncertain, ...] = ()
    warnings: tuple[str, ...] = ()
    # The people in this result are names an import found in the text, not an agent's reading
    # of who acts (`import_shape.names_found`): its appearances without a role and its scenes'
    # people are mentions, so a dead master remembered in prose is no 死者行动.
    names_found: bool = False
