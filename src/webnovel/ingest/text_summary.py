"""What a chapter's own text says about it, without a model: a few central sentences, the
passage it ends on, and where it breaks between scenes.

The summary is extractive, in the text's own words: sentences are ranked by a graph ranking
(TextRank: a sentence is central when it shares content words, as segmented by rjieba, with
other central sentences), with the random walk drawn towards sentences that name people (words
rjieba tags as person names, and the book's known names), since a reader's summary of a chapter
is mostly who did what. Verse (clauses of equal length, as classical novels quote poems) and
very long sentences are passed over. Pure functions over text; committing is the facade's job.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ..prose.closing import ending_passage as ending_passage  # the importer reads it here

SENTENCE_ENDS = frozenset("。！？!?…")
OPENING_QUOTES = frozenset("“「『‘")
CLOSING_QUOTES = frozenset("”」』’")
TRAILING_MARKS = frozenset("”」』’）)")  # what may follow a sentence's end mark
SCENE_BREAK = re.compile(
    r"^[ \t\u3000]*(?:[*＊※☆★◆◇○●#＃~～=]{3,}|(?:[*＊※☆★◆◇○●][ \t\u3000]*){3,}|[-—]{6,})[ \t\u3000]*$",
    re.MULTILINE,
)
CONTENT_TAGS = ("n", "v", "a", "j", "i", "l")  # nouns, verbs, adjectives, idioms
STOP_WORDS = frozenset(
    [
        "一个",
        "一些",
        "一般",
        "一样",
        "一齐",
        "不是",
        "不能",
        "不知",
        "不曾",
        "不得",
        "不过",
        "也是",
        "了得",
        "什么",
        "他们",
        "你们",
        "我们",
        "如此",
        "如何",
        "怎么",
        "这个",
        "那个",
        "这里",
        "那里",
        "这般",
        "那般",
        "只是",
        "只见",
        "就是",
        "已经",
        "还是",
        "可以",
        "因为",
        "所以",
        "但是",
        "然后",
        "出来",
        "起来",
        "下来",
        "过来",
        "进来",
        "回来",
        "去了",
        "说道",
        "道是",
        "甚么",
        "知道",
        "只得",
        "便是",
        "却是",
        "正是",
        "原来",
        "如今",
        "今日",
        "只有",
        "没有",
        "有些",
        "些儿",
        "怎生",
        "怎的",
        "恁地",
        "时候",
        "时节",
        "之间",
        "之中",
        "之上",
        "之下",
    ]
)
DAMPING = 0.85
ITERATIONS = 6
COMMON_SHARE = 0.25  # a word in more of a chapter's sentences than this is not a link
COMMON_FLOOR = 6
CONVERGED = 1e-4  # the walk stops early once scores move less than this in all
NAME_PULL = 2.0  # how much more a sentence naming people draws the walk than one naming none
TITLE_PULL = 0.5  # and per two characters it shares with the chapter's title
MIN_SENTENCE_CHARS = 8
MAX_SENTENCE_CHARS = 110
SUMMARY_SENTENCES = 3
SUMMARY_CHARS = 200
MAX_SENTENCES = 400  # a chapter longer than this is ranked on its first 400 sentences' graph


@dataclass(frozen=True)
class Sentence:
    start: int
    text: str


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their offsets: cut after 。！？… (with the closing marks after it) and at
    line ends, but never inside a quotation, so that 「他道：“你来了。”」 is one sentence and a
    speech of several sentences stays whole with its speaker."""
    found: list[Sentence] = []
    start = depth = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in OPENING_QUOTES:
            depth += 1
        elif ch in CLOSING_QUOTES:
            depth = max(0, depth - 1)
        if (
            ch == "\n"
            or (ch in SENTENCE_ENDS and depth == 0)
            or (ch in CLOSING_QUOTES and depth == 0 and i > 0 and text[i - 1] in SENTENCE_ENDS)
        ):
            end = i + 1
            while end < n and (text[end] in SENTENCE_ENDS or text[end] in TRAILING_MARKS):
                end += 1
            _add_sentence(found, text, start, end)
            start, i = end, end
            if ch == "\n":
                depth = 0  # a quotation left open at a paragraph's end closes with it
            continue
        i += 1
    _add_sentence(found, text, start, n)
    return found


def _add_sentence(found: list[Sentence], text: str, start: int, end: int) -> None:
    raw = text[start:end]
    stripped = raw.strip()
    if stripped:
        found.append(Sentence(start + raw.index(stripped[0]), stripped))


def is_whole(sentence: str) -> bool:
    """Every quotation the sentence opens, it closes (a summary never ends inside a speech)."""
    depth = 0
    for ch in sentence:
        if ch in OPENING_QUOTES:
            depth += 1
        elif ch in CLOSING_QUOTES:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def is_verse(sentence: str) -> bool:
    """Clauses of one length (4 to 7 characters), as in the poems classical novels quote."""
    clauses = [c for c in re.split(r"[，,；;。！？!?、：:“”\"]", sentence) if c.strip()]
    if len(clauses) < 2:
        return False
    sizes = {len(c.strip()) for c in clauses}
    return len(sizes) == 1 and 4 <= next(iter(sizes)) <= 7


def summary_sentences(
    text: str, people_at: Iterable[int] = (), count: int = SUMMARY_SENTENCES, title: str = ""
) -> list[str]:
    """The `count` most central sentences of `text`, in the text's order. `people_at`: where
    the book's known names occur in `text` (offsets), which draw the ranking like names the
    segmenter recognises. `title`: the chapter's title; each half of a 回目 names an event and
    its people, so the sentence that best carries each half is taken first."""
    import rjieba

    sentences = [
        s
        for s in split_sentences(text)
        if MIN_SENTENCE_CHARS <= len(s.text) <= MAX_SENTENCE_CHARS
        and not is_verse(s.text)
        and is_whole(s.text)
    ][:MAX_SENTENCES]
    if not sentences:
        return []
    starts = sorted(people_at)
    terms: list[set[str]] = []
    pull: list[float] = []
    for sentence in sentences:
        words: set[str] = set()
        people = 0
        for word, tag in rjieba.tag(sentence.text):
            if len(word) < 2 or word in STOP_WORDS:
                continue
            if tag == "nr":
                people += 1
                words.add(word)
            elif tag.startswith(CONTENT_TAGS):
                words.add(word)
        end = sentence.start + len(sentence.text)
        people += bisect.bisect_left(starts, end) - bisect.bisect_left(starts, sentence.start)
        terms.append(words)
        pull.append(1.0 + NAME_PULL * min(people, 3))
    halves = [_bigrams(half) for half in title_halves(title)]
    carried = [[len(half & _bigrams(s.text)) for half in halves] for s in sentences]
    pull = [p * (1.0 + TITLE_PULL * sum(c)) for p, c in zip(pull, carried, strict=True)]
    scores = _rank(terms, pull)
    order = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    first = []  # for each half, the sentence that carries most of it, the more central first
    for h in range(len(halves)):
        best = max(order, key=lambda i: (carried[i][h], scores[i]))
        if carried[best][h] >= 2:
            first.append(best)
    order = first + order
    chosen: list[int] = []
    size = 0
    said: set[str] = set()  # a sentence the chapter repeats word for word is said once
    for i in dict.fromkeys(order):
        if len(chosen) == count:
            break
        if sentences[i].text in said:
            continue
        if size + len(sentences[i].text) > SUMMARY_CHARS and chosen:
            continue
        chosen.append(i)
        said.add(sentences[i].text)
        size += len(sentences[i].text)
    return [sentences[i].text for i in sorted(chosen)]


def title_halves(title: str) -> list[str]:
    """A 回目's two half-lines (「夺状元枪挑小梁王」, 「反武场放走岳鹏举」), or a title's words,
    without the heading's number."""
    words = re.sub(r"^\s*第[^章回节節\s]{1,12}[章回节節][\s:：.、]*", "", title or "")
    return [half for half in re.split(r"[\s\u3000，,；;]+", words) if len(half) >= 2]


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


def _rank(terms: list[set[str]], pull: list[float]) -> list[float]:
    """Personalised PageRank over sentences linked by the words they share, each link weighted
    by the shared words over the product of the sentences' size norms (TextRank divides by the
    sum of their logs; a product factors, so one step of the walk costs the number of shared
    words, not the number of sentence pairs: a long chapter ranks in milliseconds)."""
    n = len(terms)
    norm = [math.log(len(words) + 1) + 1.0 for words in terms]
    holders: dict[str, list[int]] = defaultdict(list)
    for i, words in enumerate(terms):
        for word in words:
            holders[word].append(i)
    # A word in a large share of sentences links nearly everything to everything: it adds
    # almost uniform weight and most of the work, so it is left out (the people a sentence
    # names still draw the walk through `pull`).
    common = max(COMMON_FLOOR, COMMON_SHARE * n)
    shared = [m for m in holders.values() if 1 < len(m) <= common]
    words_of: list[list[int]] = [[] for _ in range(n)]
    for k, members in enumerate(shared):
        for i in members:
            words_of[i].append(k)

    def spread(values: list[float]) -> list[float]:
        """(W v)_i = sum over sentences j != i of shared(i, j) * v_j / (norm_i * norm_j)."""
        scaled = [values[j] / norm[j] for j in range(n)]
        per_word = [sum(scaled[j] for j in members) for members in shared]
        return [
            (sum(per_word[k] for k in words_of[i]) - len(words_of[i]) * scaled[i]) / norm[i]
            for i in range(n)
        ]

    out_weight = spread([1.0] * n)
    total_pull = sum(pull)
    prior = [p / total_pull for p in pull]
    scores = list(prior)
    for _ in range(ITERATIONS):
        moved = spread(
            [s / w if w > 1e-12 else 0.0 for s, w in zip(scores, out_weight, strict=True)]
        )
        updated = [(1 - DAMPING) * prior[i] + DAMPING * moved[i] for i in range(n)]
        change = sum(abs(a - b) for a, b in zip(updated, scores, strict=True))
        scores = updated
        if change < CONVERGED:
            break
    return scores


def extractive_summary(text: str, people_at: Iterable[int] = (), title: str = "") -> str:
    return "".join(summary_sentences(text, people_at, title=title))


def scene_parts(text: str) -> list[tuple[int, str]]:
    """The text cut at the scene breaks it shows (a line of *** or ◇◇◇ or ———), each part with
    its offset; one part when it shows none."""
    parts, start = [], 0
    for match in SCENE_BREAK.finditer(text):
        parts.append((start, text[start : match.start()]))
        start = match.end()
    parts.append((start, text[start:]))
    return [(at, part) for at, part in parts if part.strip()]
