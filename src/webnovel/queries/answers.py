"""The answers queries give that are more than one facade value: a fact with its field's name
as the book writes it (or, for an item, who holds it), and versions with their fields' names.
Each carries what its renderers need, so a renderer never goes back to the book."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..book.values import MemoryItem, missing_fact
from ..errors import InvalidInput

if TYPE_CHECKING:
    from ..book.project import Project
    from ..book.values import Conflict, MemoryPack

HOLDER_FIELDS = ("holder", "持有者", "持有人")


class HasDict(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


def dicts(items: Sequence[HasDict]) -> list[dict[str, Any]]:
    """A list answer as the contract's JSON: each value's `to_dict()`."""
    return [item.to_dict() for item in items]


@dataclass(frozen=True, kw_only=True)
class FieldNow:
    """One field of an entity asked without a field: the version that holds, as `fact` gives it."""

    label: str  # the field as the book names it
    item: MemoryItem
    value_now: Any = None  # an age the story clock has moved

    def to_dict(self) -> dict[str, Any]:
        aged = {} if self.value_now is None else {"value_now": self.value_now}
        return {**self.item.to_dict(), "field_label": self.label, **aged}


@dataclass(frozen=True, kw_only=True)
class FactAnswer:
    """One field of one entity as of a chapter: the version that holds (`item`), or none with
    the fields the entity does have; for an item asked without a field, who holds it; for
    anyone else asked without a field, every field that holds (`every`)."""

    entity_id: str
    entity_name: str
    field: str  # the field's key, or "holder"
    field_label: str  # the field as the book names it
    item: MemoryItem | None = None
    holders: tuple[tuple[str, str], ...] | None = None  # (id, name), for "who holds it"
    known_fields: tuple[str, ...] = ()
    value_now: Any = None  # an age as the story clock has moved it (十六岁 → 十九岁)
    every: tuple[FieldNow, ...] | None = None
    as_of: int | None = None  # the chapter `every` is as of (None: now)
    # an item nobody holds that someone held: since when, and who held it last (names)
    nobody_since: int | None = None
    last_holders: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return self.item is not None or bool(self.holders) or bool(self.every)

    def to_dict(self) -> dict[str, Any]:
        if self.every is not None:
            return {  # the shape of a `fact`, its one value replaced by every field's
                "entity_id": self.entity_id,
                "entity_name": self.entity_name,
                "field": None,
                "value": None,
                "found": self.found,
                "facts": [now.to_dict() for now in self.every],
            }
        if self.holders is not None:
            return {
                "entity_id": self.entity_id,
                "entity_name": self.entity_name,
                "field": "holder",
                "field_label": self.field_label,
                "value": [name for _, name in self.holders],
                "holder_ids": [holder for holder, _ in self.holders],
                "found": self.found,
                **(
                    {"nobody_since": self.nobody_since, "last_holders": list(self.last_holders)}
                    if self.nobody_since is not None
                    else {}
                ),
            }
        if self.item is not None:
            aged = {} if self.value_now is None else {"value_now": self.value_now}
            return {**self.item.to_dict(), "field_label": self.field_label, **aged}
        return {
            **missing_fact(self.entity_id, self.field),
            "entity_name": self.entity_name,
            "known_fields": list(self.known_fields),
            "field_label": self.field_label,
        }


def fact(book: Project, subject: str, field: str | None, as_of: int | None) -> FactAnswer:
    holding = field is None or field in HOLDER_FIELDS or book.field_key(field) == "holder"
    # an item asked for its holder may be a thing no chapter introduced, known by its name
    entity = book.thing(subject) if holding else book.entity(subject)
    name = book.names([entity.id], as_of).get(entity.id, entity.name)
    if field is None and entity.type != "物品":  # who someone is now: every field of theirs
        return FactAnswer(
            entity_id=entity.id,
            entity_name=name,
            field="",
            field_label="",
            every=every_field(book, entity.id, as_of),
            as_of=as_of,
        )
    if holding or field is None:  # an item asked without a field: who holds it
        holders = book.holders(entity.id, as_of=as_of)
        names = book.names(holders, as_of)
        gone = None if holders else _held_before(book, entity.id, as_of)
        return FactAnswer(
            entity_id=entity.id,
            entity_name=name,
            field="holder",
            field_label="持有者",
            holders=tuple((h, names[h]) for h in holders),
            nobody_since=gone[0] if gone else None,
            last_holders=gone[1] if gone else (),
        )
    key = book.field_key(field)
    item = book.fact(entity.id, key, as_of=as_of)
    known = () if item else tuple(book.fields.label(f.field) for f in book.facts(entity.id, as_of))
    return FactAnswer(
        entity_id=entity.id,
        entity_name=name,
        field=key,
        field_label=book.fields.label(key),
        item=item,
        known_fields=known,
        value_now=book.aged(item, as_of) if item is not None and key == "age" else None,
    )


def _held_before(book: Project, item: str, as_of: int | None) -> tuple[int, tuple[str, ...]] | None:
    """For an item nobody holds that someone held (used up, destroyed, lost): the chapter from
    which nobody has, and who held it last; None for one nobody ever held."""
    held = book.history(item, "holder", as_of=as_of)
    if len(held) < 2 or held[-1].value is not None:
        return None
    before = held[-2].value
    return held[-1].valid_from, tuple(before if isinstance(before, list) else [str(before)])


def every_field(book: Project, entity_id: str, as_of: int | None) -> tuple[FieldNow, ...]:
    """Every field of an entity that holds as of a chapter, in the order the book declares its
    fields (those it does not declare after, by name)."""
    order = {term.value: place for place, term in enumerate(book.fields)}
    items = sorted(
        book.facts(entity_id, as_of), key=lambda i: (order.get(i.field, len(order)), i.field)
    )
    return tuple(
        FieldNow(
            label=book.fields.label(i.field),
            item=i,
            value_now=book.aged(i, as_of) if i.field == "age" else None,
        )
        for i in items
    )


@dataclass(frozen=True, kw_only=True)
class Versions:
    """Versions of an entity's fields, oldest first, with each field as the book names it."""

    items: tuple[MemoryItem, ...]
    labels: dict[str, str]

    def to_dicts(self) -> list[dict[str, Any]]:
        return [{**i.to_dict(), "field_label": self.labels[i.field]} for i in self.items]


def history(book: Project, subject: str, field: str | None, as_of: int | None) -> Versions:
    items = tuple(book.history(subject, field, as_of=as_of))
    return Versions(items=items, labels={i.field: book.fields.label(i.field) for i in items})


@dataclass(frozen=True, kw_only=True)
class FieldUse:
    """A field of the book: its key, its label, how many entities use it, the words it accepts."""

    field: str
    label: str
    entities: int
    synonyms: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "label": self.label,
            "entities": self.entities,
            "synonyms": list(self.synonyms),
        }


def fields(book: Project) -> list[FieldUse]:
    """The book's fields: each key in use or declared, its label, use and accepted words."""
    used = book.field_use()
    terms = book.fields
    declared = {t.value: t for t in terms}
    return [
        FieldUse(
            field=key,
            label=terms.label(key),
            entities=used.get(key, 0),
            synonyms=tuple(declared[key].synonyms) if key in declared else (),
        )
        for key in dict.fromkeys([*used, *declared])
    ]


def conflicts(
    book: Project,
    include_settled: bool,
    as_of: int | None,
    action: str | None,
    conflict_id: str | None,
    intentional: bool,
    note: str | None,
) -> list[Conflict] | Conflict | tuple[Conflict, ...]:
    """The conflict ledger (a list), or (`resolve ID`) one conflict settled; `resolve ID ID …` (the
    CLI gives the ids as one string, separated by spaces) settles them all (a tuple) or, one
    unknown, none."""
    if action == "resolve":
        ids = (conflict_id or "").split()
        if not ids:
            raise InvalidInput.of("resolve_needs_id")
        if len(ids) == 1:
            return book.resolve_conflict(ids[0], intentional, note)
        return tuple(book.resolve_conflicts(ids, intentional, note))
    return book.conflicts(include_settled=include_settled, as_of=as_of)


@dataclass(frozen=True, kw_only=True)
class PackAnswer:
    """A memory pack, and its rendering when one was asked for with it (MCP's `format`)."""

    pack: MemoryPack
    rendered_as: str = "json"

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.pack.to_dict())
        if self.rendered_as in ("prompt", "text"):
            data["rendered"] = self.pack.render(self.rendered_as)
        return data


def pack(
    book: Project,
    task: str,
    chapter: int,
    outline: str | None,
    query: str | None,
    draft: Any,
    budget_tokens: int | None,
    template: str | None,
    format: str,  # noqa: A002 - the MCP argument's name since the first release
    record: bool,
) -> PackAnswer:
    built = book.build_memory_pack(
        task,
        chapter,
        template=template,
        outline=outline,
        query=query,
        budget_tokens=budget_tokens,
        draft=draft,
        record=record,
    )
    return PackAnswer(pack=built, rendered_as=format)
