"""Entity state: `entities_new[].current` first, then `state_changes` in list order (CONTRACT §1)."""

from __future__ import annotations

from ...chains import FactPayload
from ..chain_folds import Activity, Assertion, chain_key
from ..chapter_inputs import ChapterResult
from . import Extraction, Resolve, evidence
from .timeline_extractor import only_recalled


def extract_facts(result: ChapterResult, resolve: Resolve, seq_start: int = 0) -> Extraction:
    out = Extraction()
    n = result.chapter
    seq = seq_start
    for entity in result.entities_new:
        for field_name, value in entity.current:
            out.assertions.append(
                Assertion(
                    family="fact",
                    key=chain_key(entity.id, field_name),
                    subject=entity.id,
                    field=field_name,
                    obj=None,
                    chapter=n,
                    seq=seq,
                    payload={
                        "op": "set",
                        "value": value,
                        "confidence": 1.0,
                        "source_type": "entity_new",
                        "evidence": [evidence(n, f"entity_new:{entity.id}:{field_name}:{n}")],
                    },
                )
            )
            seq += 1
        out.activities.append(
            Activity(entity_id=entity.id, chapter=n, kind="introduced", mention=entity.name)
        )
    for change in result.state_changes:
        entity_id, cap = resolve(change.ref)
        payload: FactPayload = {
            "op": change.op,
            "value": change.new,
            "confidence": min(change.confidence, cap),
            "source_type": "state_change",
            "evidence": [
                evidence(n, f"state_change:{entity_id}:{change.field}:{n}", change.reason)
            ],
        }
        if change.certainty:  # kept with the evidence: whoever reads the fact sees its source
            payload["evidence"][0]["certainty"] = change.certainty
            if change.said_by:
                payload["evidence"][0]["said_by"] = resolve(change.said_by)[0]
        if change.has_old:
            payload["old"], payload["has_old"] = change.old, True
        if change.reason:
            payload["reason"] = change.reason
        out.assertions.append(
            Assertion(
                family="fact",
                key=chain_key(entity_id, change.field),
                subject=entity_id,
                field=change.field,
                obj=None,
                chapter=n,
                seq=seq,
                payload=payload,
            )
        )
        out.activities.append(
            Activity(entity_id=entity_id, chapter=n, kind="state_change", mention=change.ref)
        )
        seq += 1
    recalled = only_recalled(result, resolve) if result.entities_appeared else set()
    for appearance in result.entities_appeared:
        entity_id, _ = resolve(appearance.ref)
        kind = "mentioned" if appearance.role == "mentioned" else "appeared"
        if kind == "appeared" and entity_id in recalled:
            kind = "recalled"
        out.activities.append(
            Activity(entity_id=entity_id, chapter=n, kind=kind, mention=appearance.ref)
        )
    return out
