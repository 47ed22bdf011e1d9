"""「未知实体「林言」，是否指「林砚」？」: the known names an unknown one was probably meant to be.

An agent or an author mistypes a name in three usual ways: a traditional character for a
simplified one (林硯), a homophone picked by the input method (林岩 or 林言 for 林砚, lín yán),
and a slip of one character in a longer name (苏晚情 for 苏晚晴). Each is checked
against every settled name and alias; an id written in Latin letters (shenqin for shenqing: an
agent writes ids) is checked against the ids, one letter off. This runs only when a reference is unknown, so the
pinyin table (pypinyin) is loaded only then.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ...errors import quoted_list
from ...messages import say
from ..store import entity_ops
from ..store.connection import Connection
from ..vocabulary import edit_distance

MAX_SUGGESTIONS = 3


@lru_cache(maxsize=1)
def _folder() -> Callable[[str], str]:
    import opencc

    fold: Callable[[str], str] = opencc.OpenCC("t2s").convert
    return fold


@lru_cache(maxsize=1 << 14)
def _sound(name: str) -> tuple[str, ...]:
    from pypinyin import lazy_pinyin

    return tuple(lazy_pinyin(name))


def suggest_names(conn: Connection, written: str) -> list[str]:
    """Known names (canonical names first) that `written` likely meant, best first."""
    names = entity_ops.alias_pairs(conn)
    if not names:
        return []
    folded = _folder()(written)
    scored: dict[str, int] = {}
    for alias, _entity in names:
        score = _closeness(written, folded, alias)
        if score is not None and score < scored.get(alias, 99):
            scored[alias] = score
    if _id_like(written):
        for entity_id in {entity for _alias, entity in names}:
            if entity_id != written and edit_distance(entity_id.lower(), written.lower(), 1) <= 1:
                scored.setdefault(entity_id, 2)
    return sorted(scored, key=lambda a: (scored[a], a))[:MAX_SUGGESTIONS]


def _id_like(written: str) -> bool:
    """An id as agents write them (linyan, lin_yan, su-wanqing): Latin letters, four or more,
    so that one letter off is a slip rather than another short id."""
    return written.isascii() and len(written) >= 4 and any(c.isalpha() for c in written)


def _closeness(written: str, folded: str, known: str) -> int | None:
    """0: the same once folded; 1: the same sound; 2: one character off. None: not close."""
    if known == written:
        return None
    if known == folded:
        return 0
    if len(known) != len(written) or len(known) < 2:
        return None
    if _sound(known) == _sound(written):
        return 1
    # One character off is a likely slip in a name of three or more; in two it is just the
    # same surname.
    if len(known) >= 3 and edit_distance(known, written, 1) <= 1:
        return 2
    return None


def did_you_mean(conn: Connection, written: str) -> str:
    """「，是否指「林砚」？」 (in English: "; did you mean 林砚?") or the empty string."""
    found = suggest_names(conn, written)
    if not found:
        return ""
    return say("did_you_mean_names", names=quoted_list(found), listed=", ".join(found))
