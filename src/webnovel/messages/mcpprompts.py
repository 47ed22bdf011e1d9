"""What the MCP server's prompt and resources say: the Data Agent's instructions for extracting a
chapter result, and the descriptions an MCP client lists. Part of the one catalogue
(`webnovel.messages`); said when the server is made, in its language.

The English rules name the same JSON keys; where the engine reads a value (a dead status is
「死亡」 in a Chinese book) they say the value the book stores, and otherwise the English words
the vocabulary accepts too (rumor, claimed, dream, fate, everyone …)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "mcp_prompt_extract_description": (
        "数据代理：读完一章后，按 schema 抽取结构化的章节结果。",
        "Data Agent: after reading a chapter, extract its structured chapter result by the schema.",
    ),
    "mcp_resource_stats": ("记忆的数量、大小与健康状况。", "Memory's counts, sizes and health."),
    "mcp_resource_scratchpad": (
        "语义记忆缓存（memory_scratchpad.json）。",
        "The semantic memory cache (memory_scratchpad.json).",
    ),
    "mcp_prompt_schema": ("JSON Schema：", "JSON Schema:"),
    "mcp_prompt_example": (
        "示例（示例小说第1章的章节结果）：",
        "Example (the chapter result of the sample novel's chapter 1):",
    ),
    "mcp_extraction_rules": (
        """你是这部连载小说的数据代理。请通读第{chapter}章正文，输出一个 JSON 对象（章节结果），
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
""",
        """You are the Data Agent of this serialized novel. Read the text of chapter {chapter}
through and output one JSON object (the chapter result) for the memory engine to keep. Write
only what truly happens and is truly written in the text; do not guess.

Points:
1. chapter is required: this chapter's number; summary sums the chapter up in two or three
   sentences.
2. Characters, factions, places and items first appearing in this chapter go in entities_new:
   id is a stable English or pinyin word, name the proper name, aliases the other names the
   text uses; current holds their state in this chapter (such as realm, location, status).
3. A known character's changes of state go in state_changes: entity_id may be the id, the
   proper name or an alias; field is a stable English field name (realm, location, status,
   items …); give old (the value you believe it had) and new. A set-like field such as items
   takes op: add / remove (an item handed over: remove from the giver, add to the receiver).
   When a character dies, set status to the book's word for dead (「死亡」 in a Chinese book).
   A character going elsewhere is a location change with a reason. When it is only someone's
   word (a rumour, a claim about themselves), add certainty (rumor / claimed) and said_by (who
   said it).
4. Changes of relations go in relationships_new (from → to has a direction); friends turned
   enemies is an update, a relation that ends is an end.
5. Foreshadowing, suspense and promises to the reader go in plot_threads: plant to lay one
   (give id, kind, content, best with due_chapter; a deadline in story time goes in due_time,
   in the text's words, such as 「四十九日后」 or 「三年后」), advance to move it, resolve to pay
   it off, abandon to drop it.
6. Newly revealed rules of the world go in world_rules (to revise a rule, action: revise with
   its id).
7. Important events go in timeline_events; scenes go in scenes (location, characters,
   summary; time in the text's own words, such as 「次日清晨」 or 「三日后」); a scene or event
   that is a memory or a dream takes flashback: true (or "dream"), and its people may be dead;
   call get_clock to learn how many days the story has run; chapter_meta.ending holds the
   time, place and mood the chapter ends on, for the next chapter to pick up.
8. A reference you are unsure of (such as 「那位长老」) goes in uncertain, with candidates,
   adopted and confidence.
9. Secrets go in secrets: plant one when first laid (id, content, known_by: who knows,
   reader_knows: whether the reader knows, reveal_due: the chapter it is due to come out;
   about: whom it concerns — they know it unless listed in unaware, such as an origin they do
   not know themselves; kind: identity, fate, whereabouts, plan, technique or other; thread:
   the id of its thread), reveal when the reader learns the truth (when some are told on the
   spot, to: characters, factions or "everyone", and scene: in which scene), retire when it no
   longer matters. Another character learning, suspecting or forgetting a secret goes in
   knowledge_changes (entity_id, secret_id, change: learns / suspects / forgets, how: how they
   learned it, from: whom they learned it from). A character can learn a secret only from
   someone who knows it.

Before committing, call review_draft; fix the blocking issues, then commit_chapter.
""",
    ),
}
