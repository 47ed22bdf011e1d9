"""What an agent reads of each MCP tool the table of queries makes (`queries/table.py`): its
description, said in the server's language when the server is made. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "tool_list_entities": (
        "书中的实体及其别名，截至某章已登场的。",
        "The book's entities and their aliases, those introduced by a chapter.",
    ),
    "tool_get_fact": (
        "某实体（id、名字或别名）的一个字段，当前或截至某章。字段可写键或中文名：realm 或 境界；"
        "物品的 holder（持有者）是谁持有它；不给字段则答全部字段（物品答持有者）。",
        "One field of an entity (id, name or alias), now or as of a chapter. The field may be its "
        "key or its Chinese name: realm or 境界; an item's holder (持有者) is who holds it; "
        "without a field, every field (an item: its holder).",
    ),
    "tool_get_history": (
        "实体各字段的每个版本：有效区间、状态与证据。",
        "Every version of an entity's fields: the chapters it held, its status and evidence.",
    ),
    "tool_get_relations": (
        "某章时与该实体有关的关系（出或入）。",
        "The relations of an entity, from it or to it, as of a chapter.",
    ),
    "tool_list_threads": (
        "线索（伏笔、悬念、承诺、支线）台账，按状态列出。",
        "The ledger of threads (foreshadowing, open loops, promises, subplots) by status.",
    ),
    "tool_list_rules": (
        "某章时生效的世界规则，可只看一个领域。",
        "The world rules in force as of a chapter, of one domain if asked.",
    ),
    "tool_knows": (
        "某角色知道或怀疑哪些秘密：从何时起、如何得知、从谁那里。",
        "Which secrets a character knows or suspects: since when, how, and from whom.",
    ),
    "tool_list_secrets": (
        "故事的秘密：谁知道、读者是否知道、预计何时揭晓。",
        "The story's secrets: who knows them, whether the reader does, when they are due.",
    ),
    "tool_get_chapter": (
        "某一章发生了什么：摘要、各场景的人物与地点、事件、变化、涉及的线索与秘密、冲突。"
        "按章节号询问时用它，不要用检索。",
        "What happened in one chapter: its summary, each scene's people and place, events, "
        "changes, the threads and secrets it touched, conflicts. Ask by chapter number with "
        "this, not with search.",
    ),
    "tool_get_timeline": (
        "按故事顺序排列的事件。",
        "The events in story order.",
    ),
    "tool_get_clock": (
        "故事内时钟：截至某章是故事第几天、什么时辰（第1天是全书第一个场景），"
        "距开篇与上一章过了几天，以及按故事时间到期的线索（due_time）还剩几天。",
        "The story's clock as of a chapter: the day of the story and the part of day (day 1 is "
        "the book's first scene), the days since the start and since the chapter before, and "
        "the days left to threads due in story time (due_time).",
    ),
    "tool_search_memory": (
        "在摘要、场景与正文中检索，不超过某章。每条结果有 0–1 的相关度（字面与语义两部分）、"
        "命中的词与片段；证据不足的标为 weak；问题中的词哪里都没有时返回空。",
        "Search the summaries, scenes and text, up to a chapter. Each hit has a 0–1 relevance "
        "(lexical and semantic), the words it matched and a snippet; a hit with little evidence "
        "is marked weak; a question whose words are nowhere finds nothing.",
    ),
    "tool_list_conflicts": (
        "未决冲突及双方证据，截至某章（include_settled 为真时也列出已接受与已解决的）。",
        "Open conflicts with both sides' evidence, as of a chapter (with include_settled, the "
        "accepted and resolved ones too).",
    ),
    "tool_build_memory_pack": (
        "按 token 预算为某任务与章节组装记忆包。写作时用 format=prompt：只返回渲染好的 "
        "Markdown，最省 token；text 只返回纯文本；json（默认）只返回记忆包的 JSON。",
        "The memory pack for a task and a chapter, within a token budget. When writing, use "
        "format=prompt: the rendered Markdown alone, the fewest tokens; text gives the plain "
        "text alone; json (the default) the pack's JSON alone.",
    ),
    "tool_resume": (
        "全书进度：接着写之前的简报（含缺章）。",
        "Where the book stands: a brief before writing on (missing chapters included).",
    ),
}
MESSAGES |= {
    "tool_impact_of_revision": (
        "改稿前先看影响：把这份章节结果作为第 N 章提交（或 retract=true 撤回第 N 章）"
        "会让全书哪些答案改变、后面哪些章节新增或消除矛盾、其中哪些章节已发布；不写入任何内容。",
        "What committing this result as chapter N (or retract=true: retracting chapter N) would "
        "change in the whole book: the answers that change, the later chapters that gain or lose "
        "conflicts, which of them are published; writes nothing.",
    ),
    "tool_commit_chapter": (
        "把章节结果写入记忆（见 chapter-result schema）。默认先审阅（check=true）："
        "有阻断问题时不写入，错误信息逐条列出问题与修改建议；确属有意为之时传 force=true "
        "强制写入，矛盾会记为冲突。改写已发布的章节同样需要 force=true。",
        "Write a chapter result into memory (see the chapter-result schema). It is reviewed "
        "first (check=true): with blocking issues nothing is written and the error lists each "
        "with what to change; when it is meant, force=true writes it and the contradictions "
        "are recorded as conflicts. Revising a published chapter needs force=true too.",
    ),
    "tool_retract_chapter": (
        "撤回已提交的一章：记忆如同从未提交过它；提交仍留在日志中，标为已撤回。",
        "Take a committed chapter back: memory answers as if it had never been committed; the "
        "commit stays in the log, marked retracted.",
    ),
    "tool_review_draft": (
        "审阅章节结果草稿：按写入时的同一套规则对照记忆检查，不写入任何内容。"
        "参数 result 与 commit_chapter 相同（旧名 draft 仍然接受）。",
        "Review a draft chapter result against memory by the commit's own rules; writes "
        "nothing. The argument result is commit_chapter's (the old name draft is accepted).",
    ),
    "tool_prefill_chapter": (
        "根据已存正文为已提交的一章生成章节结果骨架：谁出场、可能的新名字、上一章结尾在哪。"
        "补全后再 commit_chapter，比从头抽取省得多。",
        "A chapter result's skeleton for a committed chapter, from its stored text: who "
        "appears, names that may be new, where the chapter before ended. Complete it and "
        "commit_chapter: far cheaper than extracting from scratch.",
    ),
    "tool_extract_chapter": (
        "让用户配置的模型（OpenAI 兼容端点，来自用户的 WEBNOVEL_LLM_* 环境变量或用户配置）"
        "读一章已存的正文，并把读出的结果写入记忆；给希望由引擎调用模型的宿主用。"
        "默认只处理仅有导入结果的章（force 为真时任何章）；回答存在书中，不会重复付费。"
        "返回请求数、token 与费用。",
        "Have the user's configured model (an OpenAI-compatible endpoint, from the user's "
        "WEBNOVEL_LLM_* variables or config) read a chapter's stored text and commit what it "
        "found; for hosts that want the engine to call the model. Only chapters that stand on "
        "an import unless force; answers are kept in the book, never paid for twice. Returns "
        "the requests, tokens and cost.",
    ),
}
