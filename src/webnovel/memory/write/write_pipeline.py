"""Chapter result → memory: validate, log, extract, resolve, apply in one transaction.

Committing chapter N first retracts everything N's previous commit contributed, then replays only
the chains (and entities) that either version of N touched, from chapter N on. The cost follows
what the chapter touches, not the length of the book, and a revision of an early chapter goes down
the same path as an append.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...config import BookConfig
from ...errors import UnknownChapter
from ...messages import say
from ...prose.measure import chapter_words
from ..chains import Family
from ..records import CommitCounts, CommitReport, Conflict
from ..schema import Introduction
from ..store import (
    activity_ops,
    assertion_ops,
    chain_ops,
    commit_ops,
    entity_ops,
    name_ops,
    observability_ops,
    record_ops,
    revision_ops,
)
from ..store.connection import Cursor
from ..store.index_store import IndexStore
from ..vocabulary import field_terms
from .chain_folds import (
    KEY_SEPARATOR,
    Version,
    chain_key,
    conflict_windows,
    duplicate_intros,
    entity_conflicts,
    knowledge_conflicts,
    replay,
)
from .chapter_inputs import ChapterResult
from .chapter_result import parse_chapter_result
from .commit_checks import check_text, where_it_stands
from .conflict_changes import ask_open_conflicts, conflicts_changed, open_conflicts
from .conflict_records import ambiguity_conflict, content_hash, to_conflict
from .extractors import Extraction
from .extractors.fact_extractor import extract_facts
from .extractors.knowledge_extractor import extract_knowledge
from .extractors.promise_extractor import extract_promises
from .extractors.relationship_extractor import extract_relationships
from .extractors.timeline_extractor import extract_timeline
from .intake import Intake, normalize_result
from .item_rules import (
    ITEM_SCOPE,
    item_entities,
    items_given_unheld,
    items_held_elsewhere,
    judged_with_every_holder,
)
from .name_changes import NameChanges, chapters_to_apply_again, name_changes_since
from .name_rules import names_reintroduced, names_taken, namesakes, without_reintroduced
from .reference_resolver import ReferenceResolver
from .reveal_rules import reveals_taking_names
from .time_rules import time_findings


@dataclass
class ApplyOutcome:
    counts: CommitCounts = field(default_factory=CommitCounts)
    conflicts: list[Conflict] = field(default_factory=list)
    notes: list[Conflict] = field(default_factory=list)  # advice about this chapter
    warnings: list[str] = field(default_factory=list)
    # removals of items recorded before are judged again (`_item_moves`), and these entities'
    items_again: bool = False
    adopted: set[str] = field(default_factory=set)


class WritePipeline:
    def __init__(self, index: IndexStore, config: BookConfig) -> None:
        self.index = index
        self.config = config
        self.fields = field_terms(config.fields, config.ladders)
        # During a replay of the whole book (`replay_all`): the entities whose conflicts wait
        # for the last chapter. Checked after each chapter, a dead man named in every later one
        # cost a rebuild the square of the chapters (2,000: 4 s → 360 s); None: checked now.
        self.entity_checks_later: set[str] | None = None

    def read(self, data: Any, chapter: int | None = None) -> tuple[ChapterResult, Intake]:
        """A chapter result as written, made canonical and validated: the typed result, and
        the canonical form with notes on what intake changed."""
        intake = normalize_result(data, self.fields)
        return parse_chapter_result(intake.result, chapter, plain=intake.plain), intake

    def commit(
        self,
        data: Any,
        text: str | None = None,
        chapter: int | None = None,
        recorded_at: str | None = None,
        text_source: str | None = None,
        stale: bool = False,
    ) -> CommitReport:
        """`text_source`: the file the text came from, kept with the text's hash; `stale`: the
        result was not made from this text (`sync` of a chapter edited by hand)."""
        started = time.perf_counter()
        result, intake = self.read(data, chapter)
        data, normalized = intake.result, intake.normalized  # the log keeps the canonical form:
        # a replay reads it as it is, whatever this module's tables or the book's config become
        conn = self.index.conn
        check_text(text)
        recorded_at = recorded_at or datetime.now(UTC).isoformat(timespec="seconds")
        # Whether the chapter already stands on this content is settled under the write lock:
        # two processes committing the same chapter see each other's commit.
        with self.index.atomic():
            text, text_source, warnings = self._text_kept(result.chapter, text, text_source)
            commit_id = content_hash(data, text)
            standing = commit_ops.chapter_commit_ids(conn, [result.chapter, result.chapter - 1])
            current = standing.get(result.chapter)  # and the chapter before's, in one read
            if current == commit_id:
                return CommitReport(
                    chapter=result.chapter,
                    status="unchanged",
                    commit_id=commit_id,
                    warnings=result.warnings + warnings,
                    normalized=normalized,
                    own_words=intake.own_words,
                )
            said, text_source = where_it_stands(conn, result.chapter, standing, text, text_source)
            warnings += said
            hashed = revision_ops.text_hash(text) if text_source and text else None
            source = (text_source, hashed, stale)
            asked = ask_open_conflicts(conn)  # answered with the commit's own insert
            seq = commit_ops.append_commit(
                conn, commit_id, result.chapter, data, text, recorded_at, source
            )
            outcome, changed = self._apply_saying_changes(result, recorded_at, asked)
            commit_ops.upsert_chapter(
                conn,
                result.chapter,
                seq,
                commit_id,
                result.title,
                result.summary,
                chapter_words(result.word_count, text),
                result.chapter_meta,
                recorded_at,
            )
            commit_ops.set_meta(conn, "commit_seq", str(seq))
            elapsed_ms = (time.perf_counter() - started) * 1000
            observability_ops.record_commit(
                conn, seq, result.chapter, elapsed_ms, outcome.counts, len(outcome.conflicts)
            )
        return CommitReport(
            chapter=result.chapter,
            status="committed",
            commit_id=commit_id,
            counts=outcome.counts,
            conflicts=tuple(outcome.conflicts),
            warnings=result.warnings
            + warnings
            + tuple(outcome.warnings)
            + tuple(n.message for n in outcome.notes),
            normalized=normalized,
            own_words=intake.own_words,
            **changed,
        )

    def _text_kept(
        self, chapter: int, text: str | None, source: str | None
    ) -> tuple[str | None, str | None, tuple[str, ...]]:
        """A re-commit that brings no text keeps the stored one (and where it came from), so its
        passages stay searchable, and says so; pass a text to replace it. A retracted chapter
        committed again gets back the text (and file) it had when it was retracted."""
        if text is not None:
            return text, source, ()
        previous = commit_ops.current_commit(self.index.conn, chapter)
        if previous is None:  # retracted: committing it again restores it, text too
            restored = revision_ops.retracted_text(self.index.conn, chapter)
            if restored is None:
                return None, source, ()
            said = say("commit_restored_text", chapter=chapter)
            return restored[0], source or restored[1], (said,)
        if not previous["text"]:
            return None, source, ()
        kept = revision_ops.text_source(self.index.conn, chapter)
        return previous["text"], kept, (say("commit_kept_text", chapter=chapter),)

    def retract(self, chapter: int) -> CommitReport:
        """Take chapter N back: it stops counting, later chapters are re-evaluated without it,
        and its commit stays in the log, marked retracted."""
        conn = self.index.conn
        recorded_at = datetime.now(UTC).isoformat(timespec="seconds")
        with self.index.atomic():
            if commit_ops.find_current_commit_id(conn, chapter) is None:
                raise UnknownChapter(chapter)
            asked = ask_open_conflicts(conn)
            commit_id, seq = commit_ops.retract_chapter(conn, chapter, recorded_at)
            nothing = parse_chapter_result({"chapter": chapter})
            outcome, changed = self._apply_saying_changes(nothing, recorded_at, asked)
            commit_ops.finish_retraction(conn, chapter, seq)
        later = tuple(c for c in outcome.conflicts if c.chapter > chapter)
        return CommitReport(
            chapter=chapter, status="retracted", commit_id=commit_id, conflicts=later, **changed
        )

    def _apply_saying_changes(
        self, result: ChapterResult, recorded_at: str, asked: Cursor
    ) -> tuple[ApplyOutcome, dict[str, Any]]:
        """`apply`, and the open conflicts it added and took away (`conflict_changes`), the
        ones before it `asked` for with the statement before."""
        open_before = open_conflicts(asked)
        outcome = self.apply(result, recorded_at)
        return outcome, conflicts_changed(self.index.conn, open_before)

    def apply(self, result: ChapterResult, recorded_at: str) -> ApplyOutcome:
        """Replace chapter N's contribution; must run inside a transaction.

        A later chapter's references were resolved against the entities known when it was
        applied. When N changes an entity's names or takes its introduction away (a retraction,
        a revision), the later chapters that referred to it are applied again, in chapter
        order, as a rebuild would read them: 林砚 may now be an unknown name. Only those
        chapters: a chapter that leaves its introductions as they were costs nothing more.
        So are earlier chapters whose references N's introduction adopted, when N takes the
        name away (`name_changes`). Their chain replays and conflict checks wait until all of
        them are in, so a chain that runs through all of them is replayed once, not once per
        chapter."""
        conn = self.index.conn
        n = result.chapter
        outcome, changed = self._apply_chapter(result, recorded_at)
        if not changed.changed:
            moves = [c for c in self._item_moves(n, outcome) if c.chapter >= n]
            outcome.conflicts = record_ops.named(conn, outcome.conflicts + moves)
            return outcome
        later = chapters_to_apply_again(conn, n, changed)
        deferred = _Deferred(chapter=n)
        while later:
            m = min(later)
            later.discard(m)
            commit = commit_ops.current_commit(conn, m)
            if commit is None:  # referred to by a chapter no longer committed: cannot happen
                continue
            _, more = self._apply_chapter(
                parse_chapter_result(commit["result"], m), recorded_at, deferred
            )
            if more.changed:
                later |= entity_ops.chapters_referring_to(conn, more.changed, m) - {n}
        found = ApplyOutcome()  # what the later chapters now find; not what N did
        self._replay_chains(deferred.chains, recorded_at, found, counted=n + 1)
        for secret_id in sorted(deferred.secrets):
            self._refresh_secret(secret_id, n + 1, found)
        self._refresh_entities(deferred.entities, n + 1, set(), found)
        outcome.items_again |= deferred.items_again
        outcome.adopted |= deferred.adopted
        outcome.conflicts += [c for c in self._item_moves(n, outcome) if c.chapter >= n]
        # what N's own replay found about later chapters may since have been replaced
        reported = {c.id: c for c in outcome.conflicts + found.conflicts}
        still = record_ops.stored_conflict_ids(conn, reported)
        outcome.conflicts = record_ops.named(conn, [c for c in reported.values() if c.id in still])
        return outcome

    def _apply_chapter(
        self, result: ChapterResult, recorded_at: str, deferred: _Deferred | None = None
    ) -> tuple[ApplyOutcome, NameChanges]:
        """Replace one chapter's contribution. Also returns the entities whose references may
        now resolve differently (their names, settledness or introduction changed). With
        `deferred`, chain replays and conflict checks are left in it for the caller."""
        conn = self.index.conn
        n = result.chapter
        introduced, chains, entities = assertion_ops.chapter_contribution(conn, n)  # N before
        named = introduced | {entity.id for entity in result.entities_new}
        items_changed = any(e.type == "物品" for e in result.entities_new)
        items_changed = items_changed or bool(item_entities(conn, named))  # as they stood
        before = entity_ops.reference_signatures(conn, named)
        assertion_ops.delete_chapter_assertions(conn, n)
        entity_ops.delete_chapter_intros(conn, n)
        activity_ops.delete_chapter_activities(conn, n)
        record_ops.delete_chapter_events(conn, n)

        entity_ops.insert_intros(
            conn, n, [(i, _intro(e)) for i, e in enumerate(result.entities_new)]
        )
        # Entity rows are derived once, in the per-entity refresh below: this chapter's own
        # introductions resolve through the resolver's local names until then. One it
        # introduced before (revised, or no longer introduced) must not answer to the names
        # it took away meanwhile, as a rebuild's would not: derived now too.
        for entity_id in sorted(introduced):
            entity_ops.rederive_entity(conn, entity_id)
        introduced |= {entity.id for entity in result.entities_new}
        adopted = self._adopt_tentatives(result)
        resolver = ReferenceResolver(conn, result)
        extraction = self._extract(result, resolver)
        assertion_ops.insert_assertions(conn, extraction.assertions)
        activity_ops.insert_activities(conn, extraction.activities)
        record_ops.insert_events(conn, extraction.events)
        record_ops.replace_scenes(conn, n, extraction.scenes)

        chains |= {(a.family, a.key) for a in extraction.assertions} | adopted
        secrets = {key for family, key in chains if family == "secret"}
        secrets |= {key.split(KEY_SEPARATOR)[1] for family, key in chains if family == "know"}
        entities |= {a.entity_id for a in extraction.activities} | introduced
        entities |= {key.split(KEY_SEPARATOR)[0] for family, key in chains if family == "fact"}
        entities |= resolver.created
        rederive = introduced | resolver.created
        outcome = ApplyOutcome(warnings=resolver.warnings)
        # A holder adopted, or an item's names changed: removals anywhere in the book may now
        # be judged otherwise, as a rebuild (which meets them after this chapter too) judges them
        outcome.items_again = bool(adopted) or items_changed
        outcome.adopted = {
            key.split(KEY_SEPARATOR)[0] for family, key in adopted if family == "fact"
        }
        if deferred is not None:
            deferred.items_again |= outcome.items_again
            deferred.adopted |= outcome.adopted
            if n < deferred.chapter:  # references un-adopted: who gives its items may change
                deferred.items_again, deferred.adopted = True, deferred.adopted | entities
            for chain in chains:
                start = 0 if chain in adopted else n
                deferred.chains[chain] = min(start, deferred.chains.get(chain, start))
            deferred.secrets |= secrets
            deferred.entities |= entities
            for entity_id in sorted(entities):  # the rows now: the next chapter resolves by them
                self._entity_row(entity_id, entity_id in rederive)
            return outcome, name_changes_since(conn, before)
        outcome.notes += names_taken(conn, result)
        # An adopted chain's assertions may come from any chapter, before this one too.
        starts = {chain: 0 if chain in adopted else n for chain in chains}
        self._replay_chains(starts, recorded_at, outcome, counted=n)
        for secret_id in sorted(secrets):
            self._refresh_secret(secret_id, n, outcome)
        self._refresh_entities(entities, n, rederive, outcome)
        outcome.notes = without_reintroduced(outcome.notes, outcome.conflicts)
        outcome.notes += [
            ambiguity_conflict(n, ref, ids) for ref, ids in resolver.ambiguous.items()
        ]
        held = items_held_elsewhere(self.index.conn, result, resolver)
        outcome.notes += [to_conflict(draft, scope) for draft, scope in held]
        self._judge_time(result, extraction.scenes, outcome)
        outcome.notes = record_ops.named(conn, outcome.notes)
        return outcome, name_changes_since(conn, before)

    def _item_moves(self, start: int, outcome: ApplyOutcome) -> list[Conflict]:
        """Items given away by one who does not hold them, from chapter `start` on: found
        again from the stored removals whenever a chapter changes, once every chain is
        replayed. All are kept in one scope; a `set_remove_missing` keeps the id its chain
        gave it."""
        again = 0 if outcome.items_again else None
        found = items_given_unheld(self.index.conn, self.config, start, again, outcome.adopted)
        conflicts = [to_conflict(draft, scope) for draft, scope in found]
        since = start if again is None else again
        record_ops.replace_conflicts(self.index.conn, ITEM_SCOPE, since, conflicts)
        return conflicts

    def _judge_time(
        self, result: ChapterResult, scenes: list[dict[str, Any]], outcome: ApplyOutcome
    ) -> None:
        """Story time in this chapter against the clock before it (time_rules): its conflicts
        are the chapter's own (scope `time:N`), its notes and warnings are advice."""
        found = time_findings(self.index.conn, result, scenes, self.config.calendar)
        scope = f"time:{result.chapter}"
        conflicts = [to_conflict(draft, scope) for draft in found.conflicts]
        record_ops.replace_conflicts(self.index.conn, scope, result.chapter, conflicts)
        outcome.conflicts += conflicts
        outcome.notes += [to_conflict(draft, scope) for draft in found.notes]
        outcome.warnings += found.warnings

    def _extract(self, result: ChapterResult, resolver: ReferenceResolver) -> Extraction:
        extraction = extract_facts(result, resolver)
        seq = len(extraction.assertions)
        extraction.extend(extract_relationships(result, resolver, self.config, seq))
        seq = len(extraction.assertions)
        extraction.extend(extract_promises(result, resolver, seq))
        seq = len(extraction.assertions)
        extraction.extend(extract_knowledge(result, resolver, seq))
        extraction.extend(extract_timeline(result, resolver))
        return extraction

    def _replay_chains(
        self,
        starts: dict[tuple[Family, str], int],
        recorded_at: str,
        outcome: ApplyOutcome,
        counted: int,
    ) -> None:
        """Replay each chain from its start on, in order. Chains share no rows, so every
        chain's inputs are read first, together (a round trip for all, on PostgreSQL), and
        what the replays found is written together too (a few statements, not a few each)."""
        conn = self.index.conn
        inputs = chain_ops.replay_inputs(conn, starts)
        chain_ops.delete_versions_after(conn, starts)
        touched: list[Version] = []
        replaced: list[tuple[str, int, list[Conflict]]] = []
        for (family, key), start in sorted(starts.items()):
            opened, assertions = inputs[(family, key)]
            chain = replay(family, opened, assertions, self.config)
            touched += chain.touched
            scope = f"{family}:{key}"
            drafts = [d for d in chain.conflicts if not judged_with_every_holder(d)]
            conflicts = [to_conflict(d, scope) for d in drafts]
            replaced.append((scope, start, conflicts))
            outcome.conflicts += [c for c in conflicts if c.chapter >= counted]
            outcome.notes += [to_conflict(d, scope) for d in chain.notes if d.chapter == counted]
            for what, at in chain.events:
                if at == counted:
                    outcome.counts.count(what)
        chain_ops.write_versions(conn, touched, recorded_at)
        record_ops.replace_conflicts_of(conn, replaced)

    def _refresh_entities(
        self, entity_ids: set[str], chapter: int, rederive: set[str], outcome: ApplyOutcome
    ) -> None:
        """Entity rows and per-entity conflicts. Only the activity inside each entity's
        conflict windows is read, so a protagonist seen in every chapter costs no more than a
        cameo. Each kind of read is one statement for all the entities (on PostgreSQL, a
        round trip for all instead of one per entity)."""
        conn = self.index.conn
        ids, states = self._refresh_entity_rows(entity_ids, rederive)
        if self.entity_checks_later is not None:  # the rows now, for the next chapter's
            self.entity_checks_later |= entity_ids  # references; conflicts once, at the end
            return
        intros = {e: s.chapter if s.settled else None for e, s in states.items() if s}
        # only the dead versions matter here: a status updated every chapter stays cheap
        dead = chain_ops.dead_versions_of(conn, [chain_key(e, "status") for e in intros])
        statuses = {e: dead.get(chain_key(e, "status"), []) for e in intros}
        windows = {e: conflict_windows(statuses[e], intros[e], self.config) for e in intros}
        activities = activity_ops.activities_in(conn, windows)
        introduced = entity_ops.intro_chapters_of(conn, list(intros))
        reveals = reveals_taking_names(conn, list(intros))
        reintroduced = names_reintroduced(conn, list(intros))
        replaced: list[tuple[str, int, list[Conflict]]] = []
        for entity_id in ids:
            scope = f"entity:{entity_id}"
            if entity_id not in intros:
                replaced.append((scope, 0, []))
                continue
            intro = intros[entity_id]
            drafts = entity_conflicts(
                entity_id, statuses[entity_id], activities[entity_id], intro, self.config
            )
            drafts += duplicate_intros(entity_id, introduced.get(entity_id, []))
            drafts += reveals.get(entity_id, [])
            drafts += reintroduced.get(entity_id, [])
            conflicts = [to_conflict(d, scope) for d in drafts]
            replaced.append((scope, 0, conflicts))
            outcome.conflicts += [c for c in conflicts if c.chapter >= chapter]
        record_ops.replace_conflicts_of(conn, replaced)

    def _refresh_entity_rows(
        self, entity_ids: set[str], rederive: set[str]
    ) -> tuple[list[str], dict[str, Introduction | None]]:
        """The rows of the entities and of those sharing a name with them brought up to date:
        their ids, and each one's intro state (None: no such entity)."""
        conn = self.index.conn
        ids = sorted(entity_ids | namesakes(conn, entity_ids))
        known = entity_ops.intro_states(conn, ids)
        kept = {e for e in ids if _keeps_row(e in rederive, known.get(e))}
        entity_ops.touch_entity_spans(conn, sorted(kept))
        return ids, {e: known[e] if e in kept else self._rederived(e) for e in ids}

    def finish_entity_checks(self) -> None:
        """The conflicts of every entity a replay of the whole book put off, found once
        against the whole book, as the last chapter's check would have found them."""
        waiting, self.entity_checks_later = self.entity_checks_later, None
        if waiting:
            self._refresh_entities(waiting, 0, set(), ApplyOutcome())

    def _entity_row(self, entity_id: str, rederive: bool) -> Introduction | None:
        """Bring an entity's row up to date; returns its intro state (None: no such entity)."""
        state = entity_ops.intro_state(self.index.conn, entity_id)
        if not _keeps_row(rederive, state):
            return self._rederived(entity_id)
        entity_ops.touch_entity_spans(self.index.conn, [entity_id])
        return state

    def _rederived(self, entity_id: str) -> Introduction | None:
        """An entity new, retracted or tentative, derived anew: its row may appear, change or
        vanish."""
        entity_ops.rederive_entity(self.index.conn, entity_id)
        return entity_ops.intro_state(self.index.conn, entity_id)

    def _refresh_secret(self, secret_id: str, chapter: int, outcome: ApplyOutcome) -> None:
        """Conflicts that span chains of one secret: learning it before it was planted, and
        learning it from someone who did not know it. Re-derived whole, like an entity's."""
        conn = self.index.conn
        histories: dict[str, list[Version]] = {}  # one read per entity, however many tellings

        def known(entity_id: str, at: int) -> bool:
            if entity_id not in histories:
                key = chain_key(entity_id, secret_id)
                histories[entity_id] = chain_ops.chain_history(conn, "know", key)
            return any(
                v.value == "knows"
                and v.valid_from <= at
                and (v.valid_to is None or v.valid_to > at)
                for v in histories[entity_id]
            )

        drafts = knowledge_conflicts(
            secret_id,
            chain_ops.chain_history(conn, "secret", secret_id),
            assertion_ops.assertions_about(conn, "know", secret_id),
            known,
        )
        scope = f"secret:{secret_id}"
        conflicts = [to_conflict(d, scope) for d in drafts]
        record_ops.replace_conflicts(conn, scope, 0, conflicts)
        outcome.conflicts += [c for c in conflicts if c.chapter >= chapter]

    def _adopt_tentatives(self, result: ChapterResult) -> set[tuple[Family, str]]:
        """An entity introduced under a name that earlier chapters used as an unknown reference
        takes over that tentative entity's memory. Returns the chains to replay."""
        conn = self.index.conn
        rekeyed: set[tuple[Family, str]] = set()
        for entity in result.entities_new:
            names = {entity.name, *entity.aliases} - {entity.id}
            for old in name_ops.tentative_entities_named(conn, names):
                rekeyed |= self._rename(old, entity.id)
        return rekeyed

    def _rename(self, old: str, new: str) -> set[tuple[Family, str]]:
        conn = self.index.conn
        moved = chain_ops.rename_subject(conn, old, new)
        for family, old_key, _ in moved:
            record_ops.replace_conflicts(conn, f"{family}:{old_key}", 0, [])
        entity_ops.rename_entity_rows(conn, old, new)
        record_ops.rename_participant(conn, old, new)
        return {(family, new_key) for family, _, new_key in moved}


@dataclass
class _Deferred:
    """Work put off while later chapters are applied again, done once after the last: chains
    to replay (from the earliest chapter that touched them), secrets and entities to check."""

    chapter: int  # the chapter whose change the others are applied again for
    chains: dict[tuple[Family, str], int] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)
    entities: set[str] = field(default_factory=set)
    items_again: bool = False  # removals of items to judge again, as ApplyOutcome's
    adopted: set[str] = field(default_factory=set)


def _intro(entity: Any) -> dict[str, Any]:
    return {
        "id": entity.id,
        "name": entity.name,
        "type": entity.type,
        "tier": entity.tier,
        "desc": entity.desc,
        "aliases": list(entity.aliases),
        "is_protagonist": entity.is_protagonist,
        "revealed": entity.revealed,
    }


def replay_all(
    index: IndexStore, config: BookConfig, commits: Iterable[dict[str, Any]]
) -> Iterable[int]:
    """Re-apply stored commits in chapter order (the caller clears derived tables first)."""
    pipeline = WritePipeline(index, config)
    pipeline.entity_checks_later = set()
    for commit in commits:
        result = parse_chapter_result(commit["result"], commit["chapter"])
        pipeline.apply(result, commit["recorded_at"])
        commit_ops.upsert_chapter(
            index.conn,
            result.chapter,
            commit["seq"],
            commit["commit_id"],
            result.title,
            result.summary,
            chapter_words(result.word_count, commit["text"]),
            result.chapter_meta,
            commit["recorded_at"],
        )
        yield result.chapter
    pipeline.finish_entity_checks()


def _keeps_row(rederive: bool, state: Introduction | None) -> bool:
    """Whether an entity's row stands as it is (settled, not asked to be derived anew): then
    only its span of activity is refreshed."""
    return not rederive and state is not None and state.settled
