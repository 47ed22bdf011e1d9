"""The chapter result as a JSON Schema (draft 2020-12), for agents and MCP clients.

Built from the same constants the validator in `chapter_result` checks against, so the two
cannot drift apart in what they accept as an enum; a test also checks that results the validator
accepts validate against this schema. The validator stays the authority on messages: it names
every bad JSON path in one error.
"""

from __future__ import annotations

from typing import Any

from ..schema import THREAD_ACTIONS, THREAD_KINDS
from ..vocabulary import APPEARANCE_ROLES, CERTAINTIES, SECRET_KINDS
from .chapter_result import (
    KNOWLEDGE_CHANGES,
    RELATION_ACTIONS,
    RULE_ACTIONS,
    SECRET_ACTIONS,
    SET_OPS,
)

SCALAR: dict[str, Any] = {"type": ["string", "number", "boolean"]}
REFERENCE: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "entity id, canonical name or any alias",
}
CONFIDENCE: dict[str, Any] = {"type": "number", "minimum": 0, "maximum": 1}


def _object(
    properties: dict[str, Any], required: list[str] | None = None, description: str = ""
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    if description:
        schema["description"] = description
    return schema


def _list(item: dict[str, Any], description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": item}
    if description:
        schema["description"] = description
    return schema


CHAPTER_RESULT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Chapter result",
    "description": "The structured record of one finished chapter (webnovel-memory).",
    **_object(
        {
            "chapter": {"type": "integer", "minimum": 1},
            "title": {"type": "string"},
            "summary": {"type": "string"},
            "word_count": {"type": "integer", "minimum": 0},
            "entities_new": _list(
                _object(
                    {
                        "id": {"type": "string", "minLength": 1},
                        "name": {"type": "string", "minLength": 1},
                        "type": {"type": "string", "default": "角色"},
                        "tier": {"type": "string"},
                        "aliases": _list({"type": "string"}),
                        "desc": {"type": "string"},
                        "current": {
                            "type": "object",
                            "additionalProperties": SCALAR,
                            "description": "the entity's state as of this chapter",
                        },
                        "is_protagonist": {"type": "boolean"},
                        "revealed": {
                            "type": "boolean",
                            "description": "an entity already introduced, of whom this chapter "
                            "reveals more (a true name, new aliases); without it a second "
                            "introduction is a duplicate_entity conflict",
                        },
                    },
                    ["id", "name"],
                ),
                "entities introduced in this chapter",
            ),
            "entities_appeared": _list(
                _object(
                    {
                        "id": REFERENCE,
                        "mentions": _list({"type": "string"}),
                        "confidence": CONFIDENCE,
                        "role": {
                            "enum": list(APPEARANCE_ROLES.values),
                            "default": "present",
                            "description": "present（出场：在场、行动、说话）或 mentioned"
                            "（提及：只在回忆或对话中被提到；死者被提及不算复活）",
                        },
                    },
                    ["id"],
                )
            ),
            "state_changes": _list(
                _object(
                    {
                        "entity_id": REFERENCE,
                        "field": {"type": "string", "minLength": 1},
                        "new": SCALAR,
                        "old": {
                            **SCALAR,
                            "description": "the value the writer believed was current",
                        },
                        "op": {"enum": list(SET_OPS), "default": "set"},
                        "reason": {"type": "string"},
                        "confidence": CONFIDENCE,
                        "certainty": {
                            "enum": list(CERTAINTIES.values),
                            "description": "rumor (传闻) or claimed (自称): only someone's words",
                        },
                        "said_by": {**REFERENCE, "description": "whose words it is"},
                    },
                    ["entity_id", "field", "new"],
                ),
                "in order: each is checked against the last",
            ),
            "relationships_new": _list(
                _object(
                    {
                        "from": REFERENCE,
                        "to": REFERENCE,
                        "type": {"type": "string", "minLength": 1},
                        "action": {"enum": list(RELATION_ACTIONS), "default": "create"},
                        "description": {"type": "string"},
                        "evidence": {"type": "string"},
                        "confidence": CONFIDENCE,
                    },
                    ["from", "to", "type"],
                )
            ),
            "plot_threads": _list(
                _object(
                    {
                        "id": {"type": "string"},
                        "kind": {"enum": list(THREAD_KINDS), "default": "open_loop"},
                        "action": {"enum": list(THREAD_ACTIONS), "default": "plant"},
                        "content": {"type": "string"},
                        "due_chapter": {"type": ["integer", "string"]},
                        "due_time": {"type": "string"},
                        "expected_payoff": {"type": ["integer", "string"]},
                        "urgency": {"type": "number"},
                        "related": _list(REFERENCE),
                    }
                ),
                "foreshadowing, open loops, reader promises, subplots",
            ),
            "secrets": _list(
                _object(
                    {
                        "id": {"type": "string", "minLength": 1},
                        "content": {"type": "string", "description": "what the secret is"},
                        "action": {"enum": list(SECRET_ACTIONS), "default": "plant"},
                        "known_by": _list(REFERENCE),
                        "reader_knows": {"type": "boolean"},
                        "reveal_due": {"type": "integer", "minimum": 1},
                        "about": _list(REFERENCE),
                        "unaware": _list(REFERENCE),
                        "kind": {"enum": list(SECRET_KINDS.values)},
                        "to": _list(REFERENCE),
                        "scene": {"type": "integer", "minimum": 0},
                        "thread": {"type": "string"},
                    },
                    ["id"],
                ),
                "secrets: plant (known_by knows it), reveal (now the reader knows), retire; "
                "about: whom it concerns (they know it unless listed in unaware); kind: 身份, "
                "生死, 下落, 计划, 秘法, 其他; a reveal's to (people, a 势力, 众人) or scene (its "
                "index): who learns it by being told; thread: it ends when that thread closes",
            ),
            "knowledge_changes": _list(
                _object(
                    {
                        "entity_id": REFERENCE,
                        "secret_id": {"type": "string", "minLength": 1},
                        "change": {"enum": list(KNOWLEDGE_CHANGES), "default": "learns"},
                        "how": {"type": "string"},
                        "from": REFERENCE,
                    },
                    ["entity_id", "secret_id"],
                ),
                "a character learns, suspects or forgets a secret (from someone)",
            ),
            "world_rules": _list(
                _object(
                    {
                        "id": {"type": "string"},
                        "rule": {"type": "string"},
                        "domain": {"type": "string"},
                        "action": {"enum": list(RULE_ACTIONS), "default": "reveal"},
                    }
                )
            ),
            "timeline_events": _list(
                _object(
                    {
                        "event": {"type": "string", "minLength": 1},
                        "time_hint": {"type": "string"},
                        "participants": _list(REFERENCE),
                        "location": {"type": "string"},
                        "event_type": {"type": "string"},
                        "flashback": {"type": ["boolean", "string"]},
                    },
                    ["event"],
                )
            ),
            "scenes": _list(
                _object(
                    {
                        "index": {"type": "integer"},
                        "location": {"type": "string"},
                        "characters": _list(REFERENCE),
                        "summary": {"type": "string"},
                        "content": {"type": "string"},
                        "time": {"type": "string"},
                        "flashback": {"type": ["boolean", "string"]},
                    }
                )
            ),
            "chapter_meta": {"type": "object"},
            "uncertain": _list(
                _object(
                    {
                        "mention": {"type": "string", "minLength": 1},
                        "candidates": _list({"type": "string"}),
                        "adopted": {"type": ["string", "null"]},
                        "confidence": CONFIDENCE,
                    },
                    ["mention"],
                )
            ),
        },
        ["chapter"],
    ),
}
