"""One vocabulary, Chinese first: every enumerated value of the chapter result, declared once.

Each term has its canonical value (what JSON and the store keep, fixed by the contract), the
Chinese label an author reads, and the synonyms intake accepts: Chinese words and the English
that models write most. English variants (case, snake/camel/kebab case, past tense, plural) are
folded by `Terms.find`, so they need no listing. Adding a kind touches one table here; the
intake, the labels of every display and the schema's enums all read it.

Pure values: no I/O, no imports from the layers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True, kw_only=True)
class Term:
    value: str  # canonical: what JSON carries and the store keeps
    label: str  # the Chinese word for the author
    synonyms: tuple[str, ...] = ()


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


class Terms:
    """One enumerated vocabulary: canonical values, labels, synonyms."""

    def __init__(self, name: str, terms: Iterable[Term]) -> None:
        self.name = name
        self.terms = tuple(terms)

    @cached_property
    def _lookup(self) -> tuple[dict[str, str], dict[str, str]]:
        """Every accepted word, and every stem, to its canonical value: made on the first
        `find`, so that a process reading one table (a fresh `webnovel fact`) folds no other."""
        exact: dict[str, str] = {}
        stemmed: dict[str, str] = {}
        for term in self.terms:
            for word in (term.value, term.label, *term.synonyms):
                exact.setdefault(word, term.value)
                exact.setdefault(fold_english(word), term.value)
                for stem in _stems(word):
                    stemmed.setdefault(stem, term.value)
        return exact, stemmed

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(t.value for t in self.terms)

    @property
    def labels(self) -> dict[str, str]:
        return {t.value: t.label for t in self.terms}

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
        """The Chinese word for a canonical value, or the value itself where none is known."""
        if value is None:
            return ""
        return self.labels.get(value, value)

    def described(self) -> str:
        """`plant（埋设）、advance（推进）…`: the choices as an error message names them."""
        return "、".join(f"{t.value}（{t.label}）" for t in self.terms)


def _terms(name: str, *rows: tuple[str, str, tuple[str, ...]]) -> Terms:
    return Terms(name, (Term(value=v, label=label, synonyms=s) for v, label, s in rows))


THREAD_KINDS = _terms(
    "线索类型",
    ("foreshadowing", "伏笔", ("伏线", "暗线", "铺垫", "foreshadow", "hint")),
    ("open_loop", "悬念", ("谜团", "疑问", "open loop", "loop", "mystery", "question")),
    ("reader_promise", "读者承诺", ("承诺", "约定", "promise")),
    ("subplot", "支线", ("副线", "side plot", "side_story", "sub_plot")),
)
THREAD_ACTIONS = _terms(
    "线索动作",
    ("plant", "埋设", ("埋下", "设下", "新增", "创建", "开启", "create", "open", "add", "new")),
    ("advance", "推进", ("进展", "发展", "更新", "progress", "update", "develop")),
    (
        "resolve",
        "回收",
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
    ("abandon", "放弃", ("废弃", "舍弃", "取消", "drop", "cancel")),
)
SET_OPS = _terms(
    "操作",
    ("set", "设为", ("设置", "改为", "变为", "更新", "替换", "update", "change", "replace", "=")),
    (
        "add",
        "添加",
        ("增加", "加入", "获得", "得到", "append", "gain", "acquire", "obtain", "insert", "+"),
    ),
    (
        "remove",
        "移除",
        ("删除", "去掉", "失去", "丢失", "消耗", "delete", "lose", "drop", "discard", "-"),
    ),
)
RELATION_ACTIONS = _terms(
    "关系动作",
    ("create", "建立", ("新建", "结识", "开始", "add", "new", "start", "begin", "establish")),
    ("update", "更新", ("变化", "改变", "转变", "change", "modify")),
    ("end", "结束", ("断绝", "解除", "终止", "决裂", "remove", "delete", "stop", "break")),
)
RULE_ACTIONS = _terms(
    "规则动作",
    ("reveal", "揭示", ("新增", "设立", "确立", "create", "add", "new", "establish")),
    ("revise", "修订", ("修改", "更新", "改写", "update", "change", "modify", "amend")),
    ("retire", "废止", ("废除", "失效", "取消", "remove", "delete", "end", "repeal")),
)
SECRET_ACTIONS = _terms(
    "秘密动作",
    ("plant", "埋设", ("设下", "新增", "创建", "create", "add", "new", "hide")),
    ("reveal", "揭晓", ("揭示", "公开", "揭露", "expose", "disclose", "uncover")),
    ("retire", "作废", ("废弃", "取消", "remove", "delete", "drop")),
)
KNOWLEDGE_CHANGES = _terms(
    "认知变化",
    ("learns", "得知", ("知道", "获知", "知晓", "发现", "learn", "know", "discover", "find_out")),
    ("suspects", "怀疑", ("猜测", "起疑", "suspect", "guess")),
    ("forgets", "遗忘", ("忘记", "失忆", "forget", "forgot", "forgotten")),
)
# A scene that is not the story's present: a memory of the past or a dream. Its people may be
# dead, what happens in it moves nobody now, and it moves no story clock. `scenes[].flashback`
# takes `true` (a flashback) or one of these words; a scene without it is the present.
SCENE_MODES = _terms(
    "场景类型",
    (
        "flashback",
        "回忆",
        ("闪回", "倒叙", "往事", "追忆", "回想", "忆起", "memory", "recollection", "past"),
    ),
    ("dream", "梦境", ("梦", "梦中", "做梦", "梦里", "nightmare", "vision")),
)
# What a secret is about. A `fate` (生死) or `whereabouts` (下落) secret about someone stops being
# a gap for whoever meets that person in a scene: they have seen them alive, and where.
SECRET_KINDS = _terms(
    "秘密类型",
    ("identity", "身份", ("真实身份", "真身", "来历", "身世", "lineage", "true_identity")),
    ("fate", "生死", ("存亡", "死活", "生还", "alive", "dead", "death", "survival")),
    ("whereabouts", "下落", ("行踪", "所在", "去向", "位置", "location", "hideout")),
    ("plan", "计划", ("阴谋", "图谋", "谋划", "plot", "scheme", "intent")),
    ("technique", "秘法", ("功法", "秘术", "法门", "secret_art", "method")),
    ("other", "其他", ("其它", "misc")),
)
# How sure a fact is, by its source: a `state_changes[]` item may say it is only hearsay (传闻)
# or someone's claim about themselves (自称), with `said_by`, whose words it is. Beside
# `confidence` (how sure the extraction is) and `reason` (why it changed): the pack says
# 「据屠七所说」 instead of stating it.
CERTAINTIES = _terms(
    "来源可信度",
    ("rumor", "传闻", ("听说", "据说", "风闻", "谣传", "hearsay", "rumour", "reported")),
    ("claimed", "自称", ("声称", "口称", "自述", "自报", "claim", "self_reported", "alleged")),
)
# A reveal `to` 众人 is told to everyone in the scene (or the chapter's present scenes).
EVERYONE = ("众人", "所有人", "大家", "在场众人", "全场", "everyone", "all")
ENTITY_TYPES = _terms(
    "实体类型",
    ("角色", "角色", ("人物", "人", "character", "person", "people", "npc", "role", "human")),
    ("地点", "地点", ("地名", "场所", "地方", "location", "place", "area", "region")),
    (
        "势力",
        "势力",
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
        "物品",
        "物品",
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
    "出场方式",
    ("present", "出场", ("在场", "登场", "现身", "appear", "appeared", "active", "on_stage")),
    (
        "mentioned",
        "提及",
        ("提到", "回忆", "对话中提及", "mention", "memory", "flashback", "recalled", "referenced"),
    ),
)
# Fields an entity commonly has, with the Chinese name an author reads; a book adds its own in
# `[fields]` of config.toml. A field not listed anywhere is kept under the name it was written.
FIELDS = _terms(
    "字段",
    ("realm", "境界", ("修为境界", "等级", "level", "rank")),
    ("location", "位置", ("地点", "所在", "所在地", "所在位置", "position", "place", "where")),
    ("status", "状态", ("生死", "存亡", "state")),
    ("faction", "阵营", ("所属势力", "势力", "门派", "所属", "affiliation", "side", "sect")),
    ("identity", "身份", ("真实身份", "role")),
    ("health", "伤势", ("伤情", "健康", "身体状况", "injury", "wound", "injuries")),
    ("items", "物品", ("持有物", "随身物品", "道具", "法宝", "inventory", "belongings")),
    # an item's: who holds it, read from everyone's 物品 (`memory/read/items.py`)
    ("holder", "持有者", ("持有人", "拥有者", "归属", "owner", "held_by", "possessor")),
    ("title", "称号", ("名号", "头衔", "封号")),
    ("age", "年龄", ("岁数",)),
    ("goal", "目标", ("目的", "心愿", "objective", "aim")),
    ("mood", "心境", ("情绪", "心情", "emotion")),
    ("spirit_root", "灵根", ("灵根资质",)),
    ("cultivation", "修为", ()),
    ("skill", "功法", ("技能", "武技", "招式", "skills", "technique", "techniques")),
    ("occupation", "职业", ("职务", "job", "profession")),
    (
        "weapon",
        "兵器",
        (
            "武器",
            "兵刃",
        ),
    ),
)
# Tiers are open: these are the usual ones (the dashboard orders cards by them); any other
# word is kept as written.
TIERS = _terms(
    "重要度",
    ("主角", "主角", ("protagonist", "lead", "hero")),
    ("核心", "核心", ("core", "main", "major", "primary")),
    ("重要", "重要", ("important", "key")),
    ("反派", "反派", ("villain", "antagonist")),
    ("次要", "次要", ("minor", "secondary")),
    ("配角", "配角", ("supporting",)),
    ("装饰", "装饰", ("路人", "龙套", "背景", "extra", "background", "cameo", "decoration")),
)

# What a listing of threads asks for (`threads --status`, `list_threads`), in the order of
# schema.THREAD_FILTERS; not a value of the chapter result.
THREAD_FILTER_WORDS = _terms(
    "线索状态",
    ("open", "未回收", ("未解决", "进行中", "未完结", "unresolved", "pending")),
    ("resolved", "已回收", ("回收", "已解决", "解决", "已完结", "closed", "done")),
    ("abandoned", "已放弃", ("放弃", "弃置", "dropped")),
    ("overdue", "已逾期", ("逾期", "过期", "超期", "late")),
    ("all", "全部", ("所有", "every")),
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
            rows[key] = Term(value=key, label=ladder.label, synonyms=(*ladder.synonyms, *extra))
            for other, own in list(rows.items()):  # 修为 is no longer a field of its own
                if other != key and (own.label in extra or other in extra):
                    del rows[other]
    books = {w for key, words in declared.items() for w in (key, *words)}
    for key, words in declared.items():
        label = words[0] if words else key
        base = rows.get(key)
        synonyms = (*words[1:], *((base.label, *base.synonyms) if base else ()))
        rows[key] = Term(value=key, label=label, synonyms=synonyms)
    for key, term in list(rows.items()):
        if key not in declared and books & set(term.synonyms):
            kept = tuple(w for w in term.synonyms if w not in books)
            rows[key] = Term(value=key, label=term.label, synonyms=kept)
    return Terms("字段", rows.values())


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
