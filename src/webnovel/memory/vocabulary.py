"""One vocabulary: every enumerated value the engine keeps, declared once, with the words a
person reads for it and the words intake accepts for it.

Each term has its canonical value (what JSON and the store keep, fixed by the contract) and its
label, the word a person reads: the catalogue's (`messages/vocabwords.py`, keyed
`<enumeration>:<value>`), said when it is shown, in the reader's language (WEBNOVEL_LANG), never
at import. Intake accepts the value, its label in either language, and the synonyms listed here
(Chinese words and the English that models write most), whatever the reader's language; English
variants (case, snake/camel/kebab case, past tense, plural) are folded by `Terms.find`, so they
need no listing. Adding a kind touches one table here and its label in the catalogue; the
intake, the labels of every display and the schema's enums all read them.

Two shapes: `Terms`, an enumeration a chapter result or a question takes (values, labels,
synonyms; `ENUMS`), and `Labels`, the mapping from value to label that a display reads (a
`Terms`' `.labels`, or on its own for what is only ever shown: statuses, sources, severities,
conflict kinds, tasks, a pack's sections). Adapters read these through `book/words.py`.

Pure values: no I/O, no imports from the layers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, get_args

from ..messages import MESSAGES, say
from ..prose.closing import without_closing_formula
from .said import Said
from .schema import ADVICE_KINDS, CONFLICT_KINDS, ConflictStatus, Status, ThreadStatus


@dataclass(frozen=True, kw_only=True)
class Term:
    value: str  # canonical: what JSON carries and the store keeps
    key: str = ""  # the catalogue's key for its label; "" for a field a book declared
    own: str = ""  # a book's own label for a field (config.toml `[fields]`), shown as written
    synonyms: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The word a person reads for it, in the reader's language."""
        if self.key:
            return say(self.key)
        return self.own or self.value

    @property
    def names(self) -> tuple[str, ...]:
        """Its label in every language: words that mean it, whatever the reader's language."""
        if self.key:
            return MESSAGES[self.key]
        return (self.own,) if self.own else ()


def fold_english(word: str) -> str:
    """Lower case, snake case: `spiritRoot`, `Spirit-Root` and `spirit root` are one key."""
    word = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", word.strip())
    return re.sub(r"[\s\-]+", "_", word).lower()


def _stems(word: str) -> set[str]:
    """The word and its likely stems, so that `resolved`, `learned` and `items` find their
    canonical `resolve`, `learns` and `item`."""
    folded = fold_english(word)
    stems = {folded}
    for ending in ("ed", "d", "es", "s", "ing"):
        if folded.endswith(ending) and len(folded) - len(ending) >= 3:
            stems.add(folded[: -len(ending)])
    return stems


class Labels(Mapping[str, str]):
    """Canonical value → the word a person reads, said from the catalogue on each access (so a
    table made at import speaks the language of the moment it is read). A value it does not
    know is a KeyError, so `.get(value, value)` shows an unknown value as written."""

    def __init__(self, terms: Iterable[Term]) -> None:
        self._terms = {t.value: t for t in terms}

    def __getitem__(self, value: str) -> str:
        return self._terms[value].label

    def __iter__(self) -> Iterator[str]:
        return iter(self._terms)

    def __len__(self) -> int:
        return len(self._terms)

    def __contains__(self, value: object) -> bool:  # without saying the label
        return value in self._terms

    def said(self, value: str) -> str:
        """The label as a message keeps it (a conflict's, read later): its catalogue key, so that
        it is said again in the language of whoever reads it (`memory/said.py`)."""
        term = self._terms.get(value)
        return Said(term.key) if term is not None and term.key else self.get(value, value)


class Terms:
    """One enumeration a chapter result or a question takes: canonical values, labels, synonyms.
    `kind` names it in the catalogue (`vocab:<kind>`) and prefixes its labels' keys."""

    def __init__(self, kind: str, terms: Iterable[Term]) -> None:
        self.kind = kind
        self.terms = tuple(terms)

    @cached_property
    def _lookup(self) -> tuple[dict[str, str], dict[str, str]]:
        """Every accepted word, and every stem, to its canonical value: made on the first
        `find`, so that a process reading one table (a fresh `webnovel fact`) folds no other."""
        exact: dict[str, str] = {}
        stemmed: dict[str, str] = {}
        for term in self.terms:
            for word in (term.value, *term.names, *term.synonyms):
                exact.setdefault(word, term.value)
                exact.setdefault(fold_english(word), term.value)
                for stem in _stems(word):
                    stemmed.setdefault(stem, term.value)
        return exact, stemmed

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    @property
    def name(self) -> str:
        """What the enumeration is called (线索类型), in the reader's language."""
        return say(f"vocab:{self.kind}")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(t.value for t in self.terms)

    @cached_property
    def labels(self) -> Labels:
        return Labels(self.terms)

    def find(self, written: str) -> str | None:
        """The canonical value `written` means, or None when it means none of them."""
        exact, stemmed = self._lookup
        text = written.strip()
        if text in exact:
            return exact[text]
        folded = fold_english(text)
        if folded in exact:
            return exact[folded]
        for stem in sorted(_stems(text), key=len, reverse=True):
            if stem in stemmed:
                return stemmed[stem]
        return None

    def label(self, value: str | None) -> str:
        """The word a person reads for a canonical value, or the value itself where none is
        known."""
        if value is None:
            return ""
        return self.labels.get(value, value)

    def said(self, value: str) -> str:
        """The label as a message keeps it: see `Labels.said`."""
        return self.labels.said(value)

    def described(self) -> str:
        """`plant（埋设）、advance（推进）…`: the choices as an error message names them."""
        shown = (
            say("vocab_choice", value=t.value, label=t.label) if t.label != t.value else t.value
            for t in self.terms
        )
        return say("argument_list_separator").join(shown)


def _terms(kind: str, *rows: tuple[str | tuple[str, str], tuple[str, ...]]) -> Terms:
    """An enumeration from its rows, `(value, synonyms)`: a label's key is `<kind>:<value>`, or
    `<kind>:<name>` for a value written `(value, name)` (a Chinese value: `("角色", "character")`)."""
    terms = []
    for value, synonyms in rows:
        value, name = value if isinstance(value, tuple) else (value, value)
        terms.append(Term(value=value, key=f"{kind}:{name}", synonyms=synonyms))
    return Terms(kind, terms)


def _labels(kind: str, *values: str | tuple[str, str]) -> Labels:
    """What is only shown, never taken: its values' labels, keyed as `_terms` keys them."""
    return _terms(kind, *((value, ()) for value in values)).labels


THREAD_KINDS = _terms(
    "thread_kind",
    ("foreshadowing", ("伏线", "暗线", "铺垫", "foreshadow", "hint")),
    ("open_loop", ("谜团", "疑问", "open loop", "loop", "mystery", "question")),
    ("reader_promise", ("承诺", "约定", "promise")),
    ("subplot", ("副线", "side plot", "side_story", "sub_plot")),
)
THREAD_ACTIONS = _terms(
    "thread_action",
    ("plant", ("埋下", "设下", "新增", "创建", "开启", "create", "open", "add", "new")),
    ("advance", ("进展", "发展", "更新", "progress", "update", "develop")),
    (
        "resolve",
        (
            "解决",
            "兑现",
            "揭晓",
            "完成",
            "了结",
            "close",
            "complete",
            "payoff",
            "pay_off",
            "fulfil",
            "fulfill",
            "done",
        ),
    ),
    ("abandon", ("废弃", "舍弃", "取消", "drop", "cancel")),
)
SET_OPS = _terms(
    "set_op",
    ("set", ("设置", "改为", "变为", "更新", "替换", "update", "change", "replace", "=")),
    (
        "add",
        ("增加", "加入", "获得", "得到", "append", "gain", "acquire", "obtain", "insert", "+"),
    ),
    (
        "remove",
        ("删除", "去掉", "失去", "丢失", "消耗", "delete", "lose", "drop", "discard", "-"),
    ),
)
RELATION_ACTIONS = _terms(
    "relation_action",
    ("create", ("新建", "结识", "开始", "add", "new", "start", "begin", "establish")),
    ("update", ("变化", "改变", "转变", "change", "modify")),
    ("end", ("断绝", "解除", "终止", "决裂", "remove", "delete", "stop", "break")),
)
RULE_ACTIONS = _terms(
    "rule_action",
    ("reveal", ("新增", "设立", "确立", "create", "add", "new", "establish")),
    ("revise", ("修改", "更新", "改写", "update", "change", "modify", "amend")),
    ("retire", ("废除", "失效", "取消", "remove", "delete", "end", "repeal")),
)
SECRET_ACTIONS = _terms(
    "secret_action",
    ("plant", ("设下", "新增", "创建", "create", "add", "new", "hide")),
    ("reveal", ("揭示", "公开", "揭露", "expose", "disclose", "uncover")),
    ("retire", ("废弃", "取消", "remove", "delete", "drop")),
)
KNOWLEDGE_CHANGES = _terms(
    "knowledge_change",
    ("learns", ("知道", "获知", "知晓", "发现", "learn", "know", "discover", "find_out")),
    ("suspects", ("猜测", "起疑", "suspect", "guess")),
    ("forgets", ("忘记", "失忆", "forget", "forgot", "forgotten")),
)
# A scene that is not the story's present: a memory of the past or a dream. Its people may be
# dead, what happens in it moves nobody now, and it moves no story clock. `scenes[].flashback`
# takes `true` (a flashback) or one of these words; a scene without it is the present.
SCENE_MODES = _terms(
    "scene_mode",
    (
        "flashback",
        ("闪回", "倒叙", "往事", "追忆", "回想", "忆起", "memory", "recollection", "past"),
    ),
    ("dream", ("梦", "梦中", "做梦", "梦里", "nightmare", "vision")),
)
# What a secret is about. A `fate` (生死) or `whereabouts` (下落) secret about someone stops being
# a gap for whoever meets that person in a scene: they have seen them alive, and where.
SECRET_KINDS = _terms(
    "secret_kind",
    ("identity", ("真实身份", "真身", "来历", "身世", "lineage", "true_identity")),
    ("fate", ("存亡", "死活", "生还", "alive", "dead", "death", "survival")),
    ("whereabouts", ("行踪", "所在", "去向", "位置", "location", "hideout")),
    ("plan", ("阴谋", "图谋", "谋划", "plot", "scheme", "intent")),
    ("technique", ("功法", "秘术", "法门", "secret_art", "method")),
    ("other", ("其它", "misc")),
)
# How sure a fact is, by its source: a `state_changes[]` item may say it is only hearsay (传闻)
# or someone's claim about themselves (自称), with `said_by`, whose words it is. Beside
# `confidence` (how sure the extraction is) and `reason` (why it changed): the pack says
# 「据屠七所说」 instead of stating it.
CERTAINTIES = _terms(
    "certainty",
    ("rumor", ("听说", "据说", "风闻", "谣传", "hearsay", "rumour", "reported")),
    ("claimed", ("声称", "口称", "自述", "自报", "claim", "self_reported", "alleged")),
)
# A reveal `to` 众人 is told to everyone in the scene (or the chapter's present scenes).
EVERYONE = ("众人", "所有人", "大家", "在场众人", "全场", "everyone", "all")
ENTITY_TYPES = _terms(
    "entity_type",
    (
        ("角色", "character"),
        ("人物", "人", "character", "person", "people", "npc", "role", "human"),
    ),
    (("地点", "place"), ("地名", "场所", "地方", "location", "place", "area", "region")),
    (
        ("势力", "faction"),
        (
            "门派",
            "宗门",
            "组织",
            "帮派",
            "家族",
            "faction",
            "organization",
            "organisation",
            "org",
            "sect",
            "clan",
            "group",
        ),
    ),
    (
        ("物品", "item"),
        (
            "法宝",
            "宝物",
            "道具",
            "神兵",
            "信物",
            "令牌",
            "item",
            "object",
            "artifact",
            "artefact",
            "treasure",
        ),
    ),
)
APPEARANCE_ROLES = _terms(
    "appearance_role",
    ("present", ("在场", "登场", "现身", "appear", "appeared", "active", "on_stage")),
    (
        "mentioned",
        ("提到", "回忆", "对话中提及", "mention", "memory", "flashback", "recalled", "referenced"),
    ),
)
# Fields an entity commonly has, with the Chinese name an author reads; a book adds its own in
# `[fields]` of config.toml. A field not listed anywhere is kept under the name it was written.
FIELDS = _terms(
    "field",
    ("realm", ("修为境界", "等级", "level", "rank")),
    ("location", ("地点", "所在", "所在地", "所在位置", "position", "place", "where")),
    ("status", ("生死", "存亡", "state")),
    ("faction", ("所属势力", "势力", "门派", "所属", "affiliation", "side", "sect")),
    ("identity", ("真实身份", "role")),
    ("health", ("伤情", "健康", "身体状况", "injury", "wound", "injuries")),
    ("items", ("持有物", "随身物品", "道具", "法宝", "inventory", "belongings")),
    # an item's: who holds it, read from everyone's 物品 (`memory/read/items.py`)
    ("holder", ("持有人", "拥有者", "归属", "owner", "held_by", "possessor")),
    ("title", ("名号", "头衔", "封号")),
    ("age", ("岁数",)),
    ("goal", ("目的", "心愿", "objective", "aim")),
    ("mood", ("情绪", "心情", "emotion")),
    ("spirit_root", ("灵根资质",)),
    ("cultivation", ()),
    ("skill", ("技能", "武技", "招式", "skills", "technique", "techniques")),
    ("occupation", ("职务", "job", "profession")),
    (
        "weapon",
        (
            "武器",
            "兵刃",
        ),
    ),
)
# Tiers are open: these are the usual ones (the dashboard orders cards by them); any other
# word is kept as written.
TIERS = _terms(
    "tier",
    (("主角", "protagonist"), ("protagonist", "lead", "hero")),
    (("核心", "core"), ("core", "main", "major", "primary")),
    (("重要", "important"), ("important", "key")),
    (("反派", "villain"), ("villain", "antagonist")),
    (("次要", "minor"), ("minor", "secondary")),
    (("配角", "supporting"), ("supporting",)),
    (("装饰", "extra"), ("路人", "龙套", "背景", "extra", "background", "cameo", "decoration")),
)

# What a listing of threads asks for (`threads --status`, `list_threads`), in the order of
# schema.THREAD_FILTERS; not a value of the chapter result.
THREAD_FILTER_WORDS = _terms(
    "thread_status",
    ("open", ("未解决", "进行中", "未完结", "unresolved", "pending")),
    ("resolved", ("回收", "已解决", "解决", "已完结", "closed", "done")),
    ("abandoned", ("放弃", "弃置", "dropped")),
    ("overdue", ("逾期", "过期", "超期", "late")),
    ("all", ("所有", "every")),
)

ENUMS: Mapping[str, Terms] = {
    "thread_kind": THREAD_KINDS,
    "thread_action": THREAD_ACTIONS,
    "set_op": SET_OPS,
    "relation_action": RELATION_ACTIONS,
    "rule_action": RULE_ACTIONS,
    "secret_action": SECRET_ACTIONS,
    "secret_kind": SECRET_KINDS,
    "certainty": CERTAINTIES,
    "knowledge_change": KNOWLEDGE_CHANGES,
    "entity_type": ENTITY_TYPES,
    "appearance_role": APPEARANCE_ROLES,
    "tier": TIERS,
}


# -- what is only shown, never taken: memory's statuses and sources, a commit's status, a
# conflict's kind, severity and status, a chapter's report, a pack's tasks, sections, passages --
STATUS = _labels("status", *get_args(Status))
SOURCE = _labels(
    "source",
    "state_change",
    "entity_new",
    "relationship",
    "world_rule",
    "thread",
    "summary",
    "manual",
    "review",
)
COMMIT_STATUS = _labels("commit_status", "committed", "unchanged", "retracted")
THREAD_STATUS = _labels("thread_status", *get_args(ThreadStatus))
SEVERITY = _labels("severity", "critical", "high", "medium", "low")
CONFLICT_KIND = _labels("conflict_kind", *CONFLICT_KINDS)
ADVICE_KIND = _labels("advice_kind", *ADVICE_KINDS)
CONFLICT_STATUS = _labels("conflict_status", *get_args(ConflictStatus))
ENTITY_TYPE_PLURAL = _labels(
    "entity_types", ("角色", "character"), ("地点", "place"), ("势力", "faction"), ("物品", "item")
)
# one chapter's report (`webnovel chapter N`, the dashboard's chapter page): what a secret did
SECRET_ACTION = _labels(
    "secret_event", "plant", "reveal", "retire", "learns", "suspects", "forgets"
)
# chapter_meta.ending: what agents write, and the passage a text import keeps (`passage`)
ENDING = _labels("ending", "time", "location", "emotion", "passage")
TASK = _labels("task", "chapter_write", "consistency_check", "continuity_query", "review")
SECTION = _labels(  # a pack's own headings, as the agent reads them
    "section",
    "must_know",
    "working_memory",
    "character_state",
    "constraints",
    "relations",
    "threads",
    "world_rules",
    "timeline",
    "history",
    "episodic",
)
CHUNK_KIND = _labels(
    "chunk_kind", "chapter_title", "chapter_summary", "scene_summary", "scene_slice"
)
# the enumerations a chapter result takes, as displays read them
THREAD_KIND = THREAD_KINDS.labels
THREAD_ACTION = THREAD_ACTIONS.labels
SCENE_MODE = SCENE_MODES.labels  # a scene that is not now: 回忆, 梦境
SECRET_KIND = SECRET_KINDS.labels  # what a secret is about: 身份, 生死, 下落…
FIELD = FIELDS.labels  # the built-in fields; a book's own come from `Project.fields`
ENTITY_TYPE = ENTITY_TYPES.labels  # 角色 is a character to an English reader
TIER = TIERS.labels  # 重要 is important to an English reader; an open tier shows as written


def chapter_named(chapter: int, title: str | None) -> str:
    """第12章《赤炎城》, or 第2章 alone for a chapter with no title (never an empty 《》)."""
    if title:
        return say("chapter_report_head", chapter=chapter, title=title)
    return say("chapter_n", n=chapter)


def ending_words(ending: Mapping[str, Any]) -> str:
    """Where a chapter ends, in the reader's words: 时间：夜，地点：客栈屋顶 (time: night; place: …).
    One wording for the pack, `webnovel chapter` and the dashboard. A passage quoted from the
    text is the story's last words, without the 章回体 closing formula (a book imported before
    the importer left it off stored 「欲知后事如何，且听下回分解。」 as the whole passage)."""
    shown = {
        k: without_closing_formula(v) if k == "passage" and isinstance(v, str) else v
        for k, v in ending.items()
    }
    return say("state_separator").join(
        say("pack_ending_part", label=ENDING.get(k, k), value=v) for k, v in shown.items() if v
    )


def label(table: Mapping[str, str], key: str | None) -> str:
    """The word a person reads for a key, or the key itself where the table has none."""
    if key is None:
        return ""
    return table.get(key, key)


# A book whose realm is a ladder (仙侠, 玄幻: `[ladders] realm`) writes it under these names too:
# 修为 there is the realm, not a field of its own, and a drop under any of them is a regression.
LADDER_WORDS = {"realm": ("修为", "修为等级", "cultivation", "cultivation_level", "power_level")}


def field_terms(
    declared: Mapping[str, tuple[str, ...]] = {},  # noqa: B006 (read only)
    ladders: Iterable[str] = (),
) -> Terms:
    """The built-in fields with a book's own: `declared` maps a field's key to its label and
    synonyms (config.toml `[fields]`); a book's label for a built-in field replaces ours, and a
    word the book gives one of its fields means that field, not a built-in one. A field with a
    ladder (`ladders`, its keys) takes the words its genre writes it with (`LADDER_WORDS`)."""
    rows = {t.value: t for t in FIELDS}
    for key in ladders:
        extra = LADDER_WORDS.get(key, ())
        if extra and key in rows:
            ladder = rows[key]
            rows[key] = replace(ladder, synonyms=(*ladder.synonyms, *extra))
            for other, own in list(rows.items()):  # 修为 is no longer a field of its own
                if other != key and (set(own.names) & set(extra) or other in extra):
                    del rows[other]
    books = {w for key, words in declared.items() for w in (key, *words)}
    for key, words in declared.items():
        label = words[0] if words else key
        base = rows.get(key)
        synonyms = (*words[1:], *((*base.names, *base.synonyms) if base else ()))
        rows[key] = Term(value=key, own=label, synonyms=synonyms)
    for key, term in list(rows.items()):
        if key not in declared and books & set(term.synonyms):
            kept = tuple(w for w in term.synonyms if w not in books)
            rows[key] = replace(term, synonyms=kept)
    return Terms("field", rows.values())


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Levenshtein distance, stopping early past `limit` (enough to tell a near miss)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def nearest(written: str, choices: Iterable[str]) -> str | None:
    """The choice `written` most likely meant to be: a typo's distance, case and style folded."""
    folded = fold_english(written)
    best: tuple[int, str] | None = None
    for choice in choices:
        target = fold_english(choice)
        allowed = 1 if len(target) <= 4 else 2
        distance = edit_distance(folded, target, allowed)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, choice)
    return best[1] if best else None
