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
        "第{chapter}章的替换改变了 {count} 个答案，例如：{examples}",
        "replacing chapter {chapter} changed {count} answer(s), for example: {examples}",
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
}
