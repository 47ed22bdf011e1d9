"""Impact: what committing (or retracting) chapter N would do to the rest of the book, known
before anything is written.

It is not predicted: the commit itself runs, on the commit's own write path, inside a
transaction that is always rolled back (as review does), and the book is read before and after
it within that transaction. So an impact equals what the commit would do by construction; a
test commits the same revision for real in a copy and compares.

What is compared: the versions the write path changed (the answers of every chain it touched,
over their spans: on SQLite, temporary triggers log each version row it takes away and writes,
so the cost follows the revision, not the book; on PostgreSQL both whole tables are read), every
entity row, and the conflict ledger. A version is attributed to the chapters where a chain's values
start or end differently, so a revision of chapter 20 that kills someone shows at 20, and each
later chapter where he still acts shows by its new conflict.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..read.as_of_reads import names_as_of, secrets
from ..records import Conflict
from ..retrieval.chunker import chapter_chunks
from ..store import commit_ops, record_ops
from ..store.connection import Connection
from ..store.index_store import loads
from ..store.revision_ops import (
    EntityRow,
    VersionRow,
    chain_rows,
    entity_rows,
    seen_versions,
    version_rows,
    watch_versions,
)
from ..write.chapter_result import parse_chapter_result
from ..write.write_pipeline import WritePipeline

# A version's status as an impact reads it: one that merely gained an end (active → outdated)
# has not changed in itself; the chapter where it ends has.
_STANDING = frozenset({"active", "outdated"})
_KIND = {"fact": "fact", "rel": "relation", "thread": "thread", "rule": "rule"}


@dataclass(frozen=True, kw_only=True)
class AnswerChange:
    """One answer that changes: as of the latest chapter (`changed`), or at one chapter
    (`records`: what that chapter's own record now holds)."""

    kind: str  # fact | relation | thread | rule | know | secret | entity
    entity_id: str
    entity_name: str
    field: str
    before: Any
    after: Any
    chapter: int | None = None  # a record's chapter; None in `changed`
    target: str | None = None  # a relation's other entity, a knowledge's secret
    target_name: str | None = None

    @property
    def answer(self) -> tuple[str, str, str, str | None]:
        """Which answer this is, whatever chapter: the same chain in `changed` and `records`."""
        return (self.kind, self.entity_id, self.field, self.target)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "entity_id": self.entity_id,
            "entity_name": self.entity_name,
            "field": self.field,
            "before": self.before,
            "after": self.after,
        }
        if self.chapter is not None:
            data["chapter"] = self.chapter
        if self.target is not None:
            data["target"] = self.target
            data["target_name"] = self.target_name
        return data


@dataclass
class Impact:
    chapter: int
    action: str  # commit | retract
    status: str  # changed | unchanged
    as_of: int  # the latest chapter, which `changed` is as of
    published_through: int | None
    changed: list[AnswerChange] = field(default_factory=list)
    records: list[AnswerChange] = field(default_factory=list)
    conflicts_added: list[Conflict] = field(default_factory=list)
    conflicts_removed: list[Conflict] = field(default_factory=list)
    chapters: list[int] = field(default_factory=list)
    # what the chapter's search passages (its summaries and text slices) lose and gain
    passages_lost: list[dict[str, str]] = field(default_factory=list)
    passages_gained: list[dict[str, str]] = field(default_factory=list)

    @property
    def published(self) -> list[int]:
        """The revised chapter (when it changes) and the later chapters it changes that
        readers already have."""
        if self.published_through is None or self.status == "unchanged":
            return []
        line = self.published_through
        return [c for c in [self.chapter, *self.chapters] if c <= line]

    @property
    def answers_changed(self) -> int:
        """How many answers change anywhere: each chain counted once, whether it changes as of
        the latest chapter (`changed`) or only over some chapters (`records`: a realm revised in
        chapter 5 that a later chapter sets again changes chapters 5–10, not the latest)."""
        return len({c.answer for c in [*self.changed, *self.records]})

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "action": self.action,
            "status": self.status,
            "as_of": self.as_of,
            "published_through": self.published_through,
            "changed": [c.to_dict() for c in self.changed],
            "records": [c.to_dict() for c in self.records],
            "conflicts_added": [c.to_dict() for c in self.conflicts_added],
            "conflicts_removed": [c.to_dict() for c in self.conflicts_removed],
            "chapters": list(self.chapters),
            "published": self.published,
            "answers_changed": self.answers_changed,
            "passages_lost": list(self.passages_lost),
            "passages_gained": list(self.passages_gained),
        }


@dataclass
class _Snapshot:
    # VersionRow's fields, plain; None when the trial watches the versions it changes instead
    versions: list[tuple[Any, ...]] | None
    entities: dict[str, EntityRow]
    conflicts: dict[str, Conflict]


def _snapshot(conn: Connection, watched: bool) -> _Snapshot:
    conflicts = record_ops.list_conflicts(conn, include_settled=True)
    versions = None if watched else version_rows(conn)
    return _Snapshot(versions, entity_rows(conn), {c.id: c for c in conflicts})


@dataclass
class _Versions:
    """The versions that differ, and the whole chains they belong to, before and after."""

    gone: list[VersionRow]
    came: list[VersionRow]
    before: dict[tuple[str, str], list[VersionRow]]
    after: dict[tuple[str, str], list[VersionRow]]


def _differing(
    old: list[tuple[Any, ...]], new: list[tuple[Any, ...]]
) -> tuple[list[VersionRow], list[VersionRow]]:
    counted_old, counted_new = Counter(old), Counter(new)
    gone = [VersionRow._make(v) for v in (counted_old - counted_new).elements()]
    came = [VersionRow._make(v) for v in (counted_new - counted_old).elements()]
    return gone, came


def _whole(before: _Snapshot, after: _Snapshot) -> _Versions:
    """Both tables read whole (PostgreSQL)."""
    assert before.versions is not None and after.versions is not None
    gone, came = _differing(before.versions, after.versions)
    differing = {(v.family, v.key) for v in (*gone, *came)}
    return _Versions(
        gone, came, _chains(before.versions, differing), _chains(after.versions, differing)
    )


def _watched(conn: Connection) -> _Versions:
    """What the triggers saw (SQLite): the rows the write path took away and wrote; a chain
    that differs is read as it stands, and as it stood is that minus what came plus what went."""
    old, new = seen_versions(conn)
    gone, came = _differing(old, new)
    differing = {(v.family, v.key) for v in (*gone, *came)}
    after = _chains(chain_rows(conn, sorted(differing)), differing)
    before: dict[tuple[str, str], list[VersionRow]] = {}
    for chain in differing:
        rows = Counter(after.get(chain, []))
        rows -= Counter(v for v in came if (v.family, v.key) == chain)
        rows += Counter(v for v in gone if (v.family, v.key) == chain)
        before[chain] = list(rows.elements())
    return _Versions(gone, came, before, after)


def impact_of(
    pipeline: WritePipeline,
    chapter: int,
    data: Any = None,
    text: str | None = None,
    *,
    retract: bool = False,
    published_through: int | None = None,
) -> Impact:
    """Commit `data` (with `text`) as chapter `chapter`, or retract the chapter, in a
    transaction that is rolled back; report what changed. Raises what the commit or the
    retraction would raise (a malformed result, a chapter never committed)."""
    store = pipeline.index
    with store.trial() as conn:
        latest = commit_ops.latest_chapter(conn) or 0
        passages_before = _passages(conn, chapter)
        watched = watch_versions(conn)
        before = _snapshot(conn, watched)
        if retract:
            report = pipeline.retract(chapter)
        else:
            report = pipeline.commit(data, text=text, chapter=chapter)
        after = _snapshot(conn, watched)
        versions = _watched(conn) if watched else _whole(before, after)
        passages_after = _passages(conn, report.chapter)
        as_of = max(latest, report.chapter)
        impact = Impact(
            chapter=report.chapter,
            action="retract" if retract else "commit",
            status="unchanged" if report.status == "unchanged" else "changed",
            as_of=as_of,
            published_through=published_through,
        )
        _compare(impact, versions, before, after)
        impact.passages_lost = _minus(passages_before, passages_after)
        impact.passages_gained = _minus(passages_after, passages_before)
        # names as the book would know them after the revision (a renamed entity's new name)
        _name(conn, impact, as_of)
    _name(store.conn, impact, as_of)  # entities the revision takes away: named as before
    return impact


def _compare(impact: Impact, versions: _Versions, before: _Snapshot, after: _Snapshot) -> None:
    n, as_of = impact.chapter, impact.as_of
    gone, came = versions.gone, versions.came
    differing = {(v.family, v.key) for v in (*gone, *came)}
    whole_before, whole_after = versions.before, versions.after
    diff_before, diff_after = _chains(gone, differing), _chains(came, differing)
    touched: set[int] = set()
    for chain in sorted(differing):
        old, new = whole_before.get(chain, []), whole_after.get(chain, [])
        for at in _chapters_that_differ(diff_before.get(chain, []), diff_after.get(chain, [])):
            touched.add(at)
            change = _change(chain, old + new, _value_at(old, at), _value_at(new, at), at)
            if at >= n and change is not None:
                impact.records.append(change)
        change = _change(chain, old + new, _value_at(old, as_of), _value_at(new, as_of))
        if change is not None:
            impact.changed.append(change)
    for entity_id in sorted(set(before.entities) | set(after.entities)):
        was, now = before.entities.get(entity_id), after.entities.get(entity_id)
        if was != now:
            impact.changed.append(_entity_change(entity_id, was, now))
    impact.conflicts_added = [c for i, c in after.conflicts.items() if i not in before.conflicts]
    impact.conflicts_removed = [c for i, c in before.conflicts.items() if i not in after.conflicts]
    touched |= {c.chapter for c in impact.conflicts_added + impact.conflicts_removed}
    impact.chapters = sorted(c for c in touched if c > n)
    impact.changed.sort(key=lambda c: (c.kind == "entity", c.kind, c.entity_id, c.field))
    impact.records.sort(key=lambda c: (c.chapter or 0, c.kind, c.entity_id, c.field))


def _passages(conn: Connection, chapter: int) -> list[dict[str, str]]:
    """What search holds of the chapter as it stands: its summaries and text slices, cut as
    the search index cuts them."""
    stored = commit_ops.current_commit(conn, chapter)
    if stored is None:
        return []
    result = parse_chapter_result(stored["result"], chapter)
    return [{"kind": c.kind, "text": c.text} for c in chapter_chunks(result, stored["text"])]


def _minus(these: list[dict[str, str]], those: list[dict[str, str]]) -> list[dict[str, str]]:
    left = Counter((p["kind"], p["text"]) for p in those)
    out = []
    for passage in these:
        key = (passage["kind"], passage["text"])
        if left[key]:
            left[key] -= 1
        else:
            out.append(passage)
    return out


Chain = tuple[str, str]


def _chains(rows: Iterable[tuple[Any, ...]], keep: set[Chain]) -> dict[Chain, list[VersionRow]]:
    """The rows of the chains in `keep`, chain by chain (family and key lead each row)."""
    chains: dict[Chain, list[VersionRow]] = defaultdict(list)
    for row in rows:
        if (row[0], row[1]) in keep:
            chains[(row[0], row[1])].append(VersionRow._make(row))
    return chains


def _status(row: VersionRow) -> str:
    return "standing" if row.status in _STANDING else row.status


def _chapters_that_differ(old: list[VersionRow], new: list[VersionRow]) -> set[int]:
    """The chapters where a chain's versions start or end differently: given only the versions
    that differ, so a version that merely gained or lost its end shows where the end is."""

    def marks(rows: list[VersionRow]) -> Counter[tuple[int, str, str]]:
        found: Counter[tuple[int, str, str]] = Counter()
        for row in rows:
            found[(row.valid_from, row.value_json, _status(row))] += 1
            if row.valid_to is not None:
                found[(row.valid_to, "", "end")] += 1
        return found

    was, now = marks(old), marks(new)
    return {at for at, _, _ in (was - now) + (now - was)}


def _value_at(rows: list[VersionRow], at: int) -> VersionRow | None:
    """The version that holds at chapter `at`: a standing one before a contradicted one."""
    holding = [r for r in rows if r.valid_from <= at and (r.valid_to is None or r.valid_to > at)]
    holding.sort(key=lambda r: (r.status not in _STANDING, -r.valid_from))
    return holding[0] if holding else None


def _said(family: str, row: VersionRow | None) -> Any:
    """What a version answers, as the author reads it: a thread's status, a rule's text."""
    if row is None:
        return None
    value = loads(row.value_json)
    if family == "thread" and isinstance(value, dict):
        return value.get("status")
    if family == "rule" and isinstance(value, dict):
        return value.get("rule")
    if family == "secret" and isinstance(value, dict):
        return value.get("status", value.get("content"))
    return value


def _change(
    chain: Chain,
    rows: list[VersionRow],
    was: VersionRow | None,
    now: VersionRow | None,
    chapter: int | None = None,
) -> AnswerChange | None:
    family, key = chain
    before, after = _said(family, was), _said(family, now)
    if _nothing(before) and _nothing(after) or before == after:
        return None  # no record and an emptied set both answer 「（无）」: not a change
    sample = now or was or rows[0]
    target = sample.obj if family in ("rel", "know") else None
    label = sample.field
    if family == "rel":
        label = "relation"
    elif family == "thread":
        label = "status"
    name = sample.subject
    if family in ("thread", "secret"):  # named by what it says, not its id
        value = loads(sample.value_json)
        name = str(value.get("content") or key) if isinstance(value, dict) else key
    return AnswerChange(
        kind=_KIND.get(family, family),
        entity_id=key if family in ("thread", "rule", "secret") else sample.subject,
        entity_name=name,
        field=label,
        before=before,
        after=after,
        chapter=chapter,
        target=target,
        target_name=target,
    )


def _nothing(value: Any) -> bool:
    """No answer: no version, or a set emptied (an item given away leaves its holder none)."""
    return value is None or value == [] or value == {}


def _entity_change(entity_id: str, was: EntityRow | None, now: EntityRow | None) -> AnswerChange:
    """An entity that appears, vanishes, is renamed or settles (a tentative one introduced)."""
    return AnswerChange(
        kind="entity",
        entity_id=entity_id,
        entity_name=(was or now or EntityRow(entity_id, entity_id, False, None)).name,
        field="entity",
        before=_entity_said(was),
        after=_entity_said(now),
    )


def _entity_said(row: EntityRow | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"name": row.name, "tentative": row.tentative, "intro_chapter": row.intro_chapter}


_NAMED = frozenset({"fact", "relation", "know"})


def _name(conn: Connection, impact: Impact, as_of: int) -> None:
    """Entity ids → names, where a change has none yet. Called inside the trial first (the
    names the book knows after the revision: a renamed entity's new one), then after it (an
    entity the revision takes away is named as the book knew it before)."""
    changes = impact.changed + impact.records
    ids = {c.entity_id for c in changes if c.kind in _NAMED and c.entity_name == c.entity_id}
    ids |= {
        c.target for c in changes if c.kind == "relation" and c.target == c.target_name and c.target
    }
    unnamed_secrets = {c.target for c in changes if c.kind == "know" and c.target == c.target_name}
    if not (ids or unnamed_secrets):
        return
    names = names_as_of(conn, ids, as_of) if ids else {}
    # a secret is named by what it says (its id is a key, not a name)
    found = secrets(conn, as_of) if unnamed_secrets else []
    said = {s.id: s.content for s in found if s.id in unnamed_secrets}
    impact.changed = [_named(c, names, said) for c in impact.changed]
    impact.records = [_named(c, names, said) for c in impact.records]


def _named(
    change: AnswerChange, names: dict[str, str], secrets_said: dict[str, str]
) -> AnswerChange:
    """Entities by their names (`names`), the secret a know change is about by its content."""
    if change.kind not in _NAMED:
        return change
    entity_name = change.entity_name
    if entity_name == change.entity_id:
        entity_name = names.get(change.entity_id, entity_name)
    target_name = change.target_name
    if change.target is not None and target_name == change.target:
        known = secrets_said if change.kind == "know" else names
        target_name = known.get(change.target, target_name)
    return replace(change, entity_name=entity_name, target_name=target_name)
