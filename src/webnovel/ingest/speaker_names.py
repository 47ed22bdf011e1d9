"""Names found by where they stand, whatever their surname: the third pass of the candidate
finder (`name_finder`).

A classical novel's cast is full of names no surname list holds and no segmenter knows: 兀术,
粘罕, 哈迷蚩 and 黑蛮龙 in 《说岳全传》, 八戒 and 沙僧 in 《西游记》. What marks them is where they
stand: before speech or a reaction (兀术道：, 粘罕大怒, 八戒笑道), right after a sentence's start or a
word that opens a clause (却说, 那, 只见). Such a stretch of two to four characters that stands
there again and again is a name, unless it reads as a verb, a number or a pronoun (上前施礼道 is
a gesture), or is a common word used as often elsewhere (妖精道 is a monster, not a name).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

# Where a name stands before: speech (道, 说 and 曰 when a colon, comma or quote follows) and the
# reactions classical narration gives a speaker.
_BEFORE_SPEECH = re.compile(
    r"(?:[道说曰](?=[：:，,“「])|大喜|大怒|大惊|闻言|听了|笑道|喝道|叫道|答道|问道|骂道|大叫|大笑)"
)
# Characters that open a clause before a name (却说兀术, 那八戒, 只见粘罕): where a name begins.
_OPENS_CLAUSE = frozenset("那这却说便又也只与和对见叫请问将把被同向了着是的在都就此乃遂因众")
# Parts of speech a name never holds (the segmenter's tags, by their first letter): verbs,
# adverbs, prepositions, conjunctions, particles, numerals, measure words, pronouns, times and
# directions.
_NOT_IN_NAMES = ("v", "d", "p", "c", "u", "m", "q", "r", "t", "f")
_SPEECH_FORMULAS = frozenset(["常言", "高声", "齐声", "寻思", "容分", "多官", "俗语", "自古"])
MIN_PLACES = 5  # times a stretch must stand where a name does
# The share of a stretch's uses that must stand where a name does: a tenth for a word the
# dictionary does not know (小喽罗 and 军汉 are said mostly elsewhere), and more for one it knows
# (行者 and 八戒 stand there half the time, 老者 and 妖精 much less).
WORD_SHARE = 0.1
DICTIONARY_SHARE = 0.3


def speaker_names(chapters: Iterable[tuple[int, str]]) -> tuple[Counter[str], dict[str, int]]:
    """Names by where they stand: each with how often it occurs in the whole text, and the
    chapter it first stands in."""
    import rjieba

    texts = list(chapters)
    placed: Counter[str] = Counter()
    first: dict[str, int] = {}
    for number, text in texts:
        for stretch in _before_speech(text):
            placed[stretch] += 1
            first.setdefault(stretch, number)
    found: Counter[str] = Counter()
    for stretch, places in placed.items():
        if places < MIN_PLACES or stretch in _SPEECH_FORMULAS:
            continue
        tags = rjieba.tag(stretch)
        if any(tag.startswith(_NOT_IN_NAMES) for _, tag in tags):
            continue
        total = sum(text.count(stretch) for _, text in texts)
        known_word = rjieba.has_word(stretch) and not tags[0][1].startswith("nr")
        if places < (DICTIONARY_SHARE if known_word else WORD_SHARE) * total:
            continue
        found[stretch] = total
    # 宋江大喜 and 八戒沙僧: a name with what follows it glued on, not a name of its own
    glued = {s for s in found if any(s[:k] in found for k in range(2, len(s)))}
    for stretch in glued:
        del found[stretch]
    return found, {s: first[s] for s in found}


def _before_speech(text: str) -> Iterable[str]:
    """Each stretch of 2–4 CJK characters that stands between a clause's start and speech."""
    for match in _BEFORE_SPEECH.finditer(text):
        end = start = match.start()
        while start > 0 and end - start <= 4 and _cjk(text[start - 1]):
            if text[start - 1] in _OPENS_CLAUSE:
                break
            start -= 1
        if 2 <= end - start <= 4 and not (
            start > 0 and _cjk(text[start - 1]) and text[start - 1] not in _OPENS_CLAUSE
        ):
            yield text[start:end]


def _cjk(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff"
