"""What an agent is told so that it cannot lose a chapter, or give a fact to the wrong person,
by mistake: a checked commit that would replace an earlier chapter's result and change answers,
an ambiguous name in a write, a newcomer taking another's alias. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a checked commit replacing an earlier chapter with another result (book/revising.py) --
    "replacement_refused": (
        "第{chapter}章已提交过另一版本（书已写到第{latest}章），本次未替换：替换会{summary}；"
        "例如：{examples}{next}",
        "chapter {chapter} already has another version (the book is at chapter {latest}); "
        "not replaced: replacing it {summary}; for example: {examples}{next}",
    ),
    "next_force_replacement_cli": (
        "。若章号写错了，改正后再提交；若确是修订这一章，加 --force 再提交",
        ". If the chapter number is wrong, fix it and commit again; if this is a revision of "
        "that chapter, commit again with --force",
    ),
    "next_force_replacement_mcp": (
        "。若章号写错了，改正 result 的 chapter 后再提交；若确是修订这一章，"
        "commit_chapter 加 force=true 再提交",
        ". If the chapter number is wrong, fix the result's chapter and commit again; if this "
        "is a revision of that chapter, call commit_chapter again with force=true",
    ),
    "next_force_replacement_page": (
        "。若章号写错了，改正后再提交；若确是修订这一章，在改稿页提交",
        ". If the chapter number is wrong, fix it and commit again; if this is a revision of "
        "that chapter, commit it from the revise page",
    ),
    "replacement_answers_changed": (
        "第{chapter}章的替换改变了 {count} 个答案，例如：{examples}。要换回旧版本：命令行 "
        "webnovel restore {chapter}，MCP 的 restore_chapter",
        "replacing chapter {chapter} changed {count} answer(s), for example: {examples}. To "
        "bring the old version back: webnovel restore {chapter} at the command line, "
        "restore_chapter over MCP",
    ),
    # -- a newcomer taking a known entity's name or alias (memory/write/name_rules.py) ----------
    "advice_kind:alias_taken": ("占用已有别名", "known alias taken"),
    "hint_alias_taken": (
        "若指的是已登场的那个实体，请用它的 id 写进 entities_appeared / state_changes；若确是另一"
        "个人，给新人物换一个能区分的名字或别名",
        "if this is the entity already in the book, put it in entities_appeared / state_changes "
        "under its id; if it is someone else, give the newcomer a name or alias that tells them "
        "apart",
    ),
    # -- `webnovel mcp` on a book it refuses to open (mcp/refused.py) ---------------------------
    "mcp_book_refused": (
        "注意：这本书未能打开，每个工具调用都会返回这个错误，请把原因告诉作者：{why}",
        "note: this book could not be opened; every tool call answers with this error, tell "
        "the author why: {why}",
    ),
    # -- a string of a chapter result past its limit (memory/write/result_checker.py) -----------
    "result_string_too_long": (
        "过长：{got} 个字符，上限 {limit} 个（正文请放在 text 里）",
        "too long: {got} characters, at most {limit} (a chapter's prose goes in text)",
    ),
    # -- a checked commit refused by review: fix it, or force it (errors.py, ReviewBlocked) -----
    "next_force_commit_cli": (
        "（改正后再提交；确属有意为之时加 --force 强制写入，矛盾会记为冲突）",
        " (fix them, or commit with --force; the contradictions become conflicts)",
    ),
    "next_force_commit_mcp": (
        "（改正 result 后再调用 commit_chapter；确属有意为之时加 force=true 强制写入，矛盾会记为冲突）",
        " (fix the result and call commit_chapter again, or pass force=true; the contradictions "
        "become conflicts)",
    ),
    "next_force_commit_page": (
        "（改正后再提交；确属有意为之时勾选强制写入，矛盾会记为冲突）",
        " (fix them, or tick the force box; the contradictions become conflicts)",
    ),
    # -- restore: a chapter's earlier version brought back from the commit log -----------------
    "tool_restore_chapter": (
        "从提交日志换回某章的旧版本（被替换或被撤回的那一版，结果与正文一起），再提交一次；"
        "不填 commit_id 即最近一个旧版本。误把别章的结果提交成这一章时用它撤销，不要用 "
        "retract_chapter（那会让这一章整个消失）",
        "bring back an earlier version of a chapter from the commit log (the one replaced or "
        "retracted, result and text) by committing it again; without commit_id, the latest "
        "such. Use it to undo a result committed under the wrong chapter number, not "
        "retract_chapter (which takes the chapter away)",
    ),
    "help_tool_restore_commit_id": (
        "要换回的版本的 commit id（或其开头，如替换时的提示所给）；不填即最近一个旧版本",
        "the commit id of the version to bring back (or its start, as the replacement's "
        "warning gave it); left out, the latest earlier version",
    ),
    "help_restore": (
        "从提交日志换回某章的旧版本（被替换或撤回的那一版）",
        "bring back an earlier version of a chapter from the commit log (one replaced or "
        "retracted)",
    ),
    "help_restore_chapter": ("章节号", "the chapter number"),
    "help_restore_commit": (
        "要换回的版本的 commit id 或其开头（默认：最近一个旧版本）",
        "the commit id, or its start, of the version to bring back (default: the latest "
        "earlier one)",
    ),
    "help_restore_force": (
        "即使该章已发布也换回（日志记为对已发布章节的修订）",
        "bring it back even if the chapter is published (logged as a revision of a published "
        "chapter)",
    ),
    "restore_needs_chapter": ("restore 需要章节号", "restore needs a chapter number"),
    "restore_no_version": (
        "第{chapter}章在提交日志中没有别的版本可换回",
        "chapter {chapter} has no other version in the commit log to bring back",
    ),
    "restore_no_such_version": (
        "第{chapter}章在提交日志中没有 commit id 以「{commit_id}」开头的旧版本",
        "chapter {chapter} has no earlier version in the commit log whose commit id starts "
        "with “{commit_id}”",
    ),
    # -- a published chapter's revision refused: forcing it, in each surface's words ----------
    "next_force_published_cli": (
        "确要修改已发布的章节，加 --force；日志会记为对已发布章节的修订",
        "Pass --force to do it anyway; the log records it as a revision of a published chapter",
    ),
    "next_force_published_mcp": (
        "确要修改已发布的章节须由作者决定：作者同意后再加 force=true 调用；日志会记为对已发布章节"
        "的修订",
        "Changing a published chapter is the author's decision: once they agree, repeat it "
        "with force=true; the log records it as a revision of a published chapter",
    ),
    "next_force_published_page": (
        "确要修改已发布的章节，勾选表单中的确认框再提交；日志会记为对已发布章节的修订",
        "To do it anyway, tick the box in the form and commit again; the log records it as a "
        "revision of a published chapter",
    ),
}
