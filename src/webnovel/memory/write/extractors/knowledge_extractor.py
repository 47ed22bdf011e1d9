"""Secrets and who knows them: the seed's information gap between characters and the reader.

A secret is a chain of its own (family `secret`): planted, revealed to the reader, retired.
Each character's knowledge of a secret is a chain too (family `know`, keyed by entity and
secret): learns, suspects, forgets. A plant's `known_by` is knowledge from that chapter on.

The knowledge rule: a secret about a person (`about`) is known to that person from the plant
on, unless the plant lists them as `unaware` (a lineage they do not know). It is written as
ordinary knowledge, so every read and review sees it without a rule of its own.

Learning by being there: a reveal told `to` people, a 势力 or 众人, or in a `scene` of the
chapter, is learnt by them (众人: everyone in that scene, or in the chapter's present scenes),
written as knowledge marked `present`; one who knew it already is no news.
"""

from __future__ import annotations

from ...chains import KnowledgePayload, SecretPayload
from ...said import Said, stored
from ...vocabulary import EVERYONE
from ..chain_folds import Activity, Assertion, chain_key
from ..chapter_inputs import ChapterResult
from . import Extraction, Resolve, evidence


def extract_knowledge(result: ChapterResult, resolve: Resolve, seq_start: int = 0) -> Extraction:
    out = Extraction()
    n = result.chapter
    seq = seq_start
    for secret in result.secrets:
        about = [resolve(ref)[0] for ref in secret.about]
        unaware = {resolve(ref)[0] for ref in secret.unaware}
        payload: SecretPayload = {
            "action": secret.action,
            "content": secret.content,
            "reader_knows": secret.reader_knows,
            "reveal_due": secret.reveal_due,
            "evidence": [evidence(n, f"secret:{secret.id}:{secret.action}:{n}", secret.content)],
        }
        if about:
            payload["about"] = about
        if unaware:
            payload["unaware"] = sorted(unaware)
        if secret.kind:
            payload["kind"] = secret.kind
        if secret.thread:
            payload["thread"] = secret.thread
        out.assertions.append(
            Assertion(
                family="secret",
                key=secret.id,
                subject=secret.id,
                field="secret",
                obj=None,
                chapter=n,
                seq=seq,
                payload=payload,
            )
        )
        seq += 1
        if secret.action == "plant":
            knowing = [(resolve(ref)[0], Said("knowledge_how_planted")) for ref in secret.known_by]
            known = {entity_id for entity_id, _ in knowing}
            knowing += [
                (entity_id, Said("knowledge_how_about_self"))
                for entity_id in dict.fromkeys(about)
                if entity_id not in known and entity_id not in unaware
            ]
            for entity_id, how in knowing:
                out.assertions.append(_knowing(n, seq, entity_id, secret.id, "learns", how, None))
                seq += 1
        if secret.action == "reveal":
            for entity_id in told(result, secret.to, secret.scene, resolve):
                how = Said("pack_learnt_there", chapter=n)
                out.assertions.append(
                    _knowing(n, seq, entity_id, secret.id, "learns", how, None, present=True)
                )
                seq += 1
    for change in result.knowledge:
        entity_id, _ = resolve(change.ref)
        source = resolve(change.source_ref)[0] if change.source_ref else None
        out.assertions.append(
            _knowing(n, seq, entity_id, change.secret_id, change.change, change.how, source)
        )
        out.activities.append(
            Activity(entity_id=entity_id, chapter=n, kind="knowledge", mention=change.ref)
        )
        if source is not None and change.source_ref is not None:
            out.activities.append(
                Activity(entity_id=source, chapter=n, kind="knowledge", mention=change.source_ref)
            )
        seq += 1
    return out


def _knowing(
    chapter: int,
    seq: int,
    entity_id: str,
    secret_id: str,
    change: str,
    how: str | None,
    source: str | None,
    *,
    present: bool = False,
) -> Assertion:
    payload: KnowledgePayload = {
        "change": change,
        "how": how,
        "from": source,
        "evidence": [
            evidence(chapter, f"knowledge:{entity_id}:{secret_id}:{change}:{chapter}", how)
        ],
    }
    kept = stored(how, {}) if how is not None else None
    if kept is not None:  # the engine's own words: said again in the reader's language
        payload["how_said"] = kept
    if present:
        payload["present"] = True
    return Assertion(
        family="know",
        key=chain_key(entity_id, secret_id),
        subject=entity_id,
        field=secret_id,
        obj=secret_id,
        chapter=chapter,
        seq=seq,
        payload=payload,
    )


def told(
    result: ChapterResult, to: tuple[str, ...], scene: int | None, resolve: Resolve
) -> list[str]:
    """Who learns a reveal by being told it: those named in `to`, and everyone in its scene
    (or, for 众人 without a scene, in the chapter's present scenes)."""
    present = [s for s in result.scenes if not s.mode]
    if scene is not None:
        present = [s for s in present if s.index == scene]
    there = [resolve(ref)[0] for s in present for ref in s.characters]
    named = [resolve(ref)[0] for ref in to if ref not in EVERYONE]
    everyone = scene is not None or any(ref in EVERYONE for ref in to)
    return list(dict.fromkeys([*named, *(there if everyone else [])]))
