"""The Data Agent's instructions, in Chinese, for extracting a chapter result."""

from __future__ import annotations

import json
from typing import Any

from ..messages import say

EXTRACTION_RULES = """你是这部连载小说的数据代理。请通读第{chapter}章正文，输出一个 JSON 对象（章节结果），
交给记忆引擎保存。只写正文中确实发生、确实写明的事，不要推测。

要点：
1. chapter 必填，为本章章号；summary 用两三句话概括本章。
2. 本章首次登场的角色、势力、地点、物品写进 entities_new：id 用稳定的英文或拼音，name 为正名，
   aliases 列出正文中的别称；current 写其本章时的状态（如 realm、location、status）。
3. 已有角色的状态变化写进 state_changes：entity_id 可用 id、正名或别名；field 用稳定的英文字段名
   （realm 境界、location 位置、status 生死状态、items 物品……）；写上 old（你认为的原值）和 new。
   物品等集合字段用 op: add / remove（交出物品：原持有者 remove、接收者 add）。角色死亡时把 status
   设为「死亡」。角色去了别处写 location 变化并写 reason。只是某人的说法（传言、自称）时加
   certainty（传闻 / 自称）与 said_by（谁说的）。
4. 关系变化写进 relationships_new（from → to 有方向）；朋友反目成仇用 update，关系终结用 end。
5. 伏笔、悬念、读者承诺写进 plot_threads：埋下用 plant（给出 id、kind、content，最好有 due_chapter；
   故事内的期限写 due_time，如「四十九日后」「三年后」），推进用 advance，回收用 resolve，放弃用 abandon。
6. 新揭示的世界规则写进 world_rules（修订已有规则用 action: revise 并沿用其 id）。
7. 重要事件写进 timeline_events；按场景写 scenes（location、characters、summary，time 写原文的时间说法
   如「次日清晨」「三日后」）；回忆或梦境的场景与事件加 flashback: true（或「回忆」「梦境」），其中的
   人物可以是已故者；需要知道故事过了几天时调用 get_clock；
   chapter_meta.ending 写本章结尾的时间、地点与情绪，供下一章衔接。
8. 拿不准的指代（如「那位长老」）写进 uncertain，给出 candidates 与 adopted 及 confidence。
9. 秘密写进 secrets：首次埋下用 plant（id、content、known_by 知情者、reader_knows 读者是否已知、
   reveal_due 预定揭示章；about 秘密关乎谁——此人默认知情，除非列入 unaware，如本人不知的身世），
   kind 秘密类型：身份、生死、下落、计划、秘法、其他；thread 所属线索 id），读者得知真相用 reveal
   （当场告知某些人时写 to：人物、势力或「众人」，以及 scene：在第几个场景），不再重要用 retire。
   其他角色得知、怀疑或遗忘秘密写进
   knowledge_changes（entity_id、secret_id、change: learns / suspects / forgets、how 怎么得知、
   from 从谁那里得知）。角色只能从知情者那里得知秘密。

提交前请先调用 review_draft 检查，修正阻断性问题后再 commit_chapter。
"""


def extraction_prompt(
    chapter: int, chapter_text: str, schema: dict[str, Any], example: dict[str, Any]
) -> str:
    parts = [
        EXTRACTION_RULES.format(chapter=chapter),
        "JSON Schema：",
        json.dumps(schema, ensure_ascii=False),
        "示例（示例小说第1章的章节结果）：",
        json.dumps(example, ensure_ascii=False, indent=1),
    ]
    if chapter_text:
        parts += [say("mcp_prompt_chapter_text", chapter=chapter), chapter_text]
    return "\n\n".join(parts)
