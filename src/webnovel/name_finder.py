"""Names in a novel's text that may be characters the cast does not know yet, for the author to
confirm. Two passes, because each misses what the other finds:

- the segmenter's part-of-speech tags: words tagged `nr` (a person's name), less those in its
  dictionary (丹田, 明白 are mistagged words) and those ending like a place or a faction;
- surname statistics: a common surname followed by one or two characters, recurring as a unit.
  The segmenter cuts 苏晚晴 into 苏 / 晚晴 and 林远山 into 林 / 远山 (both dictionary words), so
  only this pass sees them. The full name wins over its two-character head when most of the
  head's occurrences go on to the same third character.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

PLACE_ENDINGS = frozenset("门城山谷峰宗派堂殿阁镇村府州国岛洞寺观楼台")
# Common single-character surnames, and the compound ones web novels like.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛"
    "郝龚邵万钱严覃武戴莫孔向汤厉楚萧慕柳燕凌沐秦洛宁"
)
COMPOUND_SURNAMES = frozenset(
    [
        "欧阳",
        "上官",
        "司马",
        "诸葛",
        "东方",
        "慕容",
        "令狐",
        "独孤",
        "南宫",
        "公孙",
        "长孙",
        "宇文",
        "皇甫",
        "轩辕",
        "夏侯",
        "西门",
        "端木",
    ]
)
# A character that seldom ends a name: particles, pronouns, common verbs and measure words.
NOT_NAME_END = frozenset(
    "的了是在和与说道问笑看着过把被给向对从也就都又还不没很这那他她它们个些里上下中来去到"
    "说想听见走站坐跑拿打回出入起开将要能会可以得地么吗呢吧啊呀哦一二三四五六七八九十百千万"
)
# Given names end in 山 or 峰 as often as places do (林远山, 张三丰): after a surname they count.
NAME_PLACE_ENDINGS = PLACE_ENDINGS - frozenset("山峰")
TITLE_STARTS = frozenset("师")  # 周师兄, 林师妹: a surname and a title, not a name
FULL_NAME_SHARE = 0.6  # of a head's occurrences that must continue the same way for a 3-char name
# The segmenter tags a window at a time: its word list costs about 150 bytes a character, so a
# whole 17 M-character chapter at once took gigabytes; a window bounds it at a few megabytes.
WINDOW_CHARS = 20_000


@dataclass(frozen=True)
class Candidate:
    name: str
    count: int
    first_chapter: int

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "count": self.count, "first_chapter": self.first_chapter}


def candidate_names(
    chapters: Iterable[tuple[int, str]], known: Iterable[str], min_count: int = 3, limit: int = 50
) -> list[Candidate]:
    """Likely person names the cast does not know yet, most frequent first, with the chapter
    each first appears in."""
    import rjieba

    known = set(known)
    tagged: Counter[str] = Counter()
    grams: Counter[str] = Counter()
    first: dict[str, int] = {}
    for number, text in chapters:
        for word, tag in (pair for window in windows(text) for pair in rjieba.tag(window)):
            if tag != "nr" or not 2 <= len(word) <= 4 or word in known:
                continue
            if word[-1] in PLACE_ENDINGS or rjieba.has_word(word):
                continue
            tagged[word] += 1
            first.setdefault(word, number)
        for gram in _surname_grams(text):
            grams[gram] += 1
            first.setdefault(gram, number)
    found = Counter(tagged)
    for name, count in _names_from_grams(grams, rjieba.has_word).items():
        found[name] = max(found[name], count)
    # 周伯说, 周伯守: the segmenter glues a verb to a name; keep the name
    glued = {w for w in found if len(w) > 2 and (w[:-1] in found or w[:-1] in known)}
    return [
        Candidate(name, count, first[name])
        for name, count in found.most_common()
        if count >= min_count
        and name not in glued
        and name not in known
        and not any(name in k or k in name for k in known if len(k) >= 2)
    ][:limit]


def windows(text: str, size: int = WINDOW_CHARS) -> Iterable[str]:
    """`text` in pieces of about `size` characters, cut after a line break or a sentence's end
    where there is one near the cut (so a name is seldom split)."""
    start = 0
    while start < len(text):
        end = start + size
        if end < len(text):
            cut = max(text.rfind(mark, end - size // 4, end) for mark in "\n。！？")
            end = cut + 1 if cut > start else end
        yield text[start:end]
        start = end


def _surname_grams(text: str) -> Iterable[str]:
    """Every 2- and 3-character string of CJK characters that starts with a surname, and the 3-
    and 4-character ones that start with a compound surname."""
    for i, char in enumerate(text):
        pair = text[i : i + 2]
        if pair in COMPOUND_SURNAMES:
            for size in (3, 4):
                gram = text[i : i + size]
                if len(gram) == size and all(_cjk(c) for c in gram):
                    yield gram
        elif char in SURNAMES:
            for size in (2, 3):
                gram = text[i : i + size]
                if len(gram) == size and all(_cjk(c) for c in gram):
                    yield gram


def _names_from_grams(grams: Counter[str], has_word: Callable[[str], bool]) -> dict[str, int]:
    """The grams that read as names: not a dictionary word, not ending like a particle, a title
    or a place; a 3-character name where its head mostly goes on the same way."""
    names: dict[str, int] = {}
    longer: dict[str, list[tuple[str, int]]] = {}
    for gram, count in grams.items():
        if len(gram) >= 3:
            longer.setdefault(gram[:-1], []).append((gram, count))
    for gram, count in grams.items():
        if len(gram) != 2 or gram[-1] in NOT_NAME_END or gram[-1] in TITLE_STARTS:
            continue
        if has_word(gram):  # 石板, 周围: a common word that starts with a surname
            continue
        best = max(longer.get(gram, []), key=lambda item: item[1], default=None)
        full = best[0] if best and best[1] >= FULL_NAME_SHARE * count else None
        if full and full[-1] not in NOT_NAME_END and full[-1] not in NAME_PLACE_ENDINGS:
            names[full] = best[1] if best else count  # a dictionary word too: 孙悟空, 诸葛亮
        elif gram[-1] not in PLACE_ENDINGS:
            names[gram] = count
    for gram, count in grams.items():  # compound surnames: 欧阳锋, 上官婉儿
        if gram[:2] in COMPOUND_SURNAMES and gram[-1] not in NOT_NAME_END and len(gram) == 3:
            names.setdefault(gram, count)
    return names


def _cjk(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff"
