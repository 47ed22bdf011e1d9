"""A finding of a chapter as the conflict memory keeps: its id, a function of what it says and
where it was found (so a rebuild finds the same conflict under the same id), and a commit's
content hash, which tells an unchanged re-commit from a revision."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..chains import WHO, stored_message, stored_said
from ..records import Conflict
from ..said import Said
from ..schema import finding_kind
from .chain_folds import ConflictDraft

HASH_PREFIX = "b2:"


def content_hash(result: Any, text: str | None) -> str:
    canonical = json.dumps(
        {"result": result, "text": text}, ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    return HASH_PREFIX + hashlib.blake2b(canonical.encode("utf-8"), digest_size=16).hexdigest()


def conflict_id(draft: ConflictDraft, scope: str) -> str:
    basis = json.dumps(
        [
            scope,
            draft.kind,
            draft.entity_id,
            draft.field,
            draft.chapter,
            draft.expected,
            draft.found,
        ],
        ensure_ascii=False,
        default=str,
    )
    return "c-" + hashlib.blake2b(basis.encode("utf-8"), digest_size=6).hexdigest()


def to_conflict(draft: ConflictDraft, scope: str) -> Conflict:
    """A draft as a stored conflict; its message keeps {who}/{target} until it is read."""
    return Conflict(
        id=conflict_id(draft, scope),
        kind=finding_kind(draft.kind),
        entity_id=draft.entity_id,
        field=draft.field,
        chapter=draft.chapter,
        expected=draft.expected,
        found=draft.found,
        message=stored_message(draft.message),
        evidence=draft.evidence,
        target=draft.target,
        said=stored_said(draft.message),
    )


def ambiguity_conflict(chapter: int, reference: str, ids: list[str]) -> Conflict:
    """Two entities answer to one name: the first is taken, and the author is told."""
    draft = ConflictDraft(
        kind="ambiguous_alias",
        chapter=chapter,
        entity_id=ids[0],
        expected="one entity",
        found=ids,
        message=Said(
            "conflict_ambiguous_alias",
            reference=reference,
            ids="、".join(ids),
            who=WHO,
            chosen=ids[0],
        ),
    )
    return to_conflict(draft, f"entity:{ids[0]}")
