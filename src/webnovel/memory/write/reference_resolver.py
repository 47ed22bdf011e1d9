"""A chapter result's entity references → canonical ids, as its commit resolves them: the
chapter's own introductions first, then `uncertain` adoptions, then what memory's one naming
rule (`name_ops`) makes of ids, names and aliases. An unknown reference becomes a tentative
entity, with a warning that suggests the name probably meant."""

from __future__ import annotations

from ...messages import say
from ..store import entity_ops, name_ops
from ..store.connection import Connection
from .chapter_inputs import ChapterResult
from .name_suggestions import did_you_mean


class ReferenceResolver:
    """Entity references → canonical ids: this chapter's introductions, `uncertain` adoptions,
    then ids, names and aliases in memory. An unknown reference becomes a tentative entity."""

    def __init__(self, conn: Connection, result: ChapterResult) -> None:
        self.conn = conn
        self.chapter = result.chapter
        self.local: dict[str, str] = {}
        for entity in result.entities_new:
            for name in (entity.id, entity.name, *entity.aliases):
                self.local.setdefault(name, entity.id)
        self.uncertain = {u.mention: u for u in result.uncertain if u.adopted}
        self.cache: dict[str, tuple[str, float]] = {}
        # what memory makes of every name the result uses, read at once: the extractors then
        # ask one name at a time without a statement each (the rest are read as asked)
        self.asked = {r for r in _references(result) if r not in self.local}
        self.known = name_ops.resolve_references(conn, self.asked)
        self.ambiguous: dict[str, list[str]] = {}  # reference → the entities it could name
        self.warnings: list[str] = []
        self.created: set[str] = set()

    def __call__(self, reference: str) -> tuple[str, float]:
        if reference not in self.cache:
            self.cache[reference] = self._resolve(reference)
        return self.cache[reference]

    def _resolve(self, reference: str) -> tuple[str, float]:
        cap = 1.0
        if reference in self.uncertain:
            guess = self.uncertain[reference]
            cap = guess.confidence
            reference = guess.adopted or reference
        if reference in self.local:
            return self.local[reference], cap
        if reference in self.asked:
            ids = self.known.get(reference, [])
        else:
            ids = name_ops.resolve_reference(self.conn, reference)
        if len(ids) > 1 and reference not in self.ambiguous:
            self.ambiguous[reference] = ids
        if ids:
            return ids[0], cap
        entity_ops.ensure_tentative_entity(self.conn, reference, self.chapter)
        if reference not in self.created:
            self.created.add(reference)
            self.warnings.append(
                say(
                    "unknown_reference",
                    reference=reference,
                    meant=did_you_mean(self.conn, reference),
                )
            )
        return reference, cap


def _references(result: ChapterResult) -> set[str]:
    """Every entity reference a chapter result makes (what the extractors resolve), with the
    names `uncertain` adopts in place of a mention."""
    refs = {a.ref for a in result.entities_appeared} | {c.ref for c in result.state_changes}
    for rel in result.relationships:
        refs |= {rel.source_ref, rel.target_ref}
    for thread in result.threads:
        refs |= set(thread.related)
    for event in result.timeline_events:
        refs |= set(event.participants)
    for scene in result.scenes:
        refs |= set(scene.characters)
    for secret in result.secrets:
        refs |= {*secret.about, *secret.unaware, *secret.known_by}
    for change in result.knowledge:
        refs |= {change.ref, *([change.source_ref] if change.source_ref else [])}
    refs |= {u.adopted for u in result.uncertain if u.adopted}
    return refs
