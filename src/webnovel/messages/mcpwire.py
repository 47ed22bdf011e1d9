"""What an MCP client reads before any tool is called: the server's instructions (in the
`initialize` answer) and the description of a chapter result given to a tool whose schema does
not repeat the full chapter-result schema (commit_chapter's holds it, once). Part of the one
catalogue (`webnovel.messages`); said when the server is made, in its language."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "mcp_instructions": (
        "一部连载小说的长期记忆。写第 N 章之前调用 build_memory_pack（task 为 chapter_write；"
        "format 为 prompt 最省 token）；写完后抽取章节结果，先用 review_draft 审阅、修正阻断问题，"
        "再用 commit_chapter 写入。review_draft 与 impact_of_revision 的 result 与 commit_chapter "
        "的相同，其 JSON Schema 只在 commit_chapter 中给出一次。连续性问题问 get_fact、"
        "get_history、get_relations、list_threads、search_memory（某章发生了什么问 get_chapter）；"
        "每个回答都可截至任意一章（as_of）。",
        "Long-term memory for one serialized novel. Before writing chapter N call "
        "build_memory_pack (task chapter_write; format prompt costs the fewest tokens); after "
        "writing, extract the chapter result, call review_draft, fix blocking issues, then "
        "commit_chapter. review_draft and impact_of_revision take the same result as "
        "commit_chapter, whose JSON Schema is given once, there. Ask get_fact, get_history, "
        "get_relations, list_threads or search_memory for continuity questions (get_chapter for "
        "what happened in a chapter); every answer may be as of any chapter (as_of).",
    ),
    "help_tool_draft_as_commit": (
        "章节结果草稿，形状同 commit_chapter 的 result（按同一 schema 校验）",
        "a draft chapter result, shaped as commit_chapter's result (checked by the same schema)",
    ),
    "help_tool_revised_as_commit": (
        "改过的章节结果，形状同 commit_chapter 的 result（按同一 schema 校验）",
        "the revised chapter result, shaped as commit_chapter's result (checked by the same "
        "schema)",
    ),
}
