"""Candidate names beyond Han surnames: 兀术, 粘罕, 哈迷蚩 and 黑蛮龙 are found whole by where they
stand (before speech, after a clause's start), and 哈迷 is folded into 哈迷蚩; on 《西游记》, 八戒,
沙僧 and 三藏, which no surname list holds."""

from __future__ import annotations

import gzip
from pathlib import Path

from webnovel.ingest.name_finder import candidate_names
from webnovel.ingest.speaker_names import speaker_names
from webnovel.ingest.text_import import split_chapters

XIYOUJI = Path(__file__).parents[1] / "benchmarks" / "data" / "xiyouji.txt.gz"

# Written for this test, in the manner of 《说岳全传》: the Jin generals speak and react.
CAMP = [
    "却说兀术道：“岳南蛮果然厉害！”粘罕大怒道：“待我去拿他。”哈迷蚩道：“狼主不可轻敌。”",
    "兀术大喜，便叫粘罕领兵先行。哈迷蚩笑道：“此计甚妙。”那黑蛮龙道：“末将愿往。”",
    "次日，兀术升帐。粘罕道：“昨夜探得岳飞营中空虚。”哈迷蚩道：“只怕有诈。”",
    "黑蛮龙大叫：“某家先去探路！”兀术道：“好！”粘罕闻言，也要同去。哈迷蚩听了，连连摇头。",
    "只见黑蛮龙道：“宋营里有个牛皋，甚是了得。”兀术笑道：“怕他怎的！”粘罕说：“正是。”",
    "哈迷蚩道：“狼主，岳飞用兵如神。”黑蛮龙大怒道：“休长他人志气！”兀术大惊，问其缘故。",
]


def test_names_of_no_surname_are_found_whole_by_where_they_stand() -> None:
    chapters = [(n, text * 2) for n, text in enumerate(CAMP, start=1)]
    found, first = speaker_names(chapters)
    assert {"兀术", "粘罕", "哈迷蚩", "黑蛮龙"} <= set(found)
    assert first["兀术"] == 1 and first["黑蛮龙"] == 2
    names = [c.name for c in candidate_names(chapters, set(), min_count=3, limit=20)]
    assert {"兀术", "粘罕", "哈迷蚩", "黑蛮龙"} <= set(names)
    assert "哈迷" not in names  # a fragment of 哈迷蚩, folded into it
    assert not {"却说兀术", "兀术大喜", "狼主"} & set(names)


def test_a_classic_cast_beyond_surnames() -> None:
    whole = gzip.decompress(XIYOUJI.read_bytes()).decode("utf-8")
    chapters, _ = split_chapters(whole[: whole.index("第三十一回")])
    texts = [(n, c.text) for n, c in enumerate(chapters, start=1)]
    top = [c.name for c in candidate_names(texts, set(), min_count=3, limit=30)]
    assert {"八戒", "沙僧", "三藏", "行者"} <= set(top)
    assert not {"妖精", "小妖", "闻言"} & set(top)  # words said mostly elsewhere
