"""Names in a novel's text that may be characters the cast does not know yet, for the author to
confirm. Three passes, because each misses what the others find:

- the segmenter's part-of-speech tags: words tagged `nr` (a person's name), less those in its
  dictionary (丹田, 明白 are mistagged words) and those ending like a place or a faction;
- surname statistics: a common surname followed by one or two characters, recurring as a unit.
  The segmenter cuts 苏晚晴 into 苏 / 晚晴 and 林远山 into 林 / 远山 (both dictionary words), so
  only this pass sees them. The full name wins over its two-character head when most of the
  head's occurrences go on to the same third character;
- where a name stands (`speaker_names`): before speech or a reaction, whatever its surname, as
  兀术, 粘罕 and 八戒 do. A fragment of a longer name (哈迷 of 哈迷蚩) is folded into it.

Fragments the passes make are left out: a preposition or pronoun glued before a name (向白眉 of
「拍向白眉真人」), a word after 这/那 (那九转 of 「那九转金丹」), a name cut off before its title
(白眉真 of 白眉真人).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .speaker_names import speaker_names

PLACE_ENDINGS = frozenset("门城山谷峰宗派堂殿阁镇村府州国岛洞寺观楼台庄泊")
# Common single-character surnames, and the compound ones web novels like.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛"
    "郝龚邵万钱严覃武戴莫孔向汤厉楚萧慕柳燕凌沐秦洛宁"
    # less common, but the surnames of classical novels' casts (鲁智深, 阮小二, 匡超人, 鲍廷玺)
    "鲁阮解鲍虞匡庄岳柴樊焦郁宣穆裴祝栾扈晁邹戚俞祁邢葛殷耿聂温包"
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
        "呼延",
        "尉迟",
        "司徒",
        "司空",
        "太史",
        "完颜",
        "赫连",
        "钟离",
        "澹台",
    ]
)
# A character that seldom ends a name: particles, pronouns, common verbs and measure words.
NOT_NAME_END = frozenset(
    "的了是在和与说道问笑看着过把被给向对从也就都又还不没很这那他她它们个些里上下中来去到"
    "说想听见走站坐跑拿打回出入起开将要能会可以得地么吗呢吧啊呀哦一二三四五六七八九十百千万"
    "等便军兵人众客"
)
NUMBERED = frozenset("小大老")
SPEECH_AFTER = frozenset("道说笑问叫喝答听看见想哭叹骂拜谢便也却又只")
PERSON_BEFORE = frozenset("和与对向把被让叫请同跟见拜")
PERSON_CONTEXT_SHARE = 0.15  # of a dictionary word's uses, in a person's context  # 阮小二, 武大郎: a numbered given name after one of these
# Titles and forms of address: a surname before one of these is a person called by title
# (高太尉, 宋先锋, 余大先生), not a name to add to the cast.
TITLE_TAILS = frozenset(
    [
        *("太尉", "先锋", "员外", "安抚", "枢密", "学究", "真人", "将军", "先生", "老爷"),
        *("相公", "大人", "娘子", "小姐", "公子", "夫人", "知府", "知县", "都监", "教头"),
        *("提辖", "太公", "官人", "和尚", "道人", "军师", "元帅", "头领", "大王", "征君"),
        *("秀才", "举人", "进士", "翰林", "掌柜", "师兄", "师弟", "师姐", "师妹", "师父"),
        *("师傅", "长老", "大哥", "二哥", "三哥", "大嫂", "大叔", "大爷", "大娘", "老爹"),
        *("老儿", "家的", "府上", "兄弟", "姑娘", "虞候", "大官", "中书", "侍郎", "尚书"),
    ]
)
FRAGMENT_SHARE = 0.6  # of a name's occurrences inside one longer candidate: it is a fragment
# A preposition or a pronoun glued to the start of a name by the surname pass or the tagger:
# 向白眉 of 「拍向白眉真人的后心」, 那九转 of 「那九转金丹」. A candidate starting with one, the
# rest the start of a known name or of another candidate, is that name's fragment.
GLUED_BEFORE = frozenset("向对把被给让叫请同跟与和从在往朝将他她它我你这那")
# 这 and 那 before a name are demonstratives (那玄 of 「那玄龟甲」): no name starts with them.
NOT_NAME_START = frozenset("这那")
# Given names end in 山 or 峰 as often as places do (林远山, 张三丰): after a surname they count.
NAME_PLACE_ENDINGS = PLACE_ENDINGS - frozenset("山峰")
TITLE_STARTS = frozenset("师")  # 周师兄, 林师妹: a surname and a title, not a name
FULL_NAME_SHARE = 0.6  # of a head's occurrences that must continue the same way for a 3-char name
_CJK = "[\u4e00-\u9fff]"
_COMPOUND = "|".join(sorted(COMPOUND_SURNAMES))
_SINGLE = "[" + "".join(sorted(SURNAMES)) + "]"
_COMPOUND_START = "[" + "".join(sorted({c[0] for c in COMPOUND_SURNAMES})) + "]"  # fails fast
# Each pattern looks ahead, so that every start is tried (grams overlap), the cheap character
# class first; a single surname that starts a compound one (慕 of 慕容) is not one there.
GRAM_PATTERNS = tuple(
    re.compile(pattern)
    for pattern in (
        f"(?={_COMPOUND_START})(?=((?:{_COMPOUND}){_CJK}))",
        f"(?={_COMPOUND_START})(?=((?:{_COMPOUND}){_CJK}{{2}}))",
        f"(?=({_SINGLE}{_CJK}))(?!{_COMPOUND})",
        f"(?=({_SINGLE}{_CJK}{{2}}))(?!{_COMPOUND})",
    )
)
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
    chapters = list(chapters)
    tagged: Counter[str] = Counter()
    grams: Counter[str] = Counter()
    first: dict[str, int] = {}
    in_dictionary: Counter[str] = Counter()  # dictionary words tagged nr, and how often
    acting: Counter[str] = Counter()  # … of those, how often in a person's context
    for number, text in chapters:
        tokens = [pair for window in windows(text) for pair in rjieba.tag(window)]
        # the few tokens tagged as names picked out first, in one comprehension: a long book
        # has millions of tokens, and a loop's body for each cost more than the tagging
        named = [k for k, (word, tag) in enumerate(tokens) if tag == "nr" and 2 <= len(word) <= 4]
        for k in named:
            word = tokens[k][0]
            if word in known:
                continue
            if word[-1] in PLACE_ENDINGS:
                continue
            # the dictionary marks famous names (宋江, 林冲) as names, but also terms (金丹,
            # 丹田): such a word counts when it starts with a surname and acts like a person
            if rjieba.has_word(word):
                if not _surnamed(word):
                    continue
                in_dictionary[word] += 1
                acting[word] += _acts(tokens, k)
            tagged[word] += 1
            first.setdefault(word, number)
        found_here = Counter(_surname_grams(text))
        grams.update(found_here)
        for gram in found_here:
            first.setdefault(gram, number)
    for word, count in in_dictionary.items():
        if acting[word] < PERSON_CONTEXT_SHARE * count:
            del tagged[word]
    found = Counter(tagged)
    for name, count in _names_from_grams(grams, rjieba.has_word).items():
        found[name] = max(found[name], count)
    placed, placed_first = speaker_names(chapters)
    for name, count in placed.items():
        found[name] = max(found[name], count)
        first[name] = min(first.get(name, placed_first[name]), placed_first[name])
    dropped = _glued_and_fragments(found, known)
    dropped |= {n for n in found if n[-2:] in TITLE_TAILS or _bad_end(n)}
    dropped |= _glued_before(found, known)
    kept = [
        (name, count)
        for name, count in found.most_common()
        if count >= min_count
        and name not in dropped
        and name not in known
        and not any(name in k or k in name for k in known if len(k) >= 2)
    ]
    cut = _cut_off_titles([name for name, _ in kept[: limit * 2]], chapters)
    return [Candidate(name, count, first[name]) for name, count in kept if name not in cut][:limit]


def _acts(tokens: list[tuple[str, str]], k: int) -> bool:
    """Whether the token at `k` stands where a person does: before speech or a gesture (宋江道,
    林冲笑), or after a word that takes a person (和宋江, 对林冲说)."""
    after = tokens[k + 1][0][:1] if k + 1 < len(tokens) else ""
    before = tokens[k - 1][0][-1:] if k > 0 else ""
    return after in SPEECH_AFTER or before in PERSON_BEFORE


def _surnamed(word: str) -> bool:
    return word[:2] in COMPOUND_SURNAMES or word[0] in SURNAMES


def _bad_end(name: str) -> bool:
    """Ends like a particle, a verb or a number, unless it is a numbered given name; or, at
    three characters, with 老 (白眉老, the head of 白眉老者)."""
    if len(name) == 3 and name[-1] == "老":
        return True
    if name[-1] not in NOT_NAME_END:
        return False
    return not (len(name) == 3 and name[1] in NUMBERED and name[-1] in "一二三四五六七八九十")


def _glued_and_fragments(found: Counter[str], known: set[str]) -> set[str]:
    """Names to leave out: a verb glued to a name (周伯说 beside 周伯), and a fragment whose
    occurrences are mostly inside longer candidates (孙胜 inside 公孙胜, 阮小 inside 阮小二,
    阮小五 and 阮小七); one pass over the candidates, each looking at its two one-shorter
    parts."""
    dropped = set()
    inside: dict[str, int] = {}
    for name, count in found.items():
        if len(name) > 2 and (name[:-1] in found or name[:-1] in known) and _bad_end(name):
            dropped.add(name)
            continue
        for part in {name[:-1], name[1:]}:
            inside[part] = inside.get(part, 0) + count
    dropped |= {
        name
        for name, count in found.items()
        if name not in dropped and inside.get(name, 0) >= FRAGMENT_SHARE * count
    }
    return dropped


def _glued_before(found: Counter[str], known: set[str]) -> set[str]:
    """Candidates that are a known name or another candidate with a preposition or a pronoun
    glued before it (向白眉 beside 白眉真人, 向赵铁 beside 赵铁山), and those starting with a
    demonstrative (那玄)."""
    heads = {k[:size] for k in [*known, *found] for size in range(2, len(k) + 1)}
    return {
        name
        for name in found
        if name[0] in NOT_NAME_START
        or (len(name) >= 3 and name[0] in GLUED_BEFORE and name[1:] in heads)
    }


def _cut_off_titles(names: list[str], chapters: list[tuple[int, str]]) -> set[str]:
    """The names that are mostly the head of a title (白眉真 of 白眉真人: the surname pass
    stops at three characters): their last character starts a title, which the text mostly goes
    on to finish. Counted in the texts for the few names that could be."""
    cut = set()
    for name in names:
        endings = {tail[1:] for tail in TITLE_TAILS if tail[0] == name[-1]}
        if not endings:
            continue
        total = sum(text.count(name) for _, text in chapters)
        titled = sum(text.count(name + end) for _, text in chapters for end in endings)
        if total and titled >= FULL_NAME_SHARE * total:
            cut.add(name)
    return cut


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


def _surname_grams(text: str) -> list[str]:
    """Every 2- and 3-character string of CJK characters that starts with a surname, and the 3-
    and 4-character ones that start with a compound surname (where one starts, not the single
    surname it starts with: 慕容复 is no 慕容 nor 慕容复 of 慕). Found by regular expressions,
    in C: a loop over the characters took most of `candidates`' time on a long book."""
    return [gram for pattern in GRAM_PATTERNS for gram in pattern.findall(text)]


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
        if full and not _bad_end(full) and full[-1] not in NAME_PLACE_ENDINGS:
            names[full] = best[1] if best else count  # a dictionary word too: 孙悟空, 诸葛亮
        elif full:  # mostly the head of a title or a place (罗真人, 祝家庄): not a name
            continue
        elif gram[-1] not in PLACE_ENDINGS:
            names[gram] = count
    for gram, count in grams.items():  # compound surnames: 欧阳锋, 上官婉儿
        if gram[:2] in COMPOUND_SURNAMES and gram[-1] not in NOT_NAME_END and len(gram) == 3:
            names.setdefault(gram, count)
    return names
