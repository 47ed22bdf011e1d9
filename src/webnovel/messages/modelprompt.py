"""What the extraction request tells the model about a chapter and what memory holds
(`extraction/context.py`, `extraction/prompt.py`). Chinese by default, for the Chinese
chapters it is read beside. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "context_head": ("【记忆：截至第{as_of}章】", "[memory: up to chapter {as_of}]"),
    "context_head_empty": (
        "【记忆：本书尚无已知内容】",
        "[memory: nothing known of this book yet]",
    ),
    "context_entities_head": (
        "已知实体（引用时请用 id；新实体才写进 entities_new）：",
        "known entities (refer to them by id; only new entities go in entities_new):",
    ),
    "context_threads_head": (
        "未回收的线索（推进或回收时沿用 id）：",
        "open threads (keep their id when advancing or paying one off):",
    ),
    "context_secrets_head": (
        "秘密（揭示或有人得知时沿用 id）：",
        "secrets (keep their id when one is revealed or learnt):",
    ),
    "context_nobody": ("无人", "nobody"),
    "context_reader_knows": ("读者已知", "the reader knows"),
    "context_reader_unaware": ("读者未知", "the reader does not know"),
    "context_secret_line": (
        "- {id}：{content}（知情者：{knowers}；{reader}）",
        "- {id}: {content} (known to: {knowers}; {reader})",
    ),
    "context_thread_due": ("，预定第{chapter}章回收", ", to pay off in chapter {chapter}"),
    "context_thread_overdue": ("，已逾期", ", overdue"),
    "context_thread_line": (
        "- {id}（{kind}，{planted}{due}{overdue}）：{content}",
        "- {id} ({kind}, {planted}{due}{overdue}): {content}",
    ),
    "prompt_previous_ending": (
        "【上一章（第{chapter}章）结尾】\n{ending}",
        "[the end of the previous chapter (chapter {chapter})]\n{ending}",
    ),
    "prompt_chapter_text": ("【{heading}正文】\n{text}", "[the text of {heading}]\n{text}"),
    "prompt_ask": (
        "请输出第{chapter}章的章节结果（chapter 为 {chapter}）。",
        "Write the chapter result of chapter {chapter} (chapter is {chapter}).",
    ),
    "repair_head": (
        "上面的 JSON 没有通过校验，问题如下（按 JSON 路径列出）：",
        "The JSON above did not pass validation; the problems, by JSON path:",
    ),
    "repair_more": ("- ……另有 {more} 处问题", "- … and {more} more problems"),
    "repair_ask": (
        "请只输出修正后的完整 JSON 对象（整个章节结果，不要只输出改动部分），不要加任何解释。",
        "Write only the corrected, complete JSON object (the whole chapter result, not just "
        "the changes), with no explanation.",
    ),
    "context_aliases": ("；别名 {aliases}", "; also called {aliases}"),
    "context_protagonist": ("；主角", "; the protagonist"),
}
