"""Forgiving intake: a chapter result as agents and authors really write it, made canonical
before it is validated, with a note for every change.

What models write most is accepted and rewritten: Chinese keys and values (「境界」, 「伏笔」,
「回收」), near-miss keys (`entity` for `entity_id`, `source`/`target` for `from`/`to`), English
variants (`resolved`, `learned`, `delete`), chapter numbers as strings or Chinese numerals
(「第二十五章」), percentages as confidences, one string holding several names (「林砚、苏晚晴」)
and a list where one value is expected (split into one change per value). What cannot be read
for sure is refused, naming what was written and what was probably meant.

The canonical result is what the commit stores, so a replay never depends on this module's
tables or on the book's config of the day.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import InvalidChapterResult
from ...messages import say
from ..vocabulary import Terms, fold_english, nearest
from .intake_sections import MEMORY_FACTS, SECTIONS, TOP, Section
from .json_hygiene import json_problems
from .numbers import chinese_chapter_number

_CHINESE = re.compile(r"[\u3400-\u9fff]")
_NAME_SEPARATORS = re.compile(r"\s*[、，,/／;；]\s*|\s+和\s+")


@dataclass(frozen=True)
class Intake:
    """A chapter result made canonical, and what was changed to make it so."""

    result: Any
    normalized: tuple[str, ...] = ()
    plain: bool = False  # found plain JSON (json_hygiene), so the validator need not look again
    # the notes in `normalized` that only read an author's own Chinese word as its canonical
    # form (「境界」 → realm, 「回收」 → resolve, 「状态变化」 → state_changes): listed for agents,
    # not news to the author, whose text output leaves them out
    own_words: tuple[str, ...] = ()


class _Normalizer:
    def __init__(self, fields: Terms) -> None:
        self.fields = fields
        self.notes: list[str] = []
        self.own_words: list[str] = []
        self.problems: list[str] = []

    def note(self, path: str, written: Any, became: Any) -> None:
        self.notes.append(f"{path}: {_show(written)} → {_show(became)}")

    def word(self, path: str, written: str, became: str) -> None:
        """A key, field or value written as a word of the vocabulary: noted, and when it is
        Chinese (the author's own word for it), marked as no news."""
        self.note(path, written, became)
        if _CHINESE.search(written):
            self.own_words.append(self.notes[-1])

    # -- keys ------------------------------------------------------------------------------

    def keys(
        self, item: dict[str, Any], section: Section, path: str, *, top: bool
    ) -> dict[str, Any]:
        """The item with every key canonical; unknown keys refused (kept, at the top)."""
        out: dict[str, Any] = {}
        first_written: dict[str, str] = {}  # which key, as written, gave each canonical one
        for written, value in item.items():
            key = _canonical_key(written, section)
            if key is None:
                guess = nearest(written, [*section.keys, *_all_synonyms(section)])
                if guess is not None:
                    meant = _canonical_key(guess, section)
                    self.problems.append(
                        say("intake_unknown_key_meant", path=path, key=_show(written), meant=meant)
                    )
                elif top:
                    out[written] = value  # CONTRACT §1: kept in the commit, named in warnings
                else:
                    self.problems.append(
                        say(
                            "intake_unknown_key",
                            path=path,
                            key=_show(written),
                            known="、".join(section.keys),
                        )
                    )
                continue
            if key != written:
                self.word(f"{path}.{written}", written, key)
            if key in out and out[key] != value:
                earlier = first_written[key]
                self.problems.append(
                    say(
                        "intake_key_twice",
                        path=path,
                        written=_show(written),
                        key=earlier
                        if earlier == key
                        else say("intake_key_as", written=earlier, key=key),
                    )
                )
                continue
            out[key] = value
            first_written[key] = written
        return out

    # -- values ----------------------------------------------------------------------------

    def values(self, item: dict[str, Any], section: Section, path: str) -> dict[str, Any]:
        for key, (terms, open_ended) in section.enums.items():
            value = item.get(key)
            if isinstance(value, str):
                found = terms.find(value)
                if found is None:  # refused; or, open-ended, an author's own (神仙): kept, said
                    into, words = (
                        (self.notes, "agent2_own_term")
                        if open_ended
                        else (self.problems, "intake_unknown_term")
                    )
                    into.append(
                        say(
                            words,
                            path=f"{path}.{key}",
                            what=terms.name,
                            value=_show(value),
                            known=terms.described(),
                        )
                    )
                elif found != value:
                    self.word(f"{path}.{key}", value, found)
                    item[key] = found
        for key in section.refs:
            value = item.get(key)
            split = _split_names(value)
            if split is not None and split != value:
                self.note(f"{path}.{key}", value, split)
                item[key] = split
        for key in section.numbers:
            self._convert(item, key, path, chinese_chapter_number)
        for key in section.confidences:
            self._convert(item, key, path, _confidence)
        for key in section.flags:
            self._convert(item, key, path, _flag)
        return item

    def _convert(
        self, item: dict[str, Any], key: str, path: str, read: Callable[[Any], Any]
    ) -> None:
        value = item.get(key)
        if value is None or isinstance(value, bool):
            return
        converted = read(value)
        if converted is not None and converted != value:
            self.note(f"{path}.{key}", value, converted)
            item[key] = converted

    def field_name(self, written: Any, path: str) -> Any:
        if not isinstance(written, str):
            return written
        found = self.fields.find(written)
        if found is not None:
            if found != written:
                self.word(path, written, found)
            return found
        guess = nearest(written, self.fields.values)
        if guess is not None and guess != written:
            label = self.fields.label(guess)
            self.problems.append(
                say(
                    "intake_unknown_field_meant",
                    path=path,
                    field=_show(written),
                    meant=guess,
                    label=label,
                )
            )
        return written


def normalize_result(data: Any, fields: Terms) -> Intake:
    """The canonical form of a decoded chapter result, refusing what cannot be read for sure.
    Anything that is not an object is passed on for the validator to name."""
    if not isinstance(data, dict) or json_problems(data):
        return Intake(data)  # the validator names what is wrong with it
    work = _Normalizer(fields)
    result = work.values(work.keys(data, TOP, "$", top=True), TOP, "$")
    for key, section in SECTIONS.items():
        result[key] = _items(work, result.get(key), section, f"$.{key}")
    facts = result.get("memory_facts")
    if isinstance(facts, dict):
        for key, section in MEMORY_FACTS.items():
            facts[key] = _items(work, facts.get(key), section, f"$.memory_facts.{key}")
        result["memory_facts"] = {k: v for k, v in facts.items() if v is not None}
    for item_path, entity in _objects(result.get("entities_new"), "$.entities_new"):
        entity["current"] = _current(work, entity, item_path, result)
    result["state_changes"] = _state_changes(work, result.get("state_changes"))
    result["relationships_new"] = _split_pairs(result.get("relationships_new"), work)
    if work.problems:
        raise InvalidChapterResult(work.problems)
    return Intake(
        {k: v for k, v in result.items() if v is not None},
        tuple(work.notes),
        True,
        tuple(work.own_words),
    )


def _items(work: _Normalizer, value: Any, section: Section, path: str) -> Any:
    if isinstance(value, dict):  # one item where a list is expected
        work.note(path, "{…}", "[{…}]")
        value = [value]
    if not isinstance(value, list):
        return value
    out = []
    for i, item in enumerate(value):
        if isinstance(item, dict):
            item = work.values(
                work.keys(item, section, f"{path}[{i}]", top=False), section, f"{path}[{i}]"
            )
        out.append(item)
    return out


def _objects(value: Any, path: str) -> list[tuple[str, dict[str, Any]]]:
    if not isinstance(value, list):
        return []
    return [(f"{path}[{i}]", item) for i, item in enumerate(value) if isinstance(item, dict)]


def _current(work: _Normalizer, entity: dict[str, Any], path: str, result: dict[str, Any]) -> Any:
    """An introduction's state with canonical field names; a list value (「物品」: [...]) becomes
    `add` changes right after the introductions, which is where the contract applies them."""
    current = entity.get("current")
    if not isinstance(current, dict):
        return current
    out: dict[str, Any] = {}
    for written, value in current.items():
        name = work.field_name(written, f"{path}.current.{written}")
        if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
            additions = [
                {"entity_id": entity.get("id"), "field": name, "op": "add", "new": v} for v in value
            ]
            changes = result.get("state_changes")
            result["state_changes"] = additions + (changes if isinstance(changes, list) else [])
            work.note(
                f"{path}.current.{written}", value, say("intake_add_changes", count=len(additions))
            )
            continue
        out[name] = value
    return out


def _state_changes(work: _Normalizer, value: Any) -> Any:
    if not isinstance(value, list):
        return value
    out: list[Any] = []
    for i, item in enumerate(value):
        path = f"$.state_changes[{i}]"
        if not isinstance(item, dict):
            out.append(item)
            continue
        item["field"] = work.field_name(item.get("field"), f"{path}.field")
        out.extend(_split_change(work, item, path))
    return out


def _split_change(work: _Normalizer, item: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """One change per entity and per value where lists were written."""
    entities = _split_names(item.get("entity_id"))
    news = item.get("new")
    if isinstance(news, list) and item.get("op") not in ("add", "remove"):
        if item.get("op") is None:
            work.problems.append(say("intake_many_values", path=f"{path}.new", values=_show(news)))
        else:
            work.problems.append(
                say("intake_set_many_values", path=f"{path}.new", values=_show(news))
            )
        return [item]
    many_entities = isinstance(entities, list) and len(entities) > 1
    many_values = isinstance(news, list)
    if not many_entities and not many_values:
        if isinstance(entities, list) and len(entities) == 1:
            item["entity_id"] = entities[0]
        return [item]
    targets = entities if isinstance(entities, list) else [item.get("entity_id")]
    values = news if isinstance(news, list) else [news]
    split = [{**item, "entity_id": e, "new": v} for e in targets for v in values]
    work.note(path, say("intake_one_change_many"), say("intake_changes", count=len(split)))
    return split


def _split_pairs(value: Any, work: _Normalizer) -> Any:
    """A relation from or to several people becomes one relation per pair."""
    if not isinstance(value, list):
        return value
    out: list[Any] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            out.append(item)
            continue
        sources = _split_names(item.get("from"))
        targets = _split_names(item.get("to"))
        if isinstance(sources, list) or isinstance(targets, list):
            pairs = [
                {**item, "from": s, "to": t}
                for s in (sources if isinstance(sources, list) else [item.get("from")])
                for t in (targets if isinstance(targets, list) else [item.get("to")])
            ]
            if len(pairs) > 1:
                work.note(
                    f"$.relationships_new[{i}]",
                    say("intake_one_relation_many"),
                    say("intake_relations", count=len(pairs)),
                )
            out.extend(pairs)
        else:
            out.append(item)
    return out


def _canonical_key(written: str, section: Section) -> str | None:
    if written in section.keys:
        return written
    folded = fold_english(written)
    for key, synonyms in section.keys.items():
        if folded == key or written in synonyms or folded in synonyms:
            return key
    return None


def _all_synonyms(section: Section) -> list[str]:
    return [s for synonyms in section.keys.values() for s in synonyms if s.isascii()]


def _split_names(value: Any) -> Any:
    """「林砚、苏晚晴」 → ["林砚", "苏晚晴"]; lists are split item by item; a single name stays a
    string."""
    if isinstance(value, str):
        parts = [p for p in _NAME_SEPARATORS.split(value.strip()) if p]
        return parts if len(parts) > 1 else value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = [p for v in value for p in _NAME_SEPARATORS.split(v.strip()) if p]
        return parts
    return value


def _confidence(value: Any) -> float | None:
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith(("%", "％"))
        try:
            number = float(text.rstrip("%％"))
        except ValueError:
            return None
        if not math.isfinite(number):  # "nan" and "inf" parse as floats: not a confidence
            return None
        return number / 100 if percent or number > 1 else number
    if isinstance(value, int | float) and 1 < value <= 100:
        return value / 100
    return None


_TRUE = {"true", "yes", "是", "对", "1", "真"}
_FALSE = {"false", "no", "否", "不", "不是", "0", "假"}


def _flag(value: Any) -> bool | None:
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    return None


def _show(value: Any) -> str:
    if isinstance(value, str):
        return say("quoted", text=_printable(value))
    if isinstance(value, list):
        return "[" + "、".join(_show(v) for v in value) + "]"
    return str(value)


def _printable(text: str) -> str:
    """Control characters shown as escapes: a message must not clear the author's terminal."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )
