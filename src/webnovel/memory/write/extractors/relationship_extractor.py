"""Directed relation edges; types of one exclusive group share a chain and replace each other."""

from __future__ import annotations

from ....config import BookConfig
from ..chain_folds import Activity, Assertion, chain_key
from ..chapter_inputs import ChapterResult
from . import Extraction, Resolve, evidence


def extract_relationships(
    result: ChapterResult, resolve: Resolve, config: BookConfig, seq_start: int = 0
) -> Extraction:
    out = Extraction()
    n = result.chapter
    for seq, rel in enumerate(result.relationships, start=seq_start):
        source, source_cap = resolve(rel.source_ref)
        target, target_cap = resolve(rel.target_ref)
        key = chain_key(source, target, config.relation_group(rel.type))
        out.assertions.append(
            Assertion(
                family="rel",
                key=key,
                subject=source,
                field=rel.type,
                obj=target,
                chapter=n,
                seq=seq,
                payload={
                    "action": rel.action,
                    "type": rel.type,
                    "description": rel.description,
                    "confidence": min(rel.confidence, source_cap, target_cap),
                    "evidence": [
                        evidence(
                            n,
                            f"relationship:{source}:{target}:{rel.type}:{n}",
                            rel.evidence or rel.description,
                        )
                    ],
                },
            )
        )
        out.activities.append(
            Activity(entity_id=source, chapter=n, kind="relation", mention=rel.source_ref)
        )
        out.activities.append(
            Activity(entity_id=target, chapter=n, kind="relation_target", mention=rel.target_ref)
        )
    return out
