"""The help of the query commands (queries/table.py): each query's `help` and each argument's,
said when the command line is built; an MCP tool's arguments are described by the same keys, in
the server's language. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "help_entities": (
        "书中的人物、势力、地点与物品，及其别名",
        "the book's characters, factions, places and items, with aliases",
    ),
    "help_entities_as_of": ("按第 N 章时所知", "as chapter N knew them"),
    "help_entities_entity_type": (
        "如 角色、势力、地点、物品",
        "e.g. character, faction, place or item",
    ),
    "help_fact": (
        "某实体的一个字段：当前值，或截至第 N 章的值",
        "one field of one entity, now or as of chapter N",
    ),
    "help_subject": ("实体的 id、名字或别名", "entity id, name or alias"),
    "help_fact_field": (
        "字段的键或中文名：realm 或 境界（可不给：物品答谁持有它，其他实体答它的全部字段）",
        "a field's key or Chinese name: realm or 境界 (may be left out: an item answers who holds "
        "it, anyone else every field they have)",
    ),
    "help_as_of": ("截至第 N 章", "as of chapter N"),
    "help_fields": (
        "本书的字段：中文名、键、有此字段的实体数、可接受的写法",
        "the book's fields: Chinese name, key, how many entities have one, the words accepted",
    ),
    "help_history": (
        "实体各字段的每个版本：区间、状态与证据",
        "every version of an entity's fields with interval, status and evidence",
    ),
    "help_history_field": ("字段（默认：全部）", "a field (default: all)"),
    "help_history_as_of": ("按第 N 章时所知", "as chapter N knew it"),
    "help_relations": ("第 N 章时与该实体有关的关系", "relations touching SUBJECT that hold at N"),
    "help_cooccurrence": (
        "截至第 N 章，与某实体同章、同场景出现的人物（同现，不是关系事实）",
        "who shares chapters and scenes with an entity, as of chapter N (co-occurrence, not a relation fact)",
    ),
    "help_cooccurrence_limit": ("最多列出几个人", "at most this many people"),
    "help_threads": (
        "线索台账：伏笔、读者承诺、悬念",
        "the thread ledger: foreshadowing, promises, loops",
    ),
    "help_threads_status": (
        "列出哪些线索：open 未回收、resolved 已回收、abandoned 已放弃、overdue 已逾期、all 全部",
        "which threads",
    ),
    "help_rules": ("生效中的世界规则", "world rules in force"),
    "help_rules_domain": ("规则领域，如 力量体系", "a domain of rules, e.g. 力量体系"),
    "help_knows": (
        "某角色知道或怀疑哪些秘密：从何时起、如何得知",
        "what a character knows or suspects of the story's secrets, since when and how",
    ),
    "help_secrets": (
        "故事的秘密：谁知道、读者是否知道、预计何时揭晓",
        "the story's secrets: who knows each, whether the reader does, when it is due",
    ),
    "help_chapter": (
        "第 N 章发生了什么：摘要、各场景的人物与地点、事件、变化、涉及的线索与秘密、冲突",
        "what happened in chapter N: summary, scenes with people and places, events, what changed, threads and secrets touched, conflicts",
    ),
    "help_the_chapter": ("章节号", "the chapter"),
    "help_timeline": ("按故事顺序排列的事件", "events in story order"),
    "help_timeline_start": ("起始章节", "from chapter"),
    "help_timeline_end": ("结束章节", "to chapter"),
    "help_timeline_entity": ("只看此实体的事件", "only events of this entity"),
    "help_timeline_as_of": ("不超过第 N 章", "never past chapter N"),
    "help_timeline_story": (
        "按故事时间排列：按事件发生的那一天，回忆放在它发生的过去",
        "in story time: by the day each happens, flashbacks in their place",
    ),
    "help_clock": (
        "故事内时钟：第几天、什么时辰，距开篇与上一章过了几天，按故事时间到期的线索",
        "the story clock: the day and part of day, days since the start and since the chapter before, deadlines in story time",
    ),
    "help_search": (
        "检索：在章节摘要、场景摘要与正文片段中查找",
        "episodic retrieval over chapter summaries, scene summaries and text slices",
    ),
    "help_search_text": (
        "要找的内容（人名、事件或一个问题）",
        "what to look for (names, events, a question)",
    ),
    "help_search_top_k": ("返回几条结果", "how many results"),
    "help_search_as_of": ("只看第 N 章及以前", "only chapters up to N"),
    "help_conflicts": ("未决冲突及双方证据", "open conflicts with both sides' evidence"),
    "help_conflicts_include_settled": (
        "包括已接受与已解决的冲突",
        "include accepted and resolved ones",
    ),
    "help_conflicts_as_of": ("第 N 章及以前写下的冲突", "those written by chapter N"),
    "help_conflicts_action": (
        "resolve ID [ID …]：处理冲突（可一次多条）",
        "resolve ID [ID …]: settle conflicts (several at once)",
    ),
    "help_conflicts_conflict_id": ("冲突的 id（可多个）", "the conflicts' ids (one or more)"),
    "help_conflicts_intentional": (
        "配合 resolve：这是有意为之的矛盾（保留记录，不再提示）",
        "with resolve: the contradiction is deliberate (kept, no longer raised)",
    ),
    "help_conflicts_note": ("配合 resolve：说明原因", "with resolve: why"),
    "help_pack": (
        "按 token 预算组装的记忆包：用于写作、一致性检查、连续性提问或审阅",
        "the token-budgeted memory pack for writing, checking, asking about or reviewing a chapter",
    ),
    "help_format_prompt": (
        "输出格式（默认：终端上为 text，否则为 json；prompt：交给智能体的正文）",
        "output format (default: text on a terminal, json otherwise; prompt: the text an agent is given)",
    ),
    "help_pack_chapter": ("正在处理的章节号", "the chapter being worked on"),
    "help_pack_task": ("记忆包的用途", "the task the pack is for"),
    "help_pack_outline": (
        "大纲文件（默认：书中的 outlines/NNN.md）",
        "outline file (default: the book's outlines/NNN.md when present)",
    ),
    "help_pack_query": ("用一个问题或焦点代替大纲", "a question or focus instead of an outline"),
    "help_pack_draft": (
        "章节结果草稿：围绕它涉及的内容组装（用于 --task review）",
        "a draft chapter result: centre the pack on what it touches (for --task review)",
    ),
    "help_pack_budget_tokens": ("token 预算（默认 4000）", "token budget (default 4000)"),
    "help_pack_template": (
        "按章节类型调整各部分的比重",
        "weight the sections for a kind of chapter",
    ),
    "help_resume": (
        "全书进度：接着写之前的简报",
        "where the book stands: a brief for picking the work up again",
    ),
    "help_stats": ("记忆的数量、大小与健康状况", "counts, sizes and health of the book's memory"),
    # -- arguments only MCP clients give (the pack's rendering) or none does -------------------
    "help_pack_format_mcp": (
        "json：记忆包的 JSON；prompt 或 text：只给记忆包的这种渲染（MCP）",
        "json: the pack's JSON; prompt or text: only the pack rendered so (MCP)",
    ),
    "help_pack_record": ("记录记忆包的大小", "log the pack's size"),
    # -- the arguments of the MCP tools declared in mcp/server.py (they write, or read a text) --
    "help_tool_result": ("章节结果", "a chapter result"),
    "help_tool_text": ("本章正文", "the chapter's text"),
    "help_tool_check": ("先审阅", "review first"),
    "help_tool_commit_force": ("仍然写入", "commit anyway"),
    "help_tool_retract_force": ("即使该章已发布也撤回", "even a published chapter"),
    "help_tool_draft_old_name": ("result 的旧名", "the old name of result"),
    "help_tool_result_chapter": ("结果对应的章节号", "the chapter the result is for"),
    "help_tool_revised_text": ("改过的本章正文", "the revised chapter's text"),
    "help_tool_impact_retract": ("改为查看撤回该章的影响", "the impact of retracting it"),
    "help_tool_extract_force": ("任何一章，已有完整结果的也读", "any chapter"),
}
